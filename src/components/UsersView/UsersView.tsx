import { useId, useState } from 'react';
import { formatCount } from '../../domain/format';
import { isActiveUser } from '../../domain/status';
import { USERS_PAGE_SIZES } from '../../domain/types';
import type {
  AccessAction,
  AsyncState,
  UserSortKey,
  UsersFilters,
  UsersPage,
  UsersQuery,
} from '../../domain/types';
import { ActionResultAlert, type ActionResultMessage } from '../ActionResultAlert';
import { Pager } from '../Pager';
import { UsersFilterRow } from '../UsersFilterRow';
import { UsersTable } from '../UsersTable';
import styles from './UsersView.module.css';

/** Props of {@link UsersView}. */
export interface UsersViewProps {
  /** The list: loading, error (message), empty, or ready with one page (§3 Users list response). */
  list: AsyncState<UsersPage>;
  /** What the screen asked for: page (1-based), page size, sort and filters (§7 GET /users). */
  query: UsersQuery;
  /** Page-size choices (§9: 20, 50, 100, 200, 500). */
  pageSizes?: readonly number[];
  /** The last access action's result (§8), shown above the table until dismissed; null for none. */
  actionResult?: ActionResultMessage | null;
  /** The email whose access action is running (its Edit menu waits). */
  pendingActionEmail?: string | null;
  /** The instant badges, the active count and date defaults are judged against; defaults to now. */
  now?: Date;
  /** A filter changed (raw values; the screen trims, debounces 300 ms and resets to page 1). */
  onFiltersChange: (next: UsersFilters) => void;
  /** Clear: reset every filter and return to page 1. */
  onClearAll: () => void;
  /** A column header was clicked (the screen applies: new column ascending, same column toggles). */
  onSortChange: (key: UserSortKey) => void;
  /** Go to this page. */
  onPageChange: (page: number) => void;
  /** A new page size (the screen resets to page 1). */
  onPageSizeChange: (pageSize: number) => void;
  /** Reload the current page (pager Refresh, empty-state Refresh). */
  onRefresh: () => void;
  /** Retry after a failed load. */
  onRetry: () => void;
  /** A confirmed access action for a user (dated ones carry 'YYYY-MM-DD HH:MM:SS' UTC). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** The action result was dismissed. */
  onDismissActionResult: () => void;
}

/** '1 user' / '1,234 users'. */
function usersCount(total: number): string {
  return `${formatCount(total)} ${total === 1 ? 'user' : 'users'}`;
}

/**
 * The Users screen's view (§2 Users screen): the title 'Users', the header text ('Page X of Y',
 * the total, the count of active users on the page), the filter row, the last action result, the
 * table and the pager. Pure: everything arrives as props and leaves as callbacks.
 */
export function UsersView({
  list,
  query,
  pageSizes = USERS_PAGE_SIZES,
  actionResult = null,
  pendingActionEmail = null,
  now,
  onFiltersChange,
  onClearAll,
  onSortChange,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  onRetry,
  onAccessAction,
  onDismissActionResult,
}: UsersViewProps) {
  const titleId = useId();
  const [defaultNow] = useState(() => new Date());
  const at = now ?? defaultNow;
  const page = list.status === 'ready' ? list.data : null;
  const rows = page?.rows ?? [];
  const activeOnPage = rows.filter((row) => isActiveUser(row, at)).length;
  const activeText = `${formatCount(activeOnPage)} active on this page`;
  // Known only once a page (or an empty answer) arrived.
  const totalPages = page ? Math.max(1, page.totalPages) : list.status === 'empty' ? 1 : null;
  const total = page ? page.total : list.status === 'empty' ? 0 : null;

  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <header className={styles.header}>
        <h1 id={titleId} className={styles.title}>
          Users
        </h1>
        <p className={styles.summary} aria-live="polite">
          {totalPages != null && total != null ? (
            <>
              <span>
                Page {formatCount(query.page)} of {formatCount(totalPages)}
              </span>
              <span>{usersCount(total)}</span>
              <span>{activeText}</span>
            </>
          ) : null}
        </p>
      </header>

      <UsersFilterRow
        filters={query.filters}
        onFiltersChange={onFiltersChange}
        onClearAll={onClearAll}
      />

      {actionResult ? (
        <ActionResultAlert
          tone={actionResult.tone}
          message={actionResult.message}
          onDismiss={onDismissActionResult}
        />
      ) : null}

      <UsersTable
        data={rows}
        status={list.status}
        errorMessage={list.status === 'error' ? list.message : undefined}
        sort={query.sort}
        onSortChange={onSortChange}
        onRetry={onRetry}
        onRefresh={onRefresh}
        onAccessAction={onAccessAction}
        pendingActionEmail={pendingActionEmail}
        rowCount={page?.total}
        firstRowIndex={(query.page - 1) * query.pageSize}
        now={at}
      />

      <Pager
        label="Users pages"
        page={query.page}
        totalPages={totalPages}
        total={total}
        formatTotal={usersCount}
        pageSize={query.pageSize}
        pageSizes={pageSizes}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
        onRefresh={onRefresh}
        isBusy={list.status === 'loading'}
        summary={page ? activeText : undefined}
      />
    </section>
  );
}
