import {
  CADENCES,
  PROVIDER_STATUSES,
  PROVIDERS,
  SUBSCRIPTIONS_PAGE_SIZES,
  type AsyncState,
  type MarketplaceOrder,
  type SubscriptionDetail,
  type SubscriptionRow,
  type SubscriptionsFilters,
  type SubscriptionsPage,
  type SubscriptionSortKey,
} from '../../domain/types';
import type { CustomerAuditProps } from '../CustomerAudit';
import type { ServerListViewProps } from '../DataTable';
import { FilterRow, optionsWithAny, type FilterField } from '../FilterRow';
import { PageHeader } from '../PageHeader';
import { Pager } from '../Pager';
import { SubscriptionDrawer } from '../SubscriptionDrawer';
import { SubscriptionsTable } from '../SubscriptionsTable';
import styles from './SubscriptionsView.module.css';

/** The §2 Subscriptions filter row: ID, Email, Provider, Sub ID, Status, Cadence and four ranges. */
export const SUBSCRIPTIONS_FILTER_FIELDS: readonly FilterField<SubscriptionsFilters>[] = [
  { kind: 'text', key: 'rowId', label: 'ID', inputMode: 'numeric' },
  { kind: 'text', key: 'email', label: 'Email', type: 'search' },
  { kind: 'select', key: 'provider', label: 'Provider', options: optionsWithAny('All', PROVIDERS) },
  { kind: 'text', key: 'providerId', label: 'Sub ID' },
  {
    kind: 'select',
    key: 'status',
    label: 'Status',
    options: optionsWithAny('Any', PROVIDER_STATUSES),
  },
  {
    kind: 'select',
    key: 'cadence',
    label: 'Cadence',
    options: optionsWithAny('Any', CADENCES, { monthly: 'Monthly', yearly: 'Yearly' }),
  },
  { kind: 'range', label: 'Start', from: 'startFrom', to: 'startTo', input: 'date' },
  { kind: 'range', label: 'Renew', from: 'renewFrom', to: 'renewTo', input: 'date' },
  { kind: 'range', label: 'Expire', from: 'expireFrom', to: 'expireTo', input: 'date' },
  { kind: 'range', label: 'Updated', from: 'updatedFrom', to: 'updatedTo', input: 'date' },
];

/** What the detail drawer shows (§2): which row is open and its loads. */
export interface SubscriptionDrawerState {
  /** The row whose details are open; null while the drawer is closed. */
  openRow: SubscriptionRow | null;
  /** GET /subscriptions/detail for that row (§7). */
  detail: AsyncState<SubscriptionDetail>;
  /** The customer's ClickBank order records, newest first; read only for clickbank details. */
  orders: AsyncState<readonly MarketplaceOrder[]>;
  /** The customer's newest audit rows and the link to all of them. */
  audit: CustomerAuditProps;
}

/**
 * Props of {@link SubscriptionsView}: the list's (§7 GET /subscriptions; error messages shown as
 * given, '{status} {message}' or 'Failed to load subscriptions') plus the detail drawer.
 */
export interface SubscriptionsViewProps extends ServerListViewProps<
  SubscriptionsFilters,
  SubscriptionSortKey,
  SubscriptionsPage
> {
  /** The drawer's content; `openRow` null keeps it closed. */
  drawer: SubscriptionDrawerState;
  /** A row's email or View was clicked: open its details. */
  onOpenDetails: (row: SubscriptionRow) => void;
  /** The drawer was closed (Close, Escape or backdrop). */
  onCloseDetails: () => void;
}

/**
 * The Subscriptions screen's view (§2): title, hint, filter row, the server-driven table with its
 * page-total footer, the pager, and the detail drawer. Pure: the screen owns the query, the loads
 * and which row is open. Focus returns to the clicked email or View button when the drawer closes.
 */
export function SubscriptionsView({
  list,
  query,
  filters,
  totalPages,
  isRefreshing = false,
  drawer,
  onPageChange,
  onPageSizeChange,
  onSortChange,
  onFiltersChange,
  onClearAll,
  onRefresh,
  onOpenDetails,
  onCloseDetails,
}: SubscriptionsViewProps) {
  const rows: AsyncState<readonly SubscriptionRow[]> =
    list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list;
  const total = list.status === 'ready' ? list.data.total : list.status === 'empty' ? 0 : null;
  const handleOpenChange = (isOpen: boolean) => {
    if (!isOpen) onCloseDetails();
  };

  return (
    <div className={styles.view}>
      <PageHeader title="Subscriptions">
        <p className={styles.hint}>Click an email to view details.</p>
      </PageHeader>
      <FilterRow
        label="Subscription filters"
        fields={SUBSCRIPTIONS_FILTER_FIELDS}
        values={filters}
        onValuesChange={onFiltersChange}
        onClearAll={onClearAll}
      />
      <SubscriptionsTable
        rows={rows}
        sort={query.sort}
        onSortChange={onSortChange}
        onOpenDetails={onOpenDetails}
        onRetry={onRefresh}
        onRefresh={onRefresh}
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(query.page - 1) * query.pageSize}
      />
      {/* Error states carry their own Retry in the table. */}
      {list.status !== 'error' ? (
        <Pager
          label="Subscriptions pages"
          page={query.page}
          totalPages={totalPages ?? (list.status === 'empty' ? 1 : null)}
          total={total}
          pageSize={query.pageSize}
          pageSizes={SUBSCRIPTIONS_PAGE_SIZES}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          onRefresh={onRefresh}
          isBusy={list.status === 'loading' || isRefreshing}
        />
      ) : null}
      <SubscriptionDrawer
        isOpen={drawer.openRow != null}
        onOpenChange={handleOpenChange}
        detail={drawer.detail}
        orders={drawer.orders}
        audit={drawer.audit}
      />
    </div>
  );
}
