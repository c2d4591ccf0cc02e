import { useMemo } from 'react';
import { DASH, formatAmountWithCode } from '../../domain/format';
import { MIXED_CURRENCY_LABEL, pageAmountTotal } from '../../domain/detail';
import { cadenceLabel, orDash } from '../../domain/subscription-view';
import type { SubscriptionRow, SubscriptionSortKey } from '../../domain/types';
import { Button } from '../Button';
import { CustomerLink } from '../CustomerLink';
import {
  actionsColumn,
  DataTable,
  TruncatedText,
  textColumn,
  utcColumn,
  viewColumn,
  type DataTableColumn,
  type DataTableFooter,
  type ListTableProps,
} from '../DataTable';
import { providerStatusPill } from '../ProviderStatusBadge';
import styles from './SubscriptionsTable.module.css';

/** What the Subscriptions cells need from the view. */
export interface SubscriptionsCellContext {
  /** A row's email or View was clicked: open its detail drawer (§2). */
  onOpenDetails: (row: SubscriptionRow) => void;
}

/** The §2 Subscriptions columns, in order; sort keys are the §2 sortable keys. */
export const SUBSCRIPTIONS_COLUMNS: readonly DataTableColumn<
  SubscriptionRow,
  SubscriptionSortKey,
  SubscriptionsCellContext
>[] = [
  textColumn('row_id', 'ID', (s) => s.rowId, { width: '72px', align: 'end', sticky: 'start' }),
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
        {s.email.trim() ? (
          <CustomerLink email={s.email} aria-label={`Customer page of ${s.email.trim()}`}>
            <span className={styles.customerLink}>Customer page</span>
          </CustomerLink>
        ) : null}
      </div>
    ),
  },
  textColumn('provider', 'Provider', (s) => s.provider, { width: '128px' }),
  {
    id: 'provider_id',
    header: 'Sub ID',
    sortKey: 'provider_id',
    width: '128px',
    cell: (s) => <TruncatedText text={orDash(s.providerId)} />,
  },
  viewColumn('provider_status', 'Status', (s) => s.status, providerStatusPill, { width: '120px' }),
  textColumn('cadence', 'Cadence', (s) => cadenceLabel(s.cadence), { width: '100px' }),
  utcColumn('start_date', 'Start', (s) => s.startDate, { width: '160px' }),
  utcColumn('current_period_end', 'Renews', (s) => s.currentPeriodEnd, { width: '160px' }),
  utcColumn('expires_at', 'Expires', (s) => s.expiresAt, { width: '160px' }),
  {
    id: 'amount',
    header: 'Amount',
    sortKey: 'amount',
    align: 'end',
    width: '136px',
    cell: (s) => formatAmountWithCode(s.amountCents, s.currency),
  },
  utcColumn('updated_at', 'Last Update', (s) => s.updatedAt, { width: '160px' }),
  actionsColumn((s, c) => (
    <Button
      size="small"
      aria-label={`View details for ${s.email.trim() || DASH}`}
      onClick={() => c.onOpenDetails(s)}
    >
      View
    </Button>
  )),
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

/** Props of {@link SubscriptionsTable}: the list props (rows, sort, Retry/Refresh, paging) plus the drawer trigger. */
export interface SubscriptionsTableProps extends ListTableProps<
  SubscriptionRow,
  SubscriptionSortKey
> {
  /** The email or View of a row was clicked: open its detail drawer (§2). */
  onOpenDetails: (row: SubscriptionRow) => void;
}

/** The Subscriptions table's fixed configuration (§2 texts, the page-total footer). */
const SUBSCRIPTIONS_TABLE = {
  label: 'Subscriptions',
  columns: SUBSCRIPTIONS_COLUMNS,
  getRowId: (s: SubscriptionRow) => String(s.rowId),
  loadingText: 'Loading subscriptions…',
  emptyText: 'No subscriptions found.',
  footer: pageTotalFooter,
};

/**
 * The Subscriptions table (§2) on the shared DataTable: the 11 sortable keys, the email as the
 * detail trigger plus a View action, and a footer totalling the page's amounts ('— Mixed —' for
 * several currencies). Holds no state: sorting and which row is open belong to the screen.
 */
export function SubscriptionsTable({ onOpenDetails, ...list }: SubscriptionsTableProps) {
  const context = useMemo<SubscriptionsCellContext>(() => ({ onOpenDetails }), [onOpenDetails]);
  return <DataTable {...list} {...SUBSCRIPTIONS_TABLE} context={context} />;
}
