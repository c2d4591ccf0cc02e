import type { CSSProperties } from 'react';
import type { DataTableColumn } from './types';

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
export function stickyStyle<TRow, K extends string, C>(
  columns: readonly DataTableColumn<TRow, K, C>[],
  index: number,
): CSSProperties | undefined {
  const column = columns[index];
  const offset = stickyOffset(columns, index);
  if (!column?.sticky || offset === undefined) return undefined;
  return column.sticky === 'start' ? { insetInlineStart: offset } : { insetInlineEnd: offset };
}
