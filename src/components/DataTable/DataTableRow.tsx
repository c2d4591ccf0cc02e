import { memo, type ReactNode } from 'react';
import { flexRender, type Row } from '@tanstack/react-table';
import { stickyStyle } from './sticky';
import type { DataTableColumn, TableMeta } from './types';

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
export const DataTableRow = memo(function DataTableRow<TRow, K extends string, C>({
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
