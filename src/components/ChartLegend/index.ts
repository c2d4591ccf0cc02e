export { ChartLegend, type ChartLegendProps, type LegendItem } from './ChartLegend';
