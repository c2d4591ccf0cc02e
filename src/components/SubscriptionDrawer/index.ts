export {
  SubscriptionDrawer,
  DETAIL_FAILED_TEXT,
  ORDERS_FAILED_TEXT,
  type SubscriptionDrawerProps,
} from './SubscriptionDrawer';
