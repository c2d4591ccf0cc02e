import styles from './ChartLegend.module.css';

/** One legend entry. */
export interface LegendItem {
  /** Stable key (the series' name). */
  key: string;
  /** Display label, e.g. 'LemonSqueezy'. */
  label: string;
  /** The series colour. */
  color: string;
  /** 'bar' draws a square swatch, 'line' a short stroke (the total line). */
  shape?: 'bar' | 'line';
  /** Optional formatted figure after the label (pies: '512 · 62.3%'). */
  value?: string;
}

/** Props of {@link ChartLegend}. */
export interface ChartLegendProps {
  items: readonly LegendItem[];
  /** Accessible name of the list (default 'Legend'). */
  label?: string;
}

/** A chart legend: colour swatches and labels, wrapping; a plain list for assistive technology. */
export function ChartLegend({ items, label = 'Legend' }: ChartLegendProps) {
  return (
    <ul className={styles.legend} aria-label={label}>
      {items.map((item) => (
        <li key={item.key} className={styles.item}>
          <span
            className={styles.swatch}
            data-shape={item.shape ?? 'bar'}
            style={{ background: item.color }}
            aria-hidden="true"
          />
          <span>{item.label}</span>
          {item.value ? <span className={styles.value}>{item.value}</span> : null}
        </li>
      ))}
    </ul>
  );
}
