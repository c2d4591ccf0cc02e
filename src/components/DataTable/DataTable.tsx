import { useMemo, useRef, type CSSProperties } from 'react';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { Button } from '../Button';
import { DataTableRow } from './DataTableRow';
import { FooterRow } from './FooterRow';
import { HeaderRow } from './HeaderRow';
import { StateRow } from './StateRow';
import type { DataTableProps, TableMeta } from './types';
import { DATA_TABLE_VIRTUALIZE_ABOVE_ROWS, useRowVirtualizer } from './useRowVirtualizer';
import { VirtualRows } from './VirtualRows';
import styles from './DataTable.module.css';

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
  const virtualizer = useRowVirtualizer(scrollerRef, bodyRows.length, isVirtual);

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
        <HeaderRow columns={columns} sort={sort} onSortChange={onSortChange} isReady={isReady} />
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
                <Button
                  size="small"
                  // aria-disabled keeps the button focusable while a refresh runs, so the click is
                  // ignored here rather than starting a second one.
                  onClick={() => {
                    if (!isRefreshing) onRefresh();
                  }}
                  aria-disabled={isRefreshing || undefined}
                >
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

/** The table's data while there are no rows (one reference, so TanStack keeps its row model). */
const NO_ROWS: never[] = [];
