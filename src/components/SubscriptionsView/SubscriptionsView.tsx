import {
  CADENCES,
  PROVIDER_STATUSES,
  PROVIDERS,
  SUBSCRIPTIONS_PAGE_SIZES,
  type AsyncState,
  type MarketplaceOrder,
  type SortState,
  type SubscriptionDetail,
  type SubscriptionRow,
  type SubscriptionsFilters,
  type SubscriptionsPage,
  type SubscriptionSortKey,
} from '../../domain/types';
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

/** What the detail drawer shows (§2): which row is open and its two loads. */
export interface SubscriptionDrawerState {
  /** The row whose details are open; null while the drawer is closed. */
  openRow: SubscriptionRow | null;
  /** GET /subscriptions/detail for that row (§7). */
  detail: AsyncState<SubscriptionDetail>;
  /** The customer's ClickBank order records, newest first; read only for clickbank details. */
  orders: AsyncState<readonly MarketplaceOrder[]>;
}

/** Props of {@link SubscriptionsView}. */
export interface SubscriptionsViewProps {
  /** GET /subscriptions (§7): error messages are shown as given ('{status} {message}' or 'Failed to load subscriptions'). */
  list: AsyncState<SubscriptionsPage>;
  /** Current page, 1-based. */
  page: number;
  /** Rows per page (§9: 20, 50, 100, 200; default 50). */
  pageSize: number;
  /** Total pages once known, else null (shown as '…'). */
  totalPages: number | null;
  /** The sort in force (§2; default row_id descending). */
  sort: SortState<SubscriptionSortKey>;
  /** The filter inputs' values (controlled; may run ahead of the applied query while debounced). */
  filters: SubscriptionsFilters;
  /** A new page loads while the previous stays on screen. */
  isRefreshing?: boolean;
  /** The drawer's content; `openRow` null keeps it closed. */
  drawer: SubscriptionDrawerState;
  /** Prev / Next. */
  onPageChange: (page: number) => void;
  /** A page size was chosen. */
  onPageSizeChange: (pageSize: number) => void;
  /** A sortable header was clicked; the screen toggles the direction or starts a new key. */
  onSortChange: (key: SubscriptionSortKey) => void;
  /** Any filter changed (the whole new set). */
  onFiltersChange: (filters: SubscriptionsFilters) => void;
  /** Clear: reset all filters and return to page 1 (§2). */
  onClearAll: () => void;
  /** Retry, Refresh: reload the current page. */
  onRefresh: () => void;
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
  page,
  pageSize,
  totalPages,
  sort,
  filters,
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
        sort={sort}
        onSortChange={onSortChange}
        onOpenDetails={onOpenDetails}
        onRefresh={onRefresh}
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(page - 1) * pageSize}
      />
      {/* Error states carry their own Retry in the table. */}
      {list.status !== 'error' ? (
        <Pager
          label="Subscriptions pages"
          page={page}
          totalPages={totalPages ?? (list.status === 'empty' ? 1 : null)}
          total={total}
          pageSize={pageSize}
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
      />
    </div>
  );
}
