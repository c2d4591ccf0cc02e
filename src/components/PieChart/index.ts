export { PieChart, type PieChartProps } from './PieChart';
