export { DailyBarsChart, type DailyBarsChartProps } from './DailyBarsChart';
export { providerSeries, rowDate, rowTotal, type DailySeries } from './series';
