export {
  WebhooksView,
  WEBHOOKS_FILTER_FIELDS,
  type WebhookDrawerState,
  type WebhooksViewProps,
} from './WebhooksView';
