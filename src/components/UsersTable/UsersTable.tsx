import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type Key,
  type ReactNode,
} from 'react';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type Header,
  type Row,
  type SortingState,
  type Table,
} from '@tanstack/react-table';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { DASH, formatUtcDateTime } from '../../domain/format';
import type { AccessAction, SortState, UserRow, UserSortKey } from '../../domain/types';
import { AccessActionsMenu } from '../AccessActionsMenu';
import { Button } from '../Button';
import { MgStatusBadge } from '../MgStatusBadge';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import styles from './UsersTable.module.css';

/** What the table body shows (§2 Users states). */
export type UsersTableStatus = 'loading' | 'error' | 'empty' | 'ready';

/** Props of {@link UsersTable}. */
export interface UsersTableProps {
  /** The current page's rows, already filtered, sorted and paged by the server (§7 GET /users). */
  data: UserRow[];
  /** loading: 'Loading users'; error: 'Error: {message}' + Retry (rows hidden); empty: 'No users found.' + Refresh; ready: the rows. */
  status: UsersTableStatus;
  /** The failure message shown as 'Error: {message}' when status is 'error' (§8: or 'Failed to load users'). */
  errorMessage?: string;
  /** The sort the server applied; its column shows an arrow and aria-sort. */
  sort: SortState<UserSortKey>;
  /** A sortable header was clicked; the screen applies the §2 rule (new column ascending, same column toggles). */
  onSortChange: (key: UserSortKey) => void;
  /** Retry was pressed in the error state. */
  onRetry: () => void;
  /** Refresh was pressed in the empty state. */
  onRefresh: () => void;
  /** A row's Edit menu produced a confirmed access action (AccessActionsMenu; dates already in wire form). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** The email whose access action is running; its Edit menu is disabled meanwhile. */
  pendingActionEmail?: string | null;
  /** How many users all pages hold (§3 total), for aria-rowcount; defaults to this page's rows. */
  rowCount?: number;
  /** 0-based position of data[0] in the whole list ((page − 1) × pageSize), for aria-rowindex. */
  firstRowIndex?: number;
  /** The instant badges and date defaults are judged against; defaults to the current time. */
  now?: Date;
  /** Above this many rows only the rows in view (plus a margin) are rendered; see bench/users-table-render.md. */
  virtualizeAboveRows?: number;
  /** The table's accessible name. */
  label?: string;
}

/**
 * Row count above which rows are virtualised. From bench/users-table-render.md (production build):
 * a sort change costs about 8 ms plus 0.33 ms per rendered row, so a whole 50-row page (~28 ms)
 * already misses the 16 ms frame budget while the virtual window (~20 rows, ~15 ms) does not
 * grow with the page. A 20-row page costs the same as the window, so it is rendered whole and
 * find-in-page keeps working there.
 */
export const USERS_TABLE_VIRTUALIZE_ABOVE_ROWS = 30;

/** Height of one body row in px; the CSS reads it from --users-row-height so both agree. */
const ROW_HEIGHT_PX = 40;
/** Rows rendered beyond each edge of the visible window. */
const OVERSCAN_ROWS = 8;

/** What cells need from the table's owner; TanStack `meta`, so the columns stay at module scope. */
interface UsersTableMeta {
  /** The instant badges and date defaults are judged against. */
  now: Date;
  /** The email whose action is running, or null. */
  pendingActionEmail: string | null;
  /** Stable relay to the owner's onAccessAction. */
  onAccessAction: (email: string, action: AccessAction) => void;
}

/** The cell context of a table built by UsersTable. */
function metaOf(table: Table<UserRow>): UsersTableMeta {
  return table.options.meta as UsersTableMeta;
}

/** A text cell: the value, or a dash when missing or blank. */
function text(value: string | number | null): string {
  return value == null || String(value).trim() === '' ? DASH : String(value);
}

const column = createColumnHelper<UserRow>();

/** The §2 columns, in order. Column ids are the §7 sort keys (Actions is not sortable). */
const COLUMNS = [
  column.accessor('rowId', { id: 'row_id', header: 'ID', cell: (c) => text(c.getValue()) }),
  column.accessor('email', {
    id: 'email',
    header: 'Email',
    cell: (c) => (
      <span className={styles.truncate} title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
  column.accessor('provider', {
    id: 'provider',
    header: 'Provider',
    cell: (c) => text(c.getValue()),
  }),
  column.accessor('providerId', {
    id: 'provider_id',
    header: 'Provider ID',
    cell: (c) => (
      <span className={styles.truncate} title={c.getValue() ?? undefined}>
        {text(c.getValue())}
      </span>
    ),
  }),
  column.accessor('providerStatus', {
    id: 'provider_status',
    header: 'Provider Status',
    cell: (c) => <ProviderStatusBadge status={c.getValue()} />,
  }),
  column.accessor('mgStatus', {
    id: 'mg_status',
    header: 'MG Status',
    cell: (c) => <MgStatusBadge row={c.row.original} now={metaOf(c.table).now} />,
  }),
  column.accessor('cadence', { id: 'cadence', header: 'Cadence', cell: (c) => text(c.getValue()) }),
  column.accessor('startDate', {
    id: 'start_date',
    header: 'Start',
    cell: (c) => formatUtcDateTime(c.getValue()),
  }),
  column.accessor('expiresAt', {
    id: 'expires_at',
    header: 'Expire',
    cell: (c) => formatUtcDateTime(c.getValue()),
  }),
  column.accessor('updatedAt', {
    id: 'updated_at',
    header: 'Last Update',
    cell: (c) => formatUtcDateTime(c.getValue()),
  }),
  column.display({
    id: 'actions',
    header: 'Actions',
    enableSorting: false,
    cell: (c) => {
      const meta = metaOf(c.table);
      const user = c.row.original;
      return (
        <AccessActionsMenu
          email={user.email}
          currentPeriodEnd={user.currentPeriodEnd}
          now={meta.now}
          isPending={meta.pendingActionEmail === user.email}
          onAction={meta.onAccessAction}
        />
      );
    },
  }),
];

/**
 * The Users list (§2 Users screen, §3 User row): ID, Email, Provider, Provider ID, Provider
 * Status, MG Status, Cadence, Start, Expire, Last Update (UTC 'YYYY-MM-DD HH:MM') and Actions,
 * where each row renders its own AccessActionsMenu and reports through `onAccessAction`.
 * Controlled and server-driven (TanStack Table, manual sorting): headers are buttons that report
 * `onSortChange(key)`; the table only shows `sort`. The header sticks while the body scrolls in
 * its container (also sideways on narrow screens), and the Actions column sticks to the right.
 * Large pages render only the rows in view, keeping table semantics (aria-rowcount/rowindex).
 */
export function UsersTable({
  data,
  status,
  errorMessage,
  sort,
  onSortChange,
  onRetry,
  onRefresh,
  onAccessAction,
  pendingActionEmail = null,
  rowCount,
  firstRowIndex = 0,
  now,
  virtualizeAboveRows = USERS_TABLE_VIRTUALIZE_ABOVE_ROWS,
  label = 'Users',
}: UsersTableProps) {
  // Stable across renders so memoised rows only re-render when their data or meta change.
  const onAccessActionRef = useRef(onAccessAction);
  useLayoutEffect(() => {
    onAccessActionRef.current = onAccessAction;
  });
  const handleAccessAction = useCallback(
    (email: string, action: AccessAction) => onAccessActionRef.current(email, action),
    [],
  );
  const [defaultNow] = useState(() => new Date());
  const meta = useMemo<UsersTableMeta>(
    () => ({ now: now ?? defaultNow, pendingActionEmail, onAccessAction: handleAccessAction }),
    [now, defaultNow, pendingActionEmail, handleAccessAction],
  );
  const sorting = useMemo<SortingState>(
    () => [{ id: sort.key, desc: sort.direction === 'desc' }],
    [sort.key, sort.direction],
  );

  // No React Compiler in this build: the table instance is read during render, never memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    rowCount: rowCount ?? data.length,
    state: { sorting },
    meta,
  });

  const rows = status === 'ready' ? table.getRowModel().rows : [];
  const isVirtual = rows.length > virtualizeAboveRows;
  const scrollerRef = useRef<HTMLDivElement>(null);

  // Keeps the focused row (and its neighbours) rendered: Tab and Shift+Tab then always reach the
  // next row's controls, and focus is never dropped when the operator scrolls away.
  const [focusedIndex, setFocusedIndex] = useState<number | null>(null);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex == null || focusedIndex >= range.count) return indexes;
      const keep = [focusedIndex - 1, focusedIndex, focusedIndex + 1].filter(
        (i) => i >= 0 && i < range.count,
      );
      return [...new Set([...indexes, ...keep])].sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    enabled: isVirtual,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ROW_HEIGHT_PX,
    overscan: OVERSCAN_ROWS,
    rangeExtractor,
  });

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    function handleFocusIn(event: FocusEvent) {
      const index = (event.target as Element | null)?.closest('tr')?.getAttribute('data-index');
      if (index != null) setFocusedIndex(Number(index));
    }
    scroller.addEventListener('focusin', handleFocusIn);
    return () => scroller.removeEventListener('focusin', handleFocusIn);
  }, []);

  const columnCount = COLUMNS.length;
  const tableStyle = { '--users-row-height': `${ROW_HEIGHT_PX}px` } as CSSProperties;

  return (
    <div className={styles.scroller} ref={scrollerRef} data-virtual={isVirtual || undefined}>
      <table
        className={styles.table}
        style={tableStyle}
        aria-label={label}
        aria-busy={status === 'loading' || undefined}
        aria-rowcount={status === 'ready' ? (rowCount ?? rows.length) + 1 : undefined}
      >
        <colgroup>
          {COLUMNS.map((c) => (
            <col key={c.id} data-column={c.id} />
          ))}
        </colgroup>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={status === 'ready' ? 1 : undefined}>
              {group.headers.map((header) => (
                <HeaderCell key={header.id} header={header} onSortChange={onSortChange} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {status === 'loading' ? (
            <StateRow columnCount={columnCount}>
              <p role="status" className={styles.message}>
                Loading users
              </p>
            </StateRow>
          ) : status === 'error' ? (
            <StateRow columnCount={columnCount}>
              <div role="alert" className={styles.message} data-tone="danger">
                Error: {errorMessage?.trim() || 'Failed to load users'}
              </div>
              <Button size="small" onClick={onRetry}>
                Retry
              </Button>
            </StateRow>
          ) : status === 'empty' || rows.length === 0 ? (
            <StateRow columnCount={columnCount}>
              <p role="status" className={styles.message}>
                No users found.
              </p>
              <Button size="small" onClick={onRefresh}>
                Refresh
              </Button>
            </StateRow>
          ) : isVirtual ? (
            <VirtualRows
              rows={rows}
              items={virtualizer.getVirtualItems()}
              totalSize={virtualizer.getTotalSize()}
              meta={meta}
              columnCount={columnCount}
              firstRowIndex={firstRowIndex}
            />
          ) : (
            rows.map((row, index) => (
              <UsersTableRow
                key={row.id}
                row={row}
                index={index}
                ariaRowIndex={firstRowIndex + index + 2}
                meta={meta}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Props of {@link HeaderCell}. */
interface HeaderCellProps {
  /** The TanStack header of the column. */
  header: Header<UserRow, unknown>;
  /** Reports a click on a sortable header. */
  onSortChange: (key: UserSortKey) => void;
}

/** A column header: a sort button with an arrow and aria-sort when the column is sortable. */
function HeaderCell({ header, onSortChange }: HeaderCellProps) {
  const title = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) {
    return (
      <th scope="col" data-column={header.column.id}>
        {title}
      </th>
    );
  }
  const sorted = header.column.getIsSorted();
  return (
    <th
      scope="col"
      data-column={header.column.id}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
    >
      <button
        type="button"
        className={styles.sortButton}
        data-sorted={sorted || undefined}
        onClick={() => onSortChange(header.column.id as UserSortKey)}
      >
        {title}
        <span className={styles.arrow} aria-hidden="true">
          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** Props of {@link StateRow}. */
interface StateRowProps {
  /** How many columns the message spans. */
  columnCount: number;
  /** The message and its button. */
  children: ReactNode;
}

/** The single body row of the loading, error and empty states. */
function StateRow({ columnCount, children }: StateRowProps) {
  return (
    <tr>
      <td colSpan={columnCount} className={styles.stateCell}>
        <div className={styles.state}>{children}</div>
      </td>
    </tr>
  );
}

/** Props of {@link VirtualRows}. */
interface VirtualRowsProps {
  /** All rows of the page. */
  rows: Row<UserRow>[];
  /** The rows to render now (in index order; may skip, to keep the focused row). */
  items: { index: number; start: number; end: number; key: Key }[];
  /** Height of all rows together, px. */
  totalSize: number;
  /** Cell context. */
  meta: UsersTableMeta;
  /** How many columns a spacer spans. */
  columnCount: number;
  /** 0-based position of rows[0] in the whole list. */
  firstRowIndex: number;
}

/** The rendered window of a large page, with spacer rows standing in for the rows not rendered. */
function VirtualRows({
  rows,
  items,
  totalSize,
  meta,
  columnCount,
  firstRowIndex,
}: VirtualRowsProps) {
  const out: ReactNode[] = [];
  let end = 0;
  for (const item of items) {
    const row = rows[item.index];
    if (!row) continue;
    if (item.start > end)
      out.push(
        <Spacer key={`gap-${item.key}`} height={item.start - end} columnCount={columnCount} />,
      );
    out.push(
      <UsersTableRow
        key={row.id}
        row={row}
        index={item.index}
        ariaRowIndex={firstRowIndex + item.index + 2}
        meta={meta}
      />,
    );
    end = item.end;
  }
  if (totalSize > end)
    out.push(<Spacer key="gap-end" height={totalSize - end} columnCount={columnCount} />);
  return out;
}

/** Props of {@link Spacer}. */
interface SpacerProps {
  /** Height of the rows it stands for, px. */
  height: number;
  /** How many columns it spans. */
  columnCount: number;
}

/** An empty, hidden row as tall as the rows it stands for, so the scrollbar stays true. */
function Spacer({ height, columnCount }: SpacerProps) {
  return (
    <tr aria-hidden="true" className={styles.spacer}>
      <td colSpan={columnCount} style={{ height }} />
    </tr>
  );
}

/** Props of {@link UsersTableRow}. */
interface UsersTableRowProps {
  /** The TanStack row. */
  row: Row<UserRow>;
  /** 0-based index in this page (data-index, used to keep the focused row rendered). */
  index: number;
  /** 1-based aria-rowindex in the whole list, counting the header row. */
  ariaRowIndex: number;
  /** Cell context; a new object re-renders every row (it changes with `now` or the pending email). */
  meta: UsersTableMeta;
}

/** One user row; memoised so scrolling a large page re-renders only the rows that enter. */
const UsersTableRow = memo(function UsersTableRow({
  row,
  index,
  ariaRowIndex,
}: UsersTableRowProps) {
  return (
    <tr aria-rowindex={ariaRowIndex} data-index={index}>
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} data-column={cell.column.id}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </tr>
  );
});
