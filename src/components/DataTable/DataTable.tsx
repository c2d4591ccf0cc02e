import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { AsyncState, SortState } from '../../domain/types';
import { Button } from '../Button';
import styles from './DataTable.module.css';

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
 * Row count above which rows are virtualised. From bench/users-table-render.md (production build):
 * a sort change costs about 8 ms plus 0.33 ms per rendered row, so a whole 50-row page (~28 ms)
 * already misses the 16 ms frame budget while the virtual window (~20 rows, ~15 ms) does not grow
 * with the page. A 20-row page costs the same as the window, so it is rendered whole and
 * find-in-page keeps working there.
 */
export const DATA_TABLE_VIRTUALIZE_ABOVE_ROWS = 30;

/** Estimated height of one body row in px (the CSS's --data-table-row-height); rows are measured. */
const ROW_HEIGHT_PX = 40;
/** Rows rendered beyond each edge of the visible window. */
const OVERSCAN_ROWS = 8;

/** What the TanStack cell renderers read from the table: the owner's context. */
interface TableMeta<C> {
  context: C;
}

/** `calc()` of the widths of the sticky columns before `index` on the same side. */
function stickyOffset<TRow, K extends string, C>(
  columns: readonly DataTableColumn<TRow, K, C>[],
  index: number,
): string | undefined {
  const column = columns[index];
  if (!column?.sticky) return undefined;
  const before =
    column.sticky === 'start' ? columns.slice(0, index) : columns.slice(index + 1).reverse();
  const widths = before.filter((c) => c.sticky === column.sticky).map((c) => c.width ?? '0px');
  return widths.length ? `calc(${widths.join(' + ')})` : '0px';
}

/** Inline position of a sticky cell (inset from its edge), or undefined. */
function stickyStyle<TRow, K extends string, C>(
  columns: readonly DataTableColumn<TRow, K, C>[],
  index: number,
): CSSProperties | undefined {
  const column = columns[index];
  const offset = stickyOffset(columns, index);
  if (!column?.sticky || offset === undefined) return undefined;
  return column.sticky === 'start' ? { insetInlineStart: offset } : { insetInlineEnd: offset };
}

/**
 * A server-driven table (§2 lists): controlled sort (the whole header cell is the sort button,
 * with ▲/▼ and `aria-sort`), loading / error-with-Retry / empty-with-Refresh rows, an optional
 * footer row, a sticky header, sticky columns, and row virtualisation above a threshold that keeps
 * the focused row rendered (so Tab never loses its place) and the table semantics
 * (aria-rowcount/rowindex). Built on TanStack Table with manual sorting and pagination: it never
 * sorts or pages itself.
 */
export function DataTable<TRow, K extends string = string, C = undefined>({
  label,
  columns,
  rows,
  getRowId,
  context,
  sort = null,
  onSortChange,
  loadingText = 'Loading…',
  emptyText,
  formatError = (message) => message,
  onRetry,
  onRefresh,
  isRefreshing = false,
  footer,
  rowCount,
  firstRowIndex = 0,
  virtualizeAboveRows = DATA_TABLE_VIRTUALIZE_ABOVE_ROWS,
}: DataTableProps<TRow, K, C>) {
  const columnDefs = useMemo<ColumnDef<TRow>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        enableSorting: column.sortKey !== undefined,
        cell: (info) =>
          column.cell(info.row.original, (info.table.options.meta as TableMeta<C>).context),
      })),
    [columns],
  );
  const meta = useMemo<TableMeta<C>>(() => ({ context }), [context]);
  const sorting = useMemo<SortingState>(() => {
    const sorted = sort ? columns.find((c) => c.sortKey === sort.key) : undefined;
    return sorted && sort ? [{ id: sorted.id, desc: sort.direction === 'desc' }] : [];
  }, [columns, sort]);

  const data = rows.status === 'ready' ? (rows.data as TRow[]) : NO_ROWS;
  // No React Compiler in this build: the table instance is read during render, never memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<TRow>({
    data: data as TRow[],
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => getRowId(row),
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    enableSortingRemoval: false,
    rowCount: rowCount ?? data.length,
    state: { sorting },
    meta,
  });

  const bodyRows = rows.status === 'ready' ? table.getRowModel().rows : [];
  const isVirtual = bodyRows.length > virtualizeAboveRows;
  const scrollerRef = useRef<HTMLDivElement>(null);

  // Keeps the focused row (and its neighbours) rendered: Tab and Shift+Tab always reach the next
  // row's controls, and focus is never dropped when the operator scrolls away.
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
    count: bodyRows.length,
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

  const columnCount = columns.length;
  const isSized = columns.every((c) => c.width);
  const tableStyle = isSized
    ? ({
        '--data-table-min-width': `calc(${columns.map((c) => c.width).join(' + ')})`,
      } as CSSProperties)
    : undefined;
  const isReady = rows.status === 'ready' && bodyRows.length > 0;

  const renderRow = (row: Row<TRow>, index: number) => (
    <DataTableRow
      key={row.id}
      row={row}
      index={index}
      ariaRowIndex={firstRowIndex + index + 2}
      columns={columns}
      meta={meta}
      measure={isVirtual ? virtualizer.measureElement : undefined}
    />
  );

  return (
    <div className={styles.scroller} ref={scrollerRef} data-virtual={isVirtual || undefined}>
      <table
        className={styles.table}
        style={tableStyle}
        data-sized={isSized || undefined}
        aria-busy={rows.status === 'loading' || isRefreshing || undefined}
        aria-rowcount={isReady ? (rowCount ?? bodyRows.length) + 1 : undefined}
      >
        <caption className="visually-hidden">{label}</caption>
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={isReady ? 1 : undefined}>
            {columns.map((column, index) => {
              const isSorted = sort != null && column.sortKey === sort.key;
              const direction = isSorted ? sort.direction : undefined;
              const common = {
                scope: 'col' as const,
                'data-column': column.id,
                'data-align': column.align ?? 'start',
                'data-sticky': column.sticky,
                style: stickyStyle(columns, index),
              };
              if (column.sortKey === undefined || !onSortChange) {
                return (
                  <th key={column.id} {...common}>
                    <span className={styles.headerText}>{column.header}</span>
                  </th>
                );
              }
              const sortKey = column.sortKey;
              return (
                <th
                  key={column.id}
                  {...common}
                  data-sortable=""
                  aria-sort={
                    direction === 'asc'
                      ? 'ascending'
                      : direction === 'desc'
                        ? 'descending'
                        : undefined
                  }
                >
                  <button
                    type="button"
                    className={styles.sortButton}
                    data-sorted={direction}
                    onClick={() => onSortChange(sortKey)}
                  >
                    <span className={styles.headerText}>{column.header}</span>
                    <span className={styles.arrow} aria-hidden="true">
                      {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody data-refreshing={isRefreshing || undefined}>
          {rows.status === 'loading' ? (
            <StateRow columnCount={columnCount}>
              <p role="status" className={styles.message}>
                {loadingText}
              </p>
            </StateRow>
          ) : rows.status === 'error' ? (
            <StateRow columnCount={columnCount}>
              <p role="alert" className={styles.message} data-tone="danger">
                {formatError(rows.message)}
              </p>
              {onRetry ? (
                <Button size="small" onClick={onRetry}>
                  Retry
                </Button>
              ) : null}
            </StateRow>
          ) : !isReady ? (
            <StateRow columnCount={columnCount}>
              <p role="status" className={styles.message}>
                {emptyText}
              </p>
              {onRefresh ? (
                <Button size="small" onClick={onRefresh}>
                  Refresh
                </Button>
              ) : null}
            </StateRow>
          ) : isVirtual ? (
            <VirtualRows
              items={virtualizer.getVirtualItems()}
              totalSize={virtualizer.getTotalSize()}
              columnCount={columnCount}
              render={(index) => {
                const row = bodyRows[index];
                return row ? renderRow(row, index) : null;
              }}
            />
          ) : (
            bodyRows.map(renderRow)
          )}
        </tbody>
        {isReady && footer ? <FooterRow columns={columns} cells={footer(data)} /> : null}
      </table>
    </div>
  );
}

const NO_ROWS: never[] = [];

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

/** Props of {@link FooterRow}. */
interface FooterRowProps<TRow, K extends string, C> {
  /** The table's columns. */
  columns: readonly DataTableColumn<TRow, K, C>[];
  /** Content by column id. */
  cells: DataTableFooter;
}

/**
 * The footer row: the first labelled cell is a row header spanning the empty columns up to the
 * next labelled one (so 'Page total' sits beside the amount it labels); later labelled cells span
 * one column; whatever follows the last is one empty cell.
 */
function FooterRow<TRow, K extends string, C>({ columns, cells }: FooterRowProps<TRow, K, C>) {
  const filled = columns.map((c) => cells[c.id] !== undefined);
  const out: ReactNode[] = [];
  let index = 0;
  let isFirst = true;
  while (index < columns.length) {
    const column = columns[index]!;
    if (!filled[index]) {
      const rest = columns.length - index;
      out.push(<td key={`rest-${column.id}`} colSpan={rest} />);
      break;
    }
    let span = 1;
    if (isFirst) while (index + span < columns.length && !filled[index + span]) span += 1;
    // A trailing run after the label stays empty rather than stretching the label over it.
    if (isFirst && index + span === columns.length && span > 1) span = 1;
    const content = cells[column.id];
    const align = columns[index + span - 1]?.align ?? 'start';
    out.push(
      isFirst ? (
        <th
          key={column.id}
          scope="row"
          colSpan={span}
          data-align="end"
          className={styles.footLabel}
        >
          {content}
        </th>
      ) : (
        <td key={column.id} colSpan={span} data-align={align} className={styles.footCell}>
          {content}
        </td>
      ),
    );
    isFirst = false;
    index += span;
  }
  return (
    <tfoot>
      <tr>{out}</tr>
    </tfoot>
  );
}

/** Props of {@link VirtualRows}. */
interface VirtualRowsProps {
  /** The rows to render now (in index order; may skip, to keep the focused row). */
  items: { index: number; start: number; end: number; key: string | number | bigint }[];
  /** Height of all rows together, px. */
  totalSize: number;
  /** How many columns a spacer spans. */
  columnCount: number;
  /** Renders the row at an index. */
  render: (index: number) => ReactNode;
}

/** The rendered window of a large page, with spacer rows standing in for the rows not rendered. */
function VirtualRows({ items, totalSize, columnCount, render }: VirtualRowsProps) {
  const out: ReactNode[] = [];
  let end = 0;
  for (const item of items) {
    if (item.start > end)
      out.push(
        <Spacer key={`gap-${item.key}`} height={item.start - end} columnCount={columnCount} />,
      );
    out.push(render(item.index));
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

/** Props of {@link DataTableRow}. */
interface DataTableRowProps<TRow, K extends string, C> {
  /** The TanStack row. */
  row: Row<TRow>;
  /** 0-based index in this page (data-index: keeps the focused row rendered, measures rows). */
  index: number;
  /** 1-based aria-rowindex in the whole list, counting the header row. */
  ariaRowIndex: number;
  /** The table's columns (alignment, stickiness). */
  columns: readonly DataTableColumn<TRow, K, C>[];
  /** The cells' context; a new object re-renders every row. */
  meta: TableMeta<C>;
  /** The virtualiser's row measurement, when virtualised. */
  measure?: (element: Element | null) => void;
}

/** One body row; memoised so scrolling a large page re-renders only the rows that enter. */
const DataTableRow = memo(function DataTableRow<TRow, K extends string, C>({
  row,
  index,
  ariaRowIndex,
  columns,
  measure,
}: DataTableRowProps<TRow, K, C>) {
  return (
    <tr aria-rowindex={ariaRowIndex} data-index={index} ref={measure}>
      {row.getVisibleCells().map((cell, cellIndex) => {
        const column = columns[cellIndex];
        return (
          <td
            key={cell.id}
            data-column={cell.column.id}
            data-align={column?.align ?? 'start'}
            data-sticky={column?.sticky}
            data-wrap={column?.wrap || undefined}
            style={stickyStyle(columns, cellIndex)}
          >
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
}) as <TRow, K extends string, C>(props: DataTableRowProps<TRow, K, C>) => ReactNode;

/** Props of {@link TruncatedText}. */
export interface TruncatedTextProps {
  /** The full text; shown whole on hover (title) and read whole by screen readers. */
  text: string;
}

/**
 * Text cut with an ellipsis to its cell's width; the full text is its title (hover) and is read
 * out whole. A focusable child (e.g. a link) expands it in place while focused.
 */
export function TruncatedText({ text }: TruncatedTextProps) {
  return (
    <span className={styles.truncate} title={text}>
      {text}
    </span>
  );
}
