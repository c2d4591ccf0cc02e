import { useId } from 'react';
import type { Cohort } from '../../domain/revenue';
import { formatCount, formatCurrency } from '../../domain/format';
import styles from './CohortHeatmap.module.css';

/** Props of {@link CohortHeatmap}. */
export interface CohortHeatmapProps {
  /** Title and the table's caption. */
  title: string;
  /** Cohorts, oldest first. */
  cohorts: readonly Cohort[];
  /** Which retention the cells show: share of customers (logo) or of starting MRR (revenue). */
  retention: 'logo' | 'revenue';
  /** ISO code of the starting MRR. */
  currency: string;
  /** The other retention was chosen. */
  onRetentionChange: (retention: 'logo' | 'revenue') => void;
  headingLevel?: 2 | 3;
}

/** The shade step of a percentage: 0 (< 20 %) to 5 (> 100 %, revenue only). */
export function heatLevel(pct: number): number {
  if (pct > 100) return 5;
  return Math.min(4, Math.floor(pct / 20));
}

/**
 * The cohort retention heatmap: one row per cohort, one column per month since its start, each
 * cell the percentage as text on a shade that deepens with it (never colour alone). It is a data
 * table, so screen readers and the keyboard read it cell by cell; a switch picks logo or revenue
 * retention.
 */
export function CohortHeatmap({
  title,
  cohorts,
  retention,
  currency,
  onRetentionChange,
  headingLevel = 3,
}: CohortHeatmapProps) {
  const headingId = useId();
  const Heading = `h${headingLevel}` as 'h2' | 'h3';
  const months = Math.max(0, ...cohorts.map((c) => c[retention].length));
  return (
    <section className={styles.frame} aria-labelledby={headingId}>
      <div className={styles.head}>
        <Heading id={headingId} className={styles.title}>
          {title}
        </Heading>
        <div className={styles.switch} role="group" aria-label="Retention">
          {(['logo', 'revenue'] as const).map((r) => (
            <button
              key={r}
              type="button"
              className={styles.choice}
              aria-pressed={retention === r}
              onClick={() => onRetentionChange(r)}
            >
              {r === 'logo' ? 'Customers (logo)' : 'Revenue'}
            </button>
          ))}
        </div>
      </div>
      {cohorts.length === 0 ? (
        <p className={styles.empty}>No cohorts in this period.</p>
      ) : (
        // A wide table scrolls sideways; keyboard users reach the hidden months by focusing it.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className={styles.scroll} tabIndex={0} role="region" aria-label={`${title} table`}>
          <table className={styles.table}>
            <caption className="visually-hidden">
              {title}: {retention === 'logo' ? 'customers' : 'starting MRR'} still recurring, % by
              month since the cohort started
            </caption>
            <thead>
              <tr>
                <th scope="col">Cohort</th>
                <th scope="col">Customers</th>
                <th scope="col">MRR</th>
                {Array.from({ length: months }, (_, k) => (
                  <th scope="col" key={k}>
                    <span aria-hidden="true">M{k}</span>
                    <span className="visually-hidden">Month {k}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {cohorts.map((c) => (
                <tr key={c.cohort}>
                  <th scope="row">{c.cohort}</th>
                  <td className={styles.num}>{formatCount(c.customers)}</td>
                  <td className={styles.num}>{formatCurrency(c.mrrCents, currency, 0)}</td>
                  {Array.from({ length: months }, (_, k) => {
                    const v = c[retention][k];
                    return v == null ? (
                      <td key={k} className={styles.none} />
                    ) : (
                      <td key={k} className={styles.cell} data-level={heatLevel(v)}>
                        {v.toFixed(1)}%
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
