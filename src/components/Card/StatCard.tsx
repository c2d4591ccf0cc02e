import type { ReactNode } from 'react';
import styles from './Card.module.css';

/** Props of {@link StatCard}. */
export interface StatCardProps {
  /** The figure's name, e.g. 'MRR' (§2 Dashboard, §2 Metrics). */
  label: string;
  /** The formatted figure; a dash when missing, '…' while loading. */
  value: ReactNode;
  /** Optional line under the figure, e.g. 'Currently active'. */
  hint?: ReactNode;
}

/** One labelled figure: the building block of the dashboard, metrics and ISR card rows. */
export function StatCard({ label, value, hint }: StatCardProps) {
  return (
    <section className={styles.card} aria-label={label}>
      <h3 className={styles.label}>{label}</h3>
      <p className={styles.value}>{value}</p>
      {hint ? <p className={styles.hint}>{hint}</p> : null}
    </section>
  );
}
