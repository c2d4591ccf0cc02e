import type { ReactNode } from 'react';
import type { AsyncState, SortState } from '../../domain/types';

/**
 * One column of a {@link DataTable}. Define columns at module scope (or in `useMemo`): the table
 * keys its cell renderers on them, and a new array every render would re-mount every cell.
 */
export interface DataTableColumn<TRow, K extends string = string, C = undefined> {
  /** Stable id; also the cell's `data-column`, for styling. */
  id: string;
  /** Header text (also the sort button's name). */
  header: string;
  /** The server sort key this column sorts by; absent = not sortable. */
  sortKey?: K;
  /** Figures align to the end (right in LTR). Default start. */
  align?: 'start' | 'end';
  /** Column width as a CSS length (e.g. '9rem'); with every column sized the table scrolls sideways instead of squeezing. */
  width?: string;
  /** Keeps the column in view when the table scrolls sideways: pinned to the start or the end edge. */
  sticky?: 'start' | 'end';
  /** Long content wraps instead of ending in an ellipsis. */
  wrap?: boolean;
  /** The cell's content for one row; `context` is the table's `context` prop (callbacks, `now`…). */
  cell: (row: TRow, context: C) => ReactNode;
}

/** Footer cells by column id (e.g. `{ row_id: 'Page total', amount: '$12.00' }`). */
export type DataTableFooter = Partial<Record<string, ReactNode>>;

/** Props of {@link DataTable}. */
export interface DataTableProps<TRow, K extends string = string, C = undefined> {
  /** The table's accessible name (a caption read by screen readers). */
  label: string;
  /** Column definitions, in display order (stable reference). */
  columns: readonly DataTableColumn<TRow, K, C>[];
  /** The page's rows as one async state: loading, error (message), empty, ready. */
  rows: AsyncState<readonly TRow[]>;
  /** A stable id per row (React key and TanStack row id). */
  getRowId: (row: TRow) => string;
  /** What the cells need from the owner (callbacks, the current time…); a new value re-renders the rows. */
  context: C;
  /** The server sort in force; its column shows ▲/▼ and `aria-sort`. Omit for unsortable lists. */
  sort?: SortState<K> | null;
  /** A sortable header cell was clicked (anywhere in the cell); the owner applies §2's toggle rule. */
  onSortChange?: (key: K) => void;
  /** The loading row's text (e.g. 'Loading users'). */
  loadingText?: string;
  /** The empty row's text (e.g. 'No users found.'). */
  emptyText: string;
  /** How an error message reads (e.g. `m => 'Error: ' + m`); default as given. */
  formatError?: (message: string) => string;
  /** Retry after an error; the button shows only when given. */
  onRetry?: () => void;
  /** Refresh on an empty list; the button shows only when given. */
  onRefresh?: () => void;
  /** A new page is loading while these rows stay on screen: rows dim and the table is busy. */
  isRefreshing?: boolean;
  /** Footer row cells for the ready state, by column id (a labelled cell spans the empty columns after it). */
  footer?: (rows: readonly TRow[]) => DataTableFooter;
  /** How many rows all pages hold, for aria-rowcount; defaults to this page's rows. */
  rowCount?: number;
  /** 0-based position of the first row in the whole list ((page − 1) × pageSize), for aria-rowindex. */
  firstRowIndex?: number;
  /** Above this many rows only the rows in view (plus a margin) are rendered; see bench/users-table-render.md. */
  virtualizeAboveRows?: number;
}

/**
 * The props a list's own table (UsersTable, SubscriptionsTable, LogsTable…) passes straight
 * through to its DataTable: the rows, the server sort, the state buttons and the paging position.
 */
export type ListTableProps<TRow, K extends string = string> = Pick<
  DataTableProps<TRow, K>,
  | 'rows'
  | 'sort'
  | 'onSortChange'
  | 'onRetry'
  | 'onRefresh'
  | 'isRefreshing'
  | 'rowCount'
  | 'firstRowIndex'
  | 'virtualizeAboveRows'
>;

/**
 * What a server-paged list view (Users, Subscriptions, Logs, ISR events) takes from its screen:
 * the page as one async state, the applied query, the filter inputs, and the list's events. The
 * screen's `useServerList` gives exactly this (`listViewProps`).
 */
export interface ServerListViewProps<F, K extends string, Page> {
  /** The page: loading, error (§8 message), empty, or ready. */
  list: AsyncState<Page>;
  /** The applied query: page (1-based), page size and sort. */
  query: { page: number; pageSize: number; sort: SortState<K> };
  /** The filter inputs' values (may run ahead of the applied query while debounced). */
  filters: F;
  /** Total pages once known, else null (shown as '…'). */
  totalPages: number | null;
  /** A new page loads while the previous stays on screen. */
  isRefreshing?: boolean;
  /** A filter changed (the whole new set of raw values). */
  onFiltersChange: (next: F) => void;
  /** Clear: every filter to "any", back on page 1. */
  onClearAll: () => void;
  /** A sortable header was clicked (the screen applies §2's toggle rule). */
  onSortChange: (key: K) => void;
  /** Go to this page. */
  onPageChange: (page: number) => void;
  /** A new page size (back on page 1). */
  onPageSizeChange: (pageSize: number) => void;
  /** Reload the current page (Refresh, Retry). */
  onRefresh: () => void;
}

/** What the TanStack cell renderers read from the table: the owner's context. */
export interface TableMeta<C> {
  /** The table's `context` prop. */
  context: C;
}
