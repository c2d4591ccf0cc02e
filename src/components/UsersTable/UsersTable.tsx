import { useMemo } from 'react';
import { formatUtcDateTime } from '../../domain/format';
import { orDash } from '../../domain/subscription-view';
import type { AccessAction, AsyncState, SortState, UserRow, UserSortKey } from '../../domain/types';
import { AccessActionsMenu } from '../AccessActionsMenu';
import { DataTable, TruncatedText, type DataTableColumn } from '../DataTable';
import { MgStatusBadge } from '../MgStatusBadge';
import { ProviderStatusBadge } from '../ProviderStatusBadge';

/** What the Users cells need from the view. */
export interface UsersCellContext {
  /** The instant badges are judged against (UTC); undefined = the current time at render. */
  now: Date | undefined;
  /** Emails whose access action is running; their Edit menu waits. */
  pendingActionEmails: ReadonlySet<string>;
  /** A row's Edit menu produced a confirmed action. */
  onAccessAction: (email: string, action: AccessAction) => void;
}

/** The §2 Users columns, in order; sort keys are GET /users's (§7). Actions is not sortable. */
export const USERS_COLUMNS: readonly DataTableColumn<UserRow, UserSortKey, UsersCellContext>[] = [
  {
    id: 'row_id',
    header: 'ID',
    sortKey: 'row_id',
    align: 'end',
    width: '72px',
    sticky: 'start',
    cell: (u) => orDash(u.rowId),
  },
  {
    id: 'email',
    header: 'Email',
    sortKey: 'email',
    width: '216px',
    sticky: 'start',
    cell: (u) => <TruncatedText text={u.email} />,
  },
  {
    id: 'provider',
    header: 'Provider',
    sortKey: 'provider',
    width: '128px',
    cell: (u) => orDash(u.provider),
  },
  {
    id: 'provider_id',
    header: 'Provider ID',
    sortKey: 'provider_id',
    width: '116px',
    cell: (u) => <TruncatedText text={orDash(u.providerId)} />,
  },
  {
    id: 'provider_status',
    header: 'Provider Status',
    sortKey: 'provider_status',
    width: '140px',
    cell: (u) => <ProviderStatusBadge status={u.providerStatus} />,
  },
  {
    id: 'mg_status',
    header: 'MG Status',
    sortKey: 'mg_status',
    width: '224px',
    cell: (u, c) => <MgStatusBadge row={u} now={c.now} />,
  },
  {
    id: 'cadence',
    header: 'Cadence',
    sortKey: 'cadence',
    width: '100px',
    cell: (u) => orDash(u.cadence),
  },
  {
    id: 'start_date',
    header: 'Start',
    sortKey: 'start_date',
    width: '160px',
    cell: (u) => formatUtcDateTime(u.startDate),
  },
  {
    id: 'expires_at',
    header: 'Expire',
    sortKey: 'expires_at',
    width: '160px',
    cell: (u) => formatUtcDateTime(u.expiresAt),
  },
  {
    id: 'updated_at',
    header: 'Last Update',
    sortKey: 'updated_at',
    width: '160px',
    cell: (u) => formatUtcDateTime(u.updatedAt),
  },
  {
    id: 'actions',
    header: 'Actions',
    width: '84px',
    sticky: 'end',
    cell: (u, c) => (
      <AccessActionsMenu
        email={u.email}
        currentPeriodEnd={u.currentPeriodEnd}
        isPending={c.pendingActionEmails.has(u.email)}
        onAction={c.onAccessAction}
      />
    ),
  },
];

/** Props of {@link UsersTable}. */
export interface UsersTableProps {
  /** The page's rows (§3 User row), already filtered, sorted and paged by the server. */
  rows: AsyncState<readonly UserRow[]>;
  /** The sort the server applied (§7 sort; default updated_at descending). */
  sort: SortState<UserSortKey>;
  /** A header cell was clicked; the screen applies §2's rule (new column ascending, same toggles). */
  onSortChange: (key: UserSortKey) => void;
  /** Retry after a failed load (§2: 'Error: {message}' with Retry). */
  onRetry: () => void;
  /** Refresh on the empty state (§2: 'No users found.' with Refresh). */
  onRefresh: () => void;
  /** A confirmed access action (dated ones carry 'YYYY-MM-DD HH:MM:SS' UTC). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** Emails whose action is running. */
  pendingActionEmails?: ReadonlySet<string>;
  /** A new page loads while this one stays on screen. */
  isRefreshing?: boolean;
  /** How many users all pages hold (aria-rowcount). */
  rowCount?: number;
  /** 0-based position of the first row in the whole list (aria-rowindex). */
  firstRowIndex?: number;
  /** The instant badges are judged against; undefined = the current time at render. */
  now?: Date;
  /** Above this many rows only the rows in view are rendered. */
  virtualizeAboveRows?: number;
}

const NO_EMAILS: ReadonlySet<string> = new Set();
const formatError = (message: string) => `Error: ${message}`;
const rowId = (u: UserRow) => String(u.rowId);

/**
 * The Users list (§2 Users): ID, Email, Provider, Provider ID, Provider Status, MG Status,
 * Cadence, Start, Expire, Last Update (UTC 'YYYY-MM-DD HH:MM') and the Edit actions menu, on the
 * shared DataTable: server sort, 'Loading users', 'Error: {message}' + Retry, 'No users found.' +
 * Refresh; ID and Email stay in view at the left and Actions at the right when it scrolls sideways.
 */
export function UsersTable({
  rows,
  sort,
  onSortChange,
  onRetry,
  onRefresh,
  onAccessAction,
  pendingActionEmails = NO_EMAILS,
  isRefreshing,
  rowCount,
  firstRowIndex,
  now,
  virtualizeAboveRows,
}: UsersTableProps) {
  const context = useMemo<UsersCellContext>(
    () => ({ now, pendingActionEmails, onAccessAction }),
    [now, pendingActionEmails, onAccessAction],
  );
  return (
    <DataTable
      label="Users"
      columns={USERS_COLUMNS}
      rows={rows}
      getRowId={rowId}
      context={context}
      sort={sort}
      onSortChange={onSortChange}
      loadingText="Loading users"
      emptyText="No users found."
      formatError={formatError}
      onRetry={onRetry}
      onRefresh={onRefresh}
      isRefreshing={isRefreshing}
      rowCount={rowCount}
      firstRowIndex={firstRowIndex}
      virtualizeAboveRows={virtualizeAboveRows}
    />
  );
}
