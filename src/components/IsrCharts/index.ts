export { IsrCharts, type IsrChartsProps } from './IsrCharts';
