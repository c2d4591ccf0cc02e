export { RevenueView, type RevenueViewProps } from './RevenueView';
