import type { ReactNode } from 'react';
import styles from './DataTable.module.css';

/** Props of {@link StateRow}. */
interface StateRowProps {
  /** How many columns the message spans. */
  columnCount: number;
  /** The message and its button. */
  children: ReactNode;
}

/** The single body row of the loading, error and empty states. */
export function StateRow({ columnCount, children }: StateRowProps) {
  return (
    <tr>
      <td colSpan={columnCount} className={styles.stateCell}>
        <div className={styles.state}>{children}</div>
      </td>
    </tr>
  );
}
