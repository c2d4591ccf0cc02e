import { useId } from 'react';
import { formatCount } from '../../domain/format';
import type { AsyncState } from '../../domain/types';
import {
  DELIVERY_OUTCOMES,
  OUTCOME_LABELS,
  PROVIDER_LABELS,
  WEBHOOK_PROVIDERS,
  WEBHOOKS_PAGE_SIZES,
  type WebhookDeliveriesPage,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhooksFilters,
  type WebhooksSortKey,
} from '../../domain/webhooks';
import { Button } from '../Button';
import type { ServerListViewProps } from '../DataTable';
import { SelectField } from '../Field';
import { FilterRow, optionsWithAny, type FilterField } from '../FilterRow';
import { PageHeader } from '../PageHeader';
import { Pager } from '../Pager';
import { WebhookDeliveryDrawer, type ReplayState } from '../WebhookDeliveryDrawer';
import { WebhooksTable } from '../WebhooksTable';
import styles from './WebhooksView.module.css';

/** The filters: Provider, Outcome, Event, Email, and the Received range (UTC). */
export const WEBHOOKS_FILTER_FIELDS: readonly FilterField<WebhooksFilters>[] = [
  {
    kind: 'select',
    key: 'provider',
    label: 'Provider',
    options: optionsWithAny('Any', WEBHOOK_PROVIDERS, PROVIDER_LABELS),
  },
  {
    kind: 'select',
    key: 'outcome',
    label: 'Outcome',
    options: optionsWithAny('Any', DELIVERY_OUTCOMES, OUTCOME_LABELS),
  },
  { kind: 'text', key: 'event', label: 'Event', type: 'search', placeholder: 'e.g. order_created' },
  { kind: 'text', key: 'email', label: 'Email', type: 'search', placeholder: 'whole address' },
  { kind: 'range', label: 'Received', from: 'from', to: 'to', input: 'datetime-local' },
];

const ROWS_OPTIONS = WEBHOOKS_PAGE_SIZES.map((size) => ({
  value: String(size),
  label: String(size),
}));

/** What the delivery drawer shows: which row is open, its detail and its replay. */
export interface WebhookDrawerState {
  /** The row whose delivery is open; null while the drawer is closed. */
  openRow: WebhookDelivery | null;
  /** GET /webhook-deliveries/:id for that row. */
  detail: AsyncState<WebhookDeliveryDetail>;
  /** The replay of that delivery. */
  replay: ReplayState;
}

/** Props of {@link WebhooksView}: the list's (GET /webhook-deliveries) plus the delivery drawer. */
export interface WebhooksViewProps extends Omit<
  ServerListViewProps<WebhooksFilters, WebhooksSortKey, WebhookDeliveriesPage>,
  'onSortChange'
> {
  /** The drawer's content; `openRow` null keeps it closed. */
  drawer: WebhookDrawerState;
  /** Whether the signed-in operator may replay (role admin and up). */
  canReplay: boolean;
  /** A row's View was clicked: open its delivery. */
  onOpenDelivery: (row: WebhookDelivery) => void;
  /** The drawer was closed (Close, Escape or backdrop). */
  onCloseDelivery: () => void;
  /** Replay was clicked in the drawer. */
  onReplay: () => void;
}

/**
 * The Webhooks screen's view: every delivery the providers posted, newest first, with what became
 * of it; filters for provider, outcome, event, email and the received time (UTC); Rows and the
 * pager; a row's View opens the delivery drawer. Pure.
 */
export function WebhooksView({
  list,
  query,
  filters,
  totalPages,
  isRefreshing = false,
  drawer,
  canReplay,
  onFiltersChange,
  onClearAll,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  onOpenDelivery,
  onCloseDelivery,
  onReplay,
}: WebhooksViewProps) {
  const titleId = useId();
  const rows: AsyncState<readonly WebhookDelivery[]> =
    list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list;
  const total = list.status === 'ready' ? list.data.total : list.status === 'empty' ? 0 : null;
  const isBusy = list.status === 'loading' || isRefreshing;
  const isCapped = list.status === 'ready' && list.data.isTotalCapped;
  const formatTotal = (count: number) => `Total: ${formatCount(count)}${isCapped ? '+' : ''}`;

  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <PageHeader title="Webhooks" titleId={titleId}>
        <p className={styles.hint}>
          Every provider delivery, whatever became of it (latest first). Times in UTC.
        </p>
      </PageHeader>
      <FilterRow
        label="Webhook filters"
        fields={WEBHOOKS_FILTER_FIELDS}
        values={filters}
        onValuesChange={onFiltersChange}
        onClearAll={onClearAll}
        actions={
          <Button
            // aria-disabled keeps the button focusable while busy, so the click is ignored here.
            onClick={() => {
              if (!isBusy) onRefresh();
            }}
            aria-disabled={isBusy || undefined}
          >
            Refresh
          </Button>
        }
      >
        <SelectField
          label="Rows"
          options={ROWS_OPTIONS}
          value={String(query.pageSize)}
          onValueChange={(value) => onPageSizeChange(Number(value))}
        />
      </FilterRow>
      <WebhooksTable
        rows={rows}
        onOpenDelivery={onOpenDelivery}
        onRetry={onRefresh}
        onRefresh={onRefresh}
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(query.page - 1) * query.pageSize}
      />
      {list.status !== 'error' ? (
        <Pager
          label="Webhook pages"
          page={query.page}
          totalPages={totalPages ?? (list.status === 'empty' ? 1 : null)}
          total={total}
          formatTotal={formatTotal}
          pageSize={query.pageSize}
          onPageChange={onPageChange}
          onRefresh={onRefresh}
          isBusy={isBusy}
        />
      ) : null}
      <WebhookDeliveryDrawer
        isOpen={drawer.openRow != null}
        onOpenChange={(isOpen) => {
          if (!isOpen) onCloseDelivery();
        }}
        detail={drawer.detail}
        canReplay={canReplay}
        replay={drawer.replay}
        onReplay={onReplay}
      />
    </section>
  );
}
