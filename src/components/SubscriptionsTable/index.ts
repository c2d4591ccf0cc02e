export { SubscriptionsTable, type SubscriptionsTableProps } from './SubscriptionsTable';
