import { useId } from 'react';
import { formatCount } from '../../domain/format';
import { isActiveUser } from '../../domain/status';
import {
  CADENCES,
  MG_STATUS_FILTERS,
  PROVIDERS,
  PROVIDER_STATUSES,
  USERS_PAGE_SIZES,
  type AccessAction,
  type AsyncState,
  type UserSortKey,
  type UsersFilters,
  type UsersPage,
  type UsersQuery,
} from '../../domain/types';
import { ActionResultAlert, type ActionResultMessage } from '../ActionResultAlert';
import { FilterRow, optionsWithAny, type FilterField } from '../FilterRow';
import { PageHeader } from '../PageHeader';
import { Pager } from '../Pager';
import { UsersTable } from '../UsersTable';
import styles from './UsersView.module.css';

/** The §2 Users filter row: ID, Email, Provider, Provider ID, the three status selects, two ranges. */
export const USERS_FILTER_FIELDS: readonly FilterField<UsersFilters>[] = [
  { kind: 'text', key: 'rowId', label: 'ID', inputMode: 'numeric' },
  { kind: 'text', key: 'email', label: 'Email' },
  { kind: 'select', key: 'provider', label: 'Provider', options: optionsWithAny('All', PROVIDERS) },
  { kind: 'text', key: 'providerId', label: 'Provider ID' },
  {
    kind: 'select',
    key: 'providerStatus',
    label: 'Provider Status',
    options: optionsWithAny('Any', PROVIDER_STATUSES),
  },
  {
    kind: 'select',
    key: 'mgStatus',
    label: 'MG Status',
    options: optionsWithAny('Any', MG_STATUS_FILTERS),
  },
  { kind: 'select', key: 'cadence', label: 'Cadence', options: optionsWithAny('Any', CADENCES) },
  { kind: 'range', label: 'Start', from: 'startFrom', to: 'startTo', input: 'date' },
  { kind: 'range', label: 'Expiry', from: 'expFrom', to: 'expTo', input: 'date' },
];

/** One action's outcome, keyed so several can stand at once (one per action, newest last). */
export interface UsersActionResult extends ActionResultMessage {
  /** Unique per action run. */
  id: string;
  /** Whose access the action changed. */
  email: string;
}

/** Props of {@link UsersView}. */
export interface UsersViewProps {
  /** The list: loading, error (message), empty, or ready with one page (§3 Users list response). */
  list: AsyncState<UsersPage>;
  /** The applied query: page (1-based), page size and sort (§7 GET /users). */
  query: Pick<UsersQuery, 'page' | 'pageSize' | 'sort'>;
  /** The filter inputs' values (may run ahead of the applied query while debounced). */
  filters: UsersFilters;
  /** Total pages once known, else null (shown as '…'). */
  totalPages: number | null;
  /** A new page loads while the previous stays on screen. */
  isRefreshing?: boolean;
  /** Action results to show (§8), oldest first, each until dismissed. */
  actionResults?: readonly UsersActionResult[];
  /** Emails whose access action is running (their Edit menu waits). */
  pendingActionEmails?: ReadonlySet<string>;
  /** The instant badges and the active count are judged against; undefined = now at render. */
  now?: Date;
  /** A filter changed (raw values; the screen trims, debounces 300 ms and resets to page 1). */
  onFiltersChange: (next: UsersFilters) => void;
  /** Clear: reset every filter and return to page 1. */
  onClearAll: () => void;
  /** A column header was clicked (the screen applies: new column ascending, same column toggles). */
  onSortChange: (key: UserSortKey) => void;
  /** Go to this page. */
  onPageChange: (page: number) => void;
  /** A new page size (§9: 20, 50, 100, 200, 500; the screen resets to page 1). */
  onPageSizeChange: (pageSize: number) => void;
  /** Reload the current page (pager Refresh, empty-state Refresh, Retry). */
  onRefresh: () => void;
  /** A confirmed access action for a user (dated ones carry 'YYYY-MM-DD HH:MM:SS' UTC). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** An action result was dismissed. */
  onDismissActionResult: (id: string) => void;
}

/** '1 user' / '1,234 users'. */
function usersCount(total: number): string {
  return `${formatCount(total)} ${total === 1 ? 'user' : 'users'}`;
}

/**
 * The Users screen's view (§2 Users): the title, the header text ('Page X of Y', the total, the
 * count of active users on the page), the filter row, the action results, the table and the
 * pager. Pure: everything arrives as props and leaves as callbacks.
 */
export function UsersView({
  list,
  query,
  filters,
  totalPages,
  isRefreshing = false,
  actionResults = [],
  pendingActionEmails,
  now,
  onFiltersChange,
  onClearAll,
  onSortChange,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  onAccessAction,
  onDismissActionResult,
}: UsersViewProps) {
  const titleId = useId();
  const page = list.status === 'ready' ? list.data : null;
  const at = now ?? new Date();
  const activeOnPage = (page?.rows ?? []).filter((row) => isActiveUser(row, at)).length;
  const activeText = `${formatCount(activeOnPage)} active on this page`;
  const total = page ? page.total : list.status === 'empty' ? 0 : null;
  const pages = totalPages ?? (list.status === 'empty' ? 1 : null);
  const rows: AsyncState<UsersPage['rows']> =
    list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list;

  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <PageHeader title="Users" titleId={titleId}>
        <p className={styles.summary} aria-live="polite">
          {pages != null && total != null ? (
            <>
              <span>
                Page {formatCount(query.page)} of {formatCount(pages)}
              </span>
              <span>{usersCount(total)}</span>
              <span>{activeText}</span>
            </>
          ) : null}
        </p>
      </PageHeader>

      <FilterRow
        label="Users filters"
        fields={USERS_FILTER_FIELDS}
        values={filters}
        onValuesChange={onFiltersChange}
        onClearAll={onClearAll}
      />

      {actionResults.map((result) => (
        <ActionResultAlert
          key={result.id}
          tone={result.tone}
          subject={result.email}
          message={result.message}
          onDismiss={() => onDismissActionResult(result.id)}
        />
      ))}

      <UsersTable
        rows={rows}
        sort={query.sort}
        onSortChange={onSortChange}
        onRetry={onRefresh}
        onRefresh={onRefresh}
        onAccessAction={onAccessAction}
        pendingActionEmails={pendingActionEmails}
        isRefreshing={isRefreshing}
        rowCount={page?.total}
        firstRowIndex={(query.page - 1) * query.pageSize}
        now={now}
      />

      <Pager
        label="Users pages"
        page={query.page}
        totalPages={pages}
        total={total}
        formatTotal={usersCount}
        pageSize={query.pageSize}
        pageSizes={USERS_PAGE_SIZES}
        onPageChange={onPageChange}
        onPageSizeChange={onPageSizeChange}
        onRefresh={onRefresh}
        isBusy={list.status === 'loading' || isRefreshing}
        summary={page ? activeText : undefined}
      />
    </section>
  );
}
