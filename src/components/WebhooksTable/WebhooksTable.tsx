import { useMemo } from 'react';
import { DASH, formatUtcDateTimeSeconds } from '../../domain/format';
import {
  OUTCOME_LABELS,
  PROVIDER_LABELS,
  outcomeTone,
  type WebhookDelivery,
  type WebhooksSortKey,
} from '../../domain/webhooks';
import { Badge } from '../Badge';
import { Button } from '../Button';
import { CustomerLink } from '../CustomerLink';
import {
  DataTable,
  actionsColumn,
  textColumn,
  viewColumn,
  type DataTableColumn,
  type ListTableProps,
} from '../DataTable';
import styles from './WebhooksTable.module.css';

/** What the cells need from the table's owner. */
interface WebhooksCellContext {
  /** A row's View was clicked: open its delivery drawer. */
  onOpenDelivery: (row: WebhookDelivery) => void;
}

/** The columns: Received (UTC, to the second), Provider, Event, Outcome, HTTP, Email, Reason, View. */
export const WEBHOOKS_COLUMNS: readonly DataTableColumn<
  WebhookDelivery,
  WebhooksSortKey,
  WebhooksCellContext
>[] = [
  {
    id: 'received_at',
    header: 'Received (UTC)',
    width: '196px',
    cell: (d) => {
      const shown = formatUtcDateTimeSeconds(d.receivedAt);
      return d.receivedAt && shown !== DASH ? <time dateTime={d.receivedAt}>{shown}</time> : DASH;
    },
  },
  textColumn('provider', 'Provider', (d) => PROVIDER_LABELS[d.provider] ?? d.provider, {
    width: '136px',
  }),
  {
    id: 'event',
    header: 'Event',
    width: '250px',
    cell: (d) => (d.event ? <code className={styles.code}>{d.event}</code> : DASH),
  },
  viewColumn<WebhookDelivery, WebhooksSortKey, WebhooksCellContext, WebhookDelivery>(
    'outcome',
    'Outcome',
    (d) => d,
    (d) => <Badge tone={outcomeTone(d.outcome)}>{OUTCOME_LABELS[d.outcome]}</Badge>,
    { width: '170px' },
  ),
  textColumn('http_status', 'HTTP', (d) => d.httpStatus || null, { width: '72px', align: 'end' }),
  {
    id: 'email',
    header: 'Email',
    width: '230px',
    cell: (d) => (d.email ? <CustomerLink email={d.email} isTruncated /> : DASH),
  },
  {
    id: 'error',
    header: 'Error or reason',
    width: '320px',
    wrap: true,
    cell: (d) => d.error ?? DASH,
  },
  actionsColumn((d, c) => (
    <Button
      size="small"
      aria-label={`View delivery ${d.id} (${d.event ?? 'no event'})`}
      onClick={() => c.onOpenDelivery(d)}
    >
      View
    </Button>
  )),
];

/** Props of {@link WebhooksTable}: the list props plus the row action. */
export interface WebhooksTableProps extends Omit<
  ListTableProps<WebhookDelivery, WebhooksSortKey>,
  'sort' | 'onSortChange'
> {
  /** A row's View was clicked: open its delivery drawer. */
  onOpenDelivery: (row: WebhookDelivery) => void;
}

const WEBHOOKS_TABLE = {
  label: 'Webhook deliveries',
  columns: WEBHOOKS_COLUMNS,
  getRowId: (d: WebhookDelivery) => d.id,
  loadingText: 'Loading…',
  emptyText: 'No webhook deliveries found.',
};

/**
 * The webhook inbox, newest first as the server sends it, on the shared DataTable: 'Loading…', the
 * error with Retry, 'No webhook deliveries found.' with Refresh.
 */
export function WebhooksTable({ onOpenDelivery, ...list }: WebhooksTableProps) {
  const context = useMemo<WebhooksCellContext>(() => ({ onOpenDelivery }), [onOpenDelivery]);
  return <DataTable {...list} {...WEBHOOKS_TABLE} context={context} />;
}
