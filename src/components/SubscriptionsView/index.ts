export {
  SubscriptionsView,
  SUBSCRIPTIONS_FILTER_FIELDS,
  type SubscriptionDrawerState,
  type SubscriptionsViewProps,
} from './SubscriptionsView';
