export { MetricsView, type MetricsViewProps } from './MetricsView';
