import { useMemo } from 'react';
import { DASH } from '../../domain/format';
import { orDash } from '../../domain/subscription-view';
import type { AccessAction, UserRow, UserSortKey } from '../../domain/types';
import { AccessActionsMenu } from '../AccessActionsMenu';
import { CustomerLink } from '../CustomerLink';
import {
  actionsColumn,
  DataTable,
  TruncatedText,
  textColumn,
  utcColumn,
  viewColumn,
  type DataTableColumn,
  type ListTableProps,
} from '../DataTable';
import { MgStatusBadge } from '../MgStatusBadge';
import { providerStatusPill } from '../ProviderStatusBadge';

/** What the Users cells need from the view. */
export interface UsersCellContext {
  /** The instant badges are judged against (UTC); undefined = the current time at render. */
  now: Date | undefined;
  /** Emails whose access action is running; their Edit menu waits. */
  pendingActionEmails: ReadonlySet<string>;
  /** A row's Edit menu produced a confirmed action. */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** Why the operator's role may not run access actions, or null (see AccessActionsMenu). */
  actionsBlockedReason: string | null;
}

/** The §2 Users columns, in order; sort keys are GET /users's (§7). Actions is not sortable. */
export const USERS_COLUMNS: readonly DataTableColumn<UserRow, UserSortKey, UsersCellContext>[] = [
  textColumn('row_id', 'ID', (u) => u.rowId, { width: '72px', align: 'end', sticky: 'start' }),
  {
    id: 'email',
    header: 'Email',
    sortKey: 'email',
    width: '216px',
    sticky: 'start',
    cell: (u) => (u.email.trim() ? <CustomerLink email={u.email} isTruncated /> : DASH),
  },
  textColumn('provider', 'Provider', (u) => u.provider, { width: '128px' }),
  {
    id: 'provider_id',
    header: 'Provider ID',
    sortKey: 'provider_id',
    width: '116px',
    cell: (u) => <TruncatedText text={orDash(u.providerId)} />,
  },
  viewColumn('provider_status', 'Provider Status', (u) => u.providerStatus, providerStatusPill, {
    width: '140px',
  }),
  {
    id: 'mg_status',
    header: 'MG Status',
    sortKey: 'mg_status',
    width: '224px',
    cell: (u, c) => <MgStatusBadge row={u} now={c.now} />,
  },
  textColumn('cadence', 'Cadence', (u) => u.cadence, { width: '100px' }),
  utcColumn('start_date', 'Start', (u) => u.startDate, { width: '160px' }),
  utcColumn('expires_at', 'Expire', (u) => u.expiresAt, { width: '160px' }),
  utcColumn('updated_at', 'Last Update', (u) => u.updatedAt, { width: '160px' }),
  actionsColumn((u, c) => (
    <AccessActionsMenu
      email={u.email}
      currentPeriodEnd={u.currentPeriodEnd}
      isPending={c.pendingActionEmails.has(u.email)}
      blockedReason={c.actionsBlockedReason}
      onAction={c.onAccessAction}
    />
  )),
];

/** Props of {@link UsersTable}: the list props (rows, sort, Retry/Refresh, paging) plus the actions. */
export interface UsersTableProps extends ListTableProps<UserRow, UserSortKey> {
  /** A confirmed access action (dated ones carry 'YYYY-MM-DD HH:MM:SS' UTC). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** Emails whose action is running. */
  pendingActionEmails?: ReadonlySet<string>;
  /** The instant badges are judged against; undefined = the current time at render. */
  now?: Date;
  /** Why the operator's role may not run access actions (their Edit menus stay shut), or null. */
  actionsBlockedReason?: string | null;
}

const NO_EMAILS: ReadonlySet<string> = new Set();

/** The Users table's fixed configuration (§2 Users states and texts). */
const USERS_TABLE = {
  label: 'Users',
  columns: USERS_COLUMNS,
  getRowId: (u: UserRow) => String(u.rowId),
  loadingText: 'Loading users',
  emptyText: 'No users found.',
  formatError: (message: string) => `Error: ${message}`,
};

/**
 * The Users list (§2 Users): ID, Email, Provider, Provider ID, Provider Status, MG Status,
 * Cadence, Start, Expire, Last Update (UTC 'YYYY-MM-DD HH:MM') and the Edit actions menu, on the
 * shared DataTable: server sort, 'Loading users', 'Error: {message}' + Retry, 'No users found.' +
 * Refresh; ID and Email stay in view at the left and Actions at the right when it scrolls sideways.
 */
export function UsersTable({
  onAccessAction,
  pendingActionEmails = NO_EMAILS,
  now,
  actionsBlockedReason = null,
  ...list
}: UsersTableProps) {
  const context = useMemo<UsersCellContext>(
    () => ({ now, pendingActionEmails, onAccessAction, actionsBlockedReason }),
    [now, pendingActionEmails, onAccessAction, actionsBlockedReason],
  );
  return <DataTable {...list} {...USERS_TABLE} context={context} />;
}
