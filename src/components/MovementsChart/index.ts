export { MovementsChart, type MovementsChartProps } from './MovementsChart';
export { MOVEMENT_COLORS } from './colors';
