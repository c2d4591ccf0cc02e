import { StatCard } from '../Card';
import { formatCurrency, formatPercent } from '../../domain/format';
import { compare, type Comparison, type RevenueOverview } from '../../domain/revenue';
import styles from './RevenueView.module.css';

/** Props of {@link RevenueCards}. */
export interface RevenueCardsProps {
  /** The range's figures. */
  data: RevenueOverview;
  /** The previous equal period's figures; null while unknown (no comparison shown). */
  previous: RevenueOverview | null;
}

/** '▲ 12.3% vs previous period' (the arrow and words carry the direction, not colour). */
export function comparisonText(c: Comparison | null): string {
  if (c == null) return 'No previous period';
  if (c.direction === 'flat') return '= same as previous period';
  const arrow = c.direction === 'up' ? '▲' : '▼';
  const word = c.direction === 'up' ? 'up' : 'down';
  return c.change == null
    ? `${arrow} ${word} from 0 vs previous period`
    : `${arrow} ${formatPercent(c.change)} vs previous period`;
}

const ratio = (v: number | null) => (v == null ? '—' : v.toFixed(2));

/** The eight revenue cards, each compared with the previous equal period. */
export function RevenueCards({ data, previous }: RevenueCardsProps) {
  const cur = data.currency;
  const net = (r: RevenueOverview) => r.mrrEndCents - r.mrrStartCents;
  const cards: Array<{ label: string; value: string; now: number | null; before: number | null }> =
    [
      {
        label: 'MRR now',
        value: formatCurrency(data.mrrEndCents, cur, 0),
        now: data.mrrEndCents,
        before: previous?.mrrEndCents ?? null,
      },
      {
        label: 'Net new MRR',
        value: formatCurrency(net(data), cur, 0),
        now: net(data),
        before: previous ? net(previous) : null,
      },
      {
        label: 'Customer churn',
        value: formatPercent(data.customerChurnRate),
        now: data.customerChurnRate,
        before: previous?.customerChurnRate ?? null,
      },
      {
        label: 'MRR churn',
        value: formatPercent(data.mrrChurnRate),
        now: data.mrrChurnRate,
        before: previous?.mrrChurnRate ?? null,
      },
      {
        label: 'NRR',
        value: formatPercent(data.nrr),
        now: data.nrr,
        before: previous?.nrr ?? null,
      },
      {
        label: 'Quick ratio',
        value: ratio(data.quickRatio),
        now: data.quickRatio,
        before: previous?.quickRatio ?? null,
      },
      {
        label: 'ARPA',
        value: formatCurrency(data.arpaCents, cur, 2),
        now: data.arpaCents,
        before: previous?.arpaCents ?? null,
      },
      {
        label: 'LTV',
        value: formatCurrency(data.ltvCents, cur, 0),
        now: data.ltvCents,
        before: previous?.ltvCents ?? null,
      },
    ];
  return (
    <div className={styles.cards}>
      {cards.map((c) => (
        <StatCard
          key={c.label}
          label={c.label}
          value={c.value}
          hint={comparisonText(compare(c.now, c.before))}
        />
      ))}
    </div>
  );
}
