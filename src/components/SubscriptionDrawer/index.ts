export {
  SubscriptionDrawer,
  type SubscriptionDrawerProps,
} from './SubscriptionDrawer';
