import type { ReactNode } from 'react';
import styles from './DataTable.module.css';

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
export function VirtualRows({ items, totalSize, columnCount, render }: VirtualRowsProps) {
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
