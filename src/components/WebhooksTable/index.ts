export { WebhooksTable, WEBHOOKS_COLUMNS, type WebhooksTableProps } from './WebhooksTable';
