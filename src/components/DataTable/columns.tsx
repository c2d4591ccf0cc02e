import { DASH, formatUtcDateTime } from '../../domain/format';
import { orDash } from '../../domain/subscription-view';
import type { ReactNode } from 'react';
import type { DataTableColumn } from './types';

/** What a column builder needs: the id (= sort key unless told), header, width, and options. */
interface ColumnOptions<K extends string> {
  /** Server sort key; defaults to the id; null = not sortable. */
  sortKey?: K | null;
  /** CSS width, e.g. '128px'. */
  width: string;
  align?: 'start' | 'end';
  sticky?: 'start' | 'end';
}

function base<TRow, K extends string, C>(
  id: string,
  header: string,
  options: ColumnOptions<K>,
): Omit<DataTableColumn<TRow, K, C>, 'cell'> {
  const sortKey = options.sortKey === undefined ? (id as K) : (options.sortKey ?? undefined);
  return {
    id,
    header,
    width: options.width,
    align: options.align,
    sticky: options.sticky,
    sortKey,
  };
}

/** A text or number column: the value, or a dash when missing or blank. */
export function textColumn<TRow, K extends string, C>(
  id: string,
  header: string,
  value: (row: TRow) => string | number | null | undefined,
  options: ColumnOptions<K>,
): DataTableColumn<TRow, K, C> {
  return { ...base<TRow, K, C>(id, header, options), cell: (row) => orDash(value(row)) };
}

/** A UTC instant column: 'YYYY-MM-DD HH:MM' (§5) in a <time> element, or a dash. */
export function utcColumn<TRow, K extends string, C>(
  id: string,
  header: string,
  value: (row: TRow) => string | null | undefined,
  options: ColumnOptions<K>,
): DataTableColumn<TRow, K, C> {
  return {
    ...base<TRow, K, C>(id, header, options),
    cell: (row) => {
      const instant = value(row);
      const shown = formatUtcDateTime(instant);
      return shown === DASH || instant == null ? DASH : <time dateTime={instant}>{shown}</time>;
    },
  };
}

/** A column whose cell is a view of one value (a badge, a link…), e.g. the §4 status pills. */
export function viewColumn<TRow, K extends string, C, V>(
  id: string,
  header: string,
  value: (row: TRow) => V,
  render: (value: V) => ReactNode,
  options: ColumnOptions<K>,
): DataTableColumn<TRow, K, C> {
  return { ...base<TRow, K, C>(id, header, options), cell: (row) => render(value(row)) };
}

/** The trailing Actions column (not sortable), pinned to the end edge so it stays in view. */
export function actionsColumn<TRow, K extends string, C>(
  cell: (row: TRow, context: C) => ReactNode,
  width = '84px',
): DataTableColumn<TRow, K, C> {
  return { id: 'actions', header: 'Actions', width, sticky: 'end', cell };
}
