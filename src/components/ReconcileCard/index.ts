export { ReconcileCard, type ReconcileCardProps } from './ReconcileCard';
