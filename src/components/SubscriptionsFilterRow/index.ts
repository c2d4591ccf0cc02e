export { SubscriptionsFilterRow, type SubscriptionsFilterRowProps } from './SubscriptionsFilterRow';
