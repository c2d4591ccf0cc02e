export {
  WebhookDeliveryDrawer,
  type ReplayState,
  type WebhookDeliveryDrawerProps,
} from './WebhookDeliveryDrawer';
