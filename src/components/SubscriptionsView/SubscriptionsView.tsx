import { useMemo } from 'react';
import { totalPagesOf } from '../../domain/subscription-view';
import {
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
import { Pager } from '../Pager';
import { SubscriptionDrawer } from '../SubscriptionDrawer';
import { SubscriptionsFilterRow } from '../SubscriptionsFilterRow';
import { SubscriptionsTable } from '../SubscriptionsTable';
import styles from './SubscriptionsView.module.css';

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
  /** The sort in force (§2; default row_id descending). */
  sort: SortState<SubscriptionSortKey>;
  /** The filter row's values (controlled). */
  filters: SubscriptionsFilters;
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
  sort,
  filters,
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
  const rows = useMemo<AsyncState<readonly SubscriptionRow[]>>(
    () => (list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list),
    [list],
  );
  const hasRows = list.status === 'ready' && list.data.rows.length > 0;
  // Unknown (shown as '…') while loading.
  const total = list.status === 'ready' ? list.data.total : null;
  const totalPages = total == null ? null : totalPagesOf(total, pageSize);
  const handleOpenChange = (isOpen: boolean) => {
    if (!isOpen) onCloseDetails();
  };

  return (
    <div className={styles.view}>
      <header className={styles.header}>
        <h1 className={styles.title}>Subscriptions</h1>
        <p className={styles.hint}>Click an email to view details.</p>
      </header>
      <SubscriptionsFilterRow
        filters={filters}
        onFiltersChange={onFiltersChange}
        onClearAll={onClearAll}
      />
      <SubscriptionsTable
        rows={rows}
        sort={sort}
        onSortChange={onSortChange}
        onOpenDetails={onOpenDetails}
        onRefresh={onRefresh}
      />
      {/* Error and empty states carry their own Retry / Refresh in the table. */}
      {hasRows || list.status === 'loading' ? (
        <Pager
          label="Subscriptions pages"
          page={page}
          totalPages={totalPages}
          total={total}
          pageSize={pageSize}
          pageSizes={SUBSCRIPTIONS_PAGE_SIZES}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          onRefresh={onRefresh}
          isBusy={list.status === 'loading'}
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
