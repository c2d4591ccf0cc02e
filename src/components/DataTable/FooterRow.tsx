import type { ReactNode } from 'react';
import type { DataTableColumn, DataTableFooter } from './types';
import styles from './DataTable.module.css';

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
export function FooterRow<TRow, K extends string, C>({
  columns,
  cells,
}: FooterRowProps<TRow, K, C>) {
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
