import type { IsrAffiliateRow, IsrDailyPivot, IsrProviderSlice } from '../../domain/isr';
import { providerLabel } from '../../domain/metrics';
import type { AsyncState } from '../../domain/types';
import { SERIES_COLORS } from '../ChartFrame';
import { DailyBarsChart, providerSeries, rowDate, rowTotal } from '../DailyBarsChart';
import { PieChart } from '../PieChart';
import { RankedBarsChart } from '../RankedBarsChart';
import { TrendChart } from '../TrendChart';
import styles from './IsrCharts.module.css';

/** Props of {@link IsrCharts}. */
export interface IsrChartsProps {
  /** The daily series pivoted per provider (domain pivotIsrDaily): amounts in cents and counts. */
  daily: AsyncState<IsrDailyPivot>;
  /** Top affiliates by revenue (§3 rows, at most 12), largest first. */
  affiliates: AsyncState<readonly IsrAffiliateRow[]>;
  /** Revenue per provider over the range (domain isrProviderSplit), cents. */
  split: AsyncState<readonly IsrProviderSlice[]>;
  /** Width available, px. */
  width: number;
  /** ISO currency of the amounts (default USD). */
  currency?: string;
}

const FRAME_INSET = 34;
const TOTAL = { label: 'Total', accessor: rowTotal };
const affiliateName = (d: IsrAffiliateRow) => d.affiliate ?? '';
const affiliateAmount = (d: IsrAffiliateRow) => d.amountCents;
const sliceName = (d: IsrProviderSlice) => d.name;
const sliceLabel = (d: IsrProviderSlice) => providerLabel(d.name);
const sliceCents = (d: IsrProviderSlice) => d.cnt;

function statusOf<T>(state: AsyncState<T>) {
  return state.status === 'loading'
    ? ('loading' as const)
    : state.status === 'ready'
      ? ('ready' as const)
      : ('empty' as const);
}

/**
 * The four Integrated Tracking charts (§2): daily revenue by provider (stacked bars plus total
 * line), daily events count (a line per provider plus total), top affiliates by revenue (bars
 * with a text list of the first 6 in compact k/M) and the provider split pie by revenue.
 */
export function IsrCharts({ daily, affiliates, split, width, currency = 'USD' }: IsrChartsProps) {
  const plotWidth = Math.max(0, width - FRAME_INSET);
  const halfWidth = Math.max(0, Math.floor((width - 16) / 2) - FRAME_INSET);
  const pivot = daily.status === 'ready' ? daily.data : { amounts: [], events: [], providers: [] };
  const series = providerSeries(pivot.providers);
  return (
    <div className={styles.charts}>
      <DailyBarsChart
        title="Daily revenue by provider"
        width={plotWidth}
        height={340}
        data={pivot.amounts}
        xAccessor={rowDate}
        series={series}
        total={TOTAL}
        valueKind="currency"
        currency={currency}
        status={statusOf(daily)}
      />
      <TrendChart
        title="Daily events count"
        width={plotWidth}
        height={320}
        data={pivot.events}
        xAccessor={rowDate}
        series={series}
        total={TOTAL}
        status={statusOf(daily)}
      />
      <div className={styles.pair}>
        <RankedBarsChart
          title="Top affiliates by revenue"
          width={halfWidth}
          height={340}
          data={affiliates.status === 'ready' ? affiliates.data : []}
          labelAccessor={affiliateName}
          valueAccessor={affiliateAmount}
          valueKind="currency"
          currency={currency}
          color={SERIES_COLORS.clickbank}
          listCount={6}
          status={statusOf(affiliates)}
        />
        <PieChart
          title="Provider split by revenue"
          width={halfWidth}
          height={340}
          data={split.status === 'ready' ? split.data : []}
          nameAccessor={sliceName}
          labelAccessor={sliceLabel}
          valueAccessor={sliceCents}
          valueKind="currency"
          currency={currency}
          status={statusOf(split)}
        />
      </div>
    </div>
  );
}
