import { useMemo } from 'react';
import { DASH, formatAmountWithCode, formatUtcDateTime } from '../../domain/format';
import { MIXED_CURRENCY_LABEL, pageAmountTotal } from '../../domain/detail';
import { cadenceLabel, orDash } from '../../domain/subscription-view';
import type {
  AsyncState,
  SortState,
  SubscriptionRow,
  SubscriptionSortKey,
} from '../../domain/types';
import { Button } from '../Button';
import { DataTable, TruncatedText, type DataTableColumn, type DataTableFooter } from '../DataTable';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import styles from './SubscriptionsTable.module.css';

/** What the Subscriptions cells need from the view. */
export interface SubscriptionsCellContext {
  /** A row's email or View was clicked: open its detail drawer (§2). */
  onOpenDetails: (row: SubscriptionRow) => void;
}

/**
 * A UTC date cell: 'YYYY-MM-DD HH:MM' (§5) in a <time> element, or a dash.
 */
function utcCell(value: string | null) {
  const shown = formatUtcDateTime(value);
  return shown === DASH || value == null ? DASH : <time dateTime={value}>{shown}</time>;
}

/** The §2 Subscriptions columns, in order; sort keys are the §2 sortable keys. */
export const SUBSCRIPTIONS_COLUMNS: readonly DataTableColumn<
  SubscriptionRow,
  SubscriptionSortKey,
  SubscriptionsCellContext
>[] = [
  {
    id: 'row_id',
    header: 'ID',
    sortKey: 'row_id',
    align: 'end',
    width: '72px',
    sticky: 'start',
    cell: (s) => orDash(s.rowId),
  },
  {
    id: 'email',
    header: 'Email / Name',
    sortKey: 'email',
    width: '240px',
    sticky: 'start',
    wrap: true,
    cell: (s, c) => (
      <div className={styles.who}>
        <button type="button" className={styles.emailButton} onClick={() => c.onOpenDetails(s)}>
          {s.email.trim() || DASH}
        </button>
        {s.name ? <span className={styles.name}>{s.name}</span> : null}
      </div>
    ),
  },
  {
    id: 'provider',
    header: 'Provider',
    sortKey: 'provider',
    width: '128px',
    cell: (s) => orDash(s.provider),
  },
  {
    id: 'provider_id',
    header: 'Sub ID',
    sortKey: 'provider_id',
    width: '128px',
    cell: (s) => <TruncatedText text={orDash(s.providerId)} />,
  },
  {
    id: 'provider_status',
    header: 'Status',
    sortKey: 'provider_status',
    width: '120px',
    cell: (s) => <ProviderStatusBadge status={s.status} />,
  },
  {
    id: 'cadence',
    header: 'Cadence',
    sortKey: 'cadence',
    width: '100px',
    cell: (s) => cadenceLabel(s.cadence),
  },
  {
    id: 'start_date',
    header: 'Start',
    sortKey: 'start_date',
    width: '160px',
    cell: (s) => utcCell(s.startDate),
  },
  {
    id: 'current_period_end',
    header: 'Renews',
    sortKey: 'current_period_end',
    width: '160px',
    cell: (s) => utcCell(s.currentPeriodEnd),
  },
  {
    id: 'expires_at',
    header: 'Expires',
    sortKey: 'expires_at',
    width: '160px',
    cell: (s) => utcCell(s.expiresAt),
  },
  {
    id: 'amount',
    header: 'Amount',
    sortKey: 'amount',
    align: 'end',
    width: '136px',
    cell: (s) => formatAmountWithCode(s.amountCents, s.currency),
  },
  {
    id: 'updated_at',
    header: 'Last Update',
    sortKey: 'updated_at',
    width: '160px',
    cell: (s) => utcCell(s.updatedAt),
  },
  {
    id: 'actions',
    header: 'Actions',
    width: '84px',
    sticky: 'end',
    cell: (s, c) => (
      <Button
        size="small"
        aria-label={`View details for ${s.email.trim() || DASH}`}
        onClick={() => c.onOpenDetails(s)}
      >
        View
      </Button>
    ),
  },
];

/** The footer (§2): the page's amount total with its currency, '— Mixed —', or a dash. */
function pageTotalFooter(rows: readonly SubscriptionRow[]): DataTableFooter {
  const total = pageAmountTotal(rows);
  const amount =
    total.kind === 'mixed'
      ? MIXED_CURRENCY_LABEL
      : total.kind === 'none'
        ? DASH
        : formatAmountWithCode(total.amountCents, total.currency);
  return { row_id: 'Page total', amount };
}

/** Props of {@link SubscriptionsTable}. */
export interface SubscriptionsTableProps {
  /** The page's rows: loading, error (message shown as given, §8), empty, ready. */
  rows: AsyncState<readonly SubscriptionRow[]>;
  /** The server-side sort in force (§2; default row_id descending). */
  sort: SortState<SubscriptionSortKey>;
  /** A header cell was clicked; the screen toggles or switches the sort (§2). */
  onSortChange: (key: SubscriptionSortKey) => void;
  /** The email or View of a row was clicked: open its detail drawer (§2). */
  onOpenDetails: (row: SubscriptionRow) => void;
  /** Retry after an error, Refresh on an empty list. */
  onRefresh: () => void;
  /** A new page loads while this one stays on screen. */
  isRefreshing?: boolean;
  /** How many subscriptions all pages hold (aria-rowcount). */
  rowCount?: number;
  /** 0-based position of the first row in the whole list (aria-rowindex). */
  firstRowIndex?: number;
}

const rowId = (s: SubscriptionRow) => String(s.rowId);

/**
 * The Subscriptions table (§2) on the shared DataTable: the 11 sortable keys, the email as the
 * detail trigger plus a View action, and a footer totalling the page's amounts ('— Mixed —' for
 * several currencies). Holds no state: sorting and which row is open belong to the screen.
 */
export function SubscriptionsTable({
  rows,
  sort,
  onSortChange,
  onOpenDetails,
  onRefresh,
  isRefreshing,
  rowCount,
  firstRowIndex,
}: SubscriptionsTableProps) {
  const context = useMemo<SubscriptionsCellContext>(() => ({ onOpenDetails }), [onOpenDetails]);
  return (
    <DataTable
      label="Subscriptions"
      columns={SUBSCRIPTIONS_COLUMNS}
      rows={rows}
      getRowId={rowId}
      context={context}
      sort={sort}
      onSortChange={onSortChange}
      loadingText="Loading subscriptions…"
      emptyText="No subscriptions found."
      onRetry={onRefresh}
      onRefresh={onRefresh}
      isRefreshing={isRefreshing}
      footer={pageTotalFooter}
      rowCount={rowCount}
      firstRowIndex={firstRowIndex}
    />
  );
}
