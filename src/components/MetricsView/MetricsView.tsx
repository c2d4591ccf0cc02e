import { useId } from 'react';
import {
  AMOUNT_SERIES_NAMES,
  choosePeriod,
  PERIOD_LABELS,
  PERIOD_PRESETS,
  providerLabel,
  type DayRange,
  type MetricsFilters,
  type MetricsOverview,
  type PieSlice,
  type TrendDailyRow,
} from '../../domain/metrics';
import { formatCount, formatCurrency, formatPercent } from '../../domain/format';
import type { IsrSummary } from '../../domain/isr';
import type { AsyncState } from '../../domain/types';
import { AmountSeriesMissing } from '../AmountSeriesMissing';
import { Banner } from '../Banner';
import { StatCard } from '../Card';
import { SERIES_COLORS } from '../ChartFrame';
import { DailyBarsChart, providerSeries, rowDate, rowTotal } from '../DailyBarsChart';
import { SelectField, TextField } from '../Field';
import { IsrSummaryCards } from '../IsrSummaryCards';
import { PieChart } from '../PieChart';
import { TrendChart } from '../TrendChart';
import styles from './MetricsView.module.css';

/** Props of {@link MetricsView}. */
export interface MetricsViewProps {
  /** The filters (§2), as read from the URL. */
  filters: MetricsFilters;
  /**
   * The from/to the filters resolve to today (UTC days; '' = open): the New card's hint, and the
   * days Custom starts from when chosen (§4).
   */
  range: DayRange;
  /** The metrics load: 'Loading…', 'Error: ' + message (§8), or the cards and charts. */
  metrics: AsyncState<MetricsOverview>;
  /** The ISR summary load of the same range (§2 ISR summary panel). */
  isrSummary: AsyncState<IsrSummary>;
  /** Width available to the charts, px (the screen measures it; 0 = not measured yet). */
  chartWidth: number;
  /** A filter changed (the screen puts it in the URL). */
  onFiltersChange: (next: MetricsFilters) => void;
}

const PROVIDER_OPTIONS = [
  { value: '', label: 'all' },
  { value: 'lemonsqueezy', label: 'lemonsqueezy' },
  { value: 'clickbank', label: 'clickbank' },
];
const STATUS_OPTIONS = [
  { value: '', label: 'any' },
  { value: 'active', label: 'active' },
  { value: 'cancelled', label: 'cancelled' },
  { value: 'expired', label: 'expired' },
];
const TYPE_OPTIONS = [
  { value: '', label: 'any' },
  { value: 'new', label: 'new' },
  { value: 'renewal', label: 'renewal' },
];
const BAR_MODE_OPTIONS = [
  { value: 'stacked', label: 'Stacked' },
  { value: 'grouped', label: 'Grouped side by side' },
];
const PERIOD_OPTIONS = PERIOD_PRESETS.map((preset) => ({
  value: preset,
  label: PERIOD_LABELS[preset],
}));

const TREND_SERIES = [
  { key: 'new', label: 'New', color: SERIES_COLORS.new, accessor: (d: TrendDailyRow) => d.new },
  {
    key: 'renewals',
    label: 'Renewals',
    color: SERIES_COLORS.renewals,
    accessor: (d: TrendDailyRow) => d.renewals,
  },
  {
    key: 'cancellations',
    label: 'Cancellations',
    color: SERIES_COLORS.cancellations,
    accessor: (d: TrendDailyRow) => d.cancellations,
  },
];
const trendDate = (d: TrendDailyRow) => d.date;
const sliceName = (d: PieSlice) => d.name;
const sliceCount = (d: PieSlice) => d.cnt;
const providerSliceLabel = (d: PieSlice) => providerLabel(d.name);

/** Border and padding of a chart frame, px (ChartFrame.module.css): the plot is this much narrower. */
const FRAME_INSET = 34;
/** §2 chart heights (320–360 px). */
const BAR_HEIGHT = 340;
const PIE_HEIGHT = 320;

/** The New card's hint: 'from → to' (an open start reads 'all time'). */
function rangeHint(range: DayRange): string {
  return `${range.from || 'all time'} → ${range.to || 'today'}`;
}

function MetricsFilterRow({
  filters,
  range,
  onFiltersChange,
}: Pick<MetricsViewProps, 'filters' | 'range' | 'onFiltersChange'>) {
  const set = <K extends keyof MetricsFilters>(key: K, value: MetricsFilters[K]) =>
    onFiltersChange({ ...filters, [key]: value });
  return (
    <form
      className={styles.filters}
      aria-label="Metrics filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        label="Period"
        value={filters.period}
        options={PERIOD_OPTIONS}
        onValueChange={(value) =>
          onFiltersChange(choosePeriod(filters, value as MetricsFilters['period'], range))
        }
      />
      {filters.period === 'custom' ? (
        <>
          <TextField
            label="From"
            type="date"
            value={filters.customFrom}
            onValueChange={(v) => set('customFrom', v)}
          />
          <TextField
            label="To"
            type="date"
            value={filters.customTo}
            onValueChange={(v) => set('customTo', v)}
          />
        </>
      ) : null}
      <SelectField
        label="Provider"
        value={filters.provider}
        options={PROVIDER_OPTIONS}
        onValueChange={(value) => set('provider', value as MetricsFilters['provider'])}
      />
      <SelectField
        label="Status"
        value={filters.status}
        options={STATUS_OPTIONS}
        onValueChange={(value) => set('status', value as MetricsFilters['status'])}
      />
      <SelectField
        label="Type"
        value={filters.type}
        options={TYPE_OPTIONS}
        onValueChange={(value) => set('type', value as MetricsFilters['type'])}
      />
      <TextField label="Plan" value={filters.plan} onValueChange={(v) => set('plan', v)} />
      <TextField label="Source" value={filters.source} onValueChange={(v) => set('source', v)} />
      <SelectField
        label="Bars"
        value={filters.barMode}
        options={BAR_MODE_OPTIONS}
        onValueChange={(value) => set('barMode', value === 'grouped' ? 'grouped' : 'stacked')}
      />
    </form>
  );
}

function MetricsCards({ data, range }: { data: MetricsOverview; range: DayRange }) {
  const t = data.totals;
  return (
    <div className={styles.cards}>
      <StatCard label="Active" value={formatCount(t.totalActive)} hint="Currently active" />
      <StatCard label="New" value={formatCount(t.totalNewInRange)} hint={rangeHint(range)} />
      <StatCard label="Renewals" value={formatCount(t.totalRenewalsInRange)} />
      <StatCard label="Cancellations" value={formatCount(t.totalCancellationsInRange)} />
      <StatCard label="Churn" value={formatPercent(t.churnRate)} hint="Cancels ÷ start active" />
      <StatCard
        label="Est. Revenue"
        value={formatCurrency(t.estimatedRevenueCents, 'USD', 0)}
        hint="New + renewals"
      />
    </div>
  );
}

function MetricsCharts({
  data,
  filters,
  width,
}: {
  data: MetricsOverview;
  filters: MetricsFilters;
  width: number;
}) {
  const plotWidth = Math.max(0, width - FRAME_INSET);
  const pieWidth = Math.max(0, Math.floor((width - 16) / 2) - FRAME_INSET);
  const countSeries = providerSeries(data.providers);
  const amount = data.amountSeries;
  const total = { label: 'Total', accessor: rowTotal };
  return (
    <div className={styles.charts}>
      <DailyBarsChart
        title="Total subscriptions vs providers (daily)"
        width={plotWidth}
        height={BAR_HEIGHT}
        data={data.byProviderDaily}
        xAccessor={rowDate}
        series={countSeries}
        total={total}
        mode={filters.barMode}
      />
      <DailyBarsChart
        title="Total amount vs providers (daily)"
        width={plotWidth}
        height={BAR_HEIGHT}
        data={amount?.rows ?? []}
        xAccessor={rowDate}
        series={providerSeries(amount?.providers ?? [])}
        total={total}
        mode={filters.barMode}
        valueKind="currency"
        message={amount ? undefined : <AmountSeriesMissing acceptedNames={AMOUNT_SERIES_NAMES} />}
      />
      <TrendChart
        title="Daily trend: New vs Renewals vs Cancellations"
        width={plotWidth}
        height={BAR_HEIGHT}
        data={data.lineDaily}
        xAccessor={trendDate}
        series={TREND_SERIES}
      />
      <DailyBarsChart
        title="New subscriptions by provider (daily)"
        width={plotWidth}
        height={BAR_HEIGHT}
        data={data.byProviderDaily}
        xAccessor={rowDate}
        series={countSeries}
        mode="grouped"
      />
      <div className={styles.pies}>
        <PieChart
          title="Active subscriptions by provider"
          width={pieWidth}
          height={PIE_HEIGHT}
          data={data.pies.activeByProvider}
          nameAccessor={sliceName}
          labelAccessor={providerSliceLabel}
          valueAccessor={sliceCount}
        />
        <PieChart
          title="Active subscriptions by plan"
          width={pieWidth}
          height={PIE_HEIGHT}
          data={data.pies.activeByPlan}
          nameAccessor={sliceName}
          valueAccessor={sliceCount}
        />
      </div>
    </div>
  );
}

/**
 * The Metrics screen's view (§2 Metrics): filters, six summary cards, the ISR summary panel and
 * the five charts; 'Loading…' while the first answer is due and 'Error: ' + message on failure.
 * Pure: the screen supplies the loads, the range, the measured width and the filter callback.
 */
export function MetricsView({
  filters,
  range,
  metrics,
  isrSummary,
  chartWidth,
  onFiltersChange,
}: MetricsViewProps) {
  const headingId = useId();
  const isrHeadingId = useId();
  return (
    <section
      className={styles.view}
      aria-labelledby={headingId}
      aria-busy={metrics.status === 'loading'}
    >
      <h1 id={headingId} className={styles.title}>
        Metrics
      </h1>
      <MetricsFilterRow filters={filters} range={range} onFiltersChange={onFiltersChange} />
      {metrics.status === 'loading' ? (
        <p className={styles.status} role="status">
          Loading…
        </p>
      ) : null}
      {metrics.status === 'error' ? <Banner tone="danger">Error: {metrics.message}</Banner> : null}
      {metrics.status === 'ready' ? (
        <>
          <h2 className="visually-hidden">Summary</h2>
          <MetricsCards data={metrics.data} range={range} />
        </>
      ) : null}
      <section className={styles.panel} aria-labelledby={isrHeadingId}>
        <h2 id={isrHeadingId} className={styles.panelTitle}>
          ISR summary
        </h2>
        <IsrSummaryCards state={isrSummary} />
      </section>
      {metrics.status === 'ready' && chartWidth > 0 ? (
        <>
          <h2 className="visually-hidden">Charts</h2>
          <MetricsCharts data={metrics.data} filters={filters} width={chartWidth} />
        </>
      ) : null}
    </section>
  );
}
