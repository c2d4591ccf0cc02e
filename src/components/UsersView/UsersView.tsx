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
} from '../../domain/types';
import { ActionResultAlert, type ActionResultMessage } from '../ActionResultAlert';
import type { ServerListViewProps } from '../DataTable';
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

/** Props of {@link UsersView}: the list's (§7 GET /users) plus the access actions and their results. */
export interface UsersViewProps extends ServerListViewProps<UsersFilters, UserSortKey, UsersPage> {
  /** Action results to show (§8), oldest first, each until dismissed. */
  actionResults?: readonly UsersActionResult[];
  /** Emails whose access action is running (their Edit menu waits). */
  pendingActionEmails?: ReadonlySet<string>;
  /** The instant badges and the active count are judged against; undefined = now at render. */
  now?: Date;
  /** A confirmed access action for a user (dated ones carry 'YYYY-MM-DD HH:MM:SS' UTC). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** An action result was dismissed. */
  onDismissActionResult: (id: string) => void;
  /**
   * Why the signed-in operator's role may not run access actions (docs/api.md "Roles"), or
   * null: the Edit menus then stay shut, and a note above the table says why.
   */
  actionsBlockedReason?: string | null;
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
  actionsBlockedReason = null,
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

      {actionsBlockedReason ? <p className={styles.roleNote}>{actionsBlockedReason}</p> : null}
      <UsersTable
        rows={rows}
        actionsBlockedReason={actionsBlockedReason}
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
