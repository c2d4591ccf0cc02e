export { RankedBarsChart, type RankedBarsChartProps } from './RankedBarsChart';
