import type { SortState } from '../../domain/types';
import { stickyStyle } from './sticky';
import type { DataTableColumn } from './types';
import styles from './DataTable.module.css';

/** Props of {@link HeaderRow}. */
interface HeaderRowProps<TRow, K extends string, C> {
  /** The table's columns. */
  columns: readonly DataTableColumn<TRow, K, C>[];
  /** The server sort in force, or null. */
  sort: SortState<K> | null;
  /** A sortable header cell was clicked; without it no column is sortable. */
  onSortChange?: (key: K) => void;
  /** Rows are shown, so the header row carries aria-rowindex 1. */
  isReady: boolean;
}

/**
 * The header row: a sortable column's whole cell is its sort button, with ▲/▼ (↕ when unsorted)
 * and `aria-sort` on the sorted one.
 */
export function HeaderRow<TRow, K extends string, C>({
  columns,
  sort,
  onSortChange,
  isReady,
}: HeaderRowProps<TRow, K, C>) {
  return (
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
                direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
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
  );
}
