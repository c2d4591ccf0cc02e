export {
  SubscriptionsView,
  type SubscriptionDrawerState,
  type SubscriptionsViewProps,
} from './SubscriptionsView';
