export { TrendChart, type TrendChartProps } from './TrendChart';
