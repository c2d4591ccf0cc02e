import type { ReactNode } from 'react';
import { DASH } from '../../domain/format';
import styles from './DetailList.module.css';

/** One label/value pair of a {@link DetailList}. */
export interface DetailItem {
  /** The field's name as the specification spells it, e.g. 'Card Last 4'. */
  label: string;
  /** The formatted value; null, undefined or a blank string shows a dash (DASH). */
  value: ReactNode;
  /** 'code' sets identifiers (IDs, receipts, card digits) in monospace; 'number' uses tabular figures. */
  kind?: 'text' | 'code' | 'number';
}

/** Props of {@link DetailList}. */
export interface DetailListProps {
  /** The pairs in display order. */
  items: readonly DetailItem[];
}

/** Nothing to show: null, undefined, false, a blank string, or an already-formatted dash. */
function isMissing(value: ReactNode): boolean {
  if (value == null || value === false) return true;
  return typeof value === 'string' && (value.trim() === '' || value === DASH);
}

/**
 * A description list (`<dl>`) of label/value pairs laid out as a two-column grid: the building block
 * of the subscription detail drawer's sections (§2). Every missing value shows a dash.
 */
export function DetailList({ items }: DetailListProps) {
  return (
    <dl className={styles.list}>
      {items.map((item) => {
        const isValueMissing = isMissing(item.value);
        return (
          <div key={item.label} className={styles.row}>
            <dt className={styles.label}>{item.label}</dt>
            <dd
              className={styles.value}
              data-kind={isValueMissing ? 'text' : (item.kind ?? 'text')}
            >
              {isValueMissing ? DASH : item.value}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
