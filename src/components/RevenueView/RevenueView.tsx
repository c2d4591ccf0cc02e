import { useId, useState } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { SERIES_COLORS } from '../ChartFrame';
import { CohortHeatmap } from '../CohortHeatmap';
import { SelectField, TextField } from '../Field';
import { MovementsChart } from '../MovementsChart';
import { RankedBarsChart } from '../RankedBarsChart';
import { TrendChart } from '../TrendChart';
import { PERIOD_LABELS, PERIOD_PRESETS, type DayRange } from '../../domain/metrics';
import {
  chooseRevenuePeriod,
  MOVEMENT_KINDS,
  MOVEMENT_LABELS,
  isRevenueEmpty,
  type Cohort,
  type MovementKind,
  type MovementSelection,
  type MovementSubscription,
  type RevenueFilters,
  type RevenueOverview,
} from '../../domain/revenue';
import type { AsyncState } from '../../domain/types';
import { MovementDrilldown } from './MovementDrilldown';
import { RevenueCards } from './RevenueCards';
import styles from './RevenueView.module.css';

/** Props of {@link RevenueView}. */
export interface RevenueViewProps {
  /** The filters, as read from the URL. */
  filters: RevenueFilters;
  /** The UTC days the period resolves to (Custom starts from them). */
  range: DayRange;
  /** The range's figures. */
  revenue: AsyncState<RevenueOverview>;
  /** The previous equal period's figures, for the cards' comparison (null: none yet). */
  previous: RevenueOverview | null;
  /** The cohorts of the range's months. */
  cohorts: AsyncState<Cohort[]>;
  /** Which retention the heatmap shows. */
  retention: 'logo' | 'revenue';
  /** The bar whose subscriptions are listed, and their load; null = none open. */
  drilldown: {
    selection: MovementSelection;
    state: AsyncState<{ total: number; rows: MovementSubscription[] }>;
  } | null;
  /** Width available to the charts, px (0 = not measured yet). */
  chartWidth: number;
  /** The console path of a customer's page, by email (the drill-down links each row to it). */
  customerPath: (email: string) => string;
  onFiltersChange: (next: RevenueFilters) => void;
  onRetentionChange: (retention: 'logo' | 'revenue') => void;
  /** A bar was opened (or closed, null). */
  onSelect: (selection: MovementSelection | null) => void;
  onExportMovements: () => void;
  onExportCohorts: () => void;
}

const PERIOD_OPTIONS = PERIOD_PRESETS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }));
const PROVIDER_OPTIONS = [
  { value: '', label: 'all' },
  { value: 'lemonsqueezy', label: 'lemonsqueezy' },
  { value: 'clickbank', label: 'clickbank' },
];
const CADENCE_OPTIONS = [
  { value: '', label: 'any' },
  { value: 'monthly', label: 'monthly' },
  { value: 'yearly', label: 'yearly' },
];
const INTERVAL_OPTIONS = [
  { value: '', label: 'automatic' },
  { value: 'day', label: 'day' },
  { value: 'month', label: 'month' },
];
const KIND_OPTIONS = MOVEMENT_KINDS.map((k) => ({ value: k, label: MOVEMENT_LABELS[k] }));
const FRAME_INSET = 34;
const HEIGHT = 340;
const mrrOf = (d: { mrrCents: number }) => d.mrrCents;
const nameOf = (d: { name: string }) => d.name;
const dateOf = (d: { date: string }) => d.date;

function Filters({
  filters,
  range,
  onFiltersChange,
}: Pick<RevenueViewProps, 'filters' | 'range' | 'onFiltersChange'>) {
  const set = <K extends keyof RevenueFilters>(key: K, value: RevenueFilters[K]) =>
    onFiltersChange({ ...filters, [key]: value });
  return (
    <form
      className={styles.filters}
      aria-label="Revenue filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <SelectField
        label="Period"
        value={filters.period}
        options={PERIOD_OPTIONS}
        onValueChange={(v) =>
          onFiltersChange(chooseRevenuePeriod(filters, v as RevenueFilters['period'], range))
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
        onValueChange={(v) => set('provider', v as RevenueFilters['provider'])}
      />
      <TextField label="Plan" value={filters.plan} onValueChange={(v) => set('plan', v)} />
      <SelectField
        label="Cadence"
        value={filters.cadence}
        options={CADENCE_OPTIONS}
        onValueChange={(v) => set('cadence', v as RevenueFilters['cadence'])}
      />
      <SelectField
        label="Interval"
        value={filters.interval}
        options={INTERVAL_OPTIONS}
        onValueChange={(v) => set('interval', v as RevenueFilters['interval'])}
      />
    </form>
  );
}

/** Opens a bar from the keyboard: its bucket and movement, then the list. */
function OpenBar({
  dates,
  onSelect,
}: {
  dates: readonly string[];
  onSelect: (s: MovementSelection) => void;
}) {
  const [date, setDate] = useState('');
  const [kind, setKind] = useState<MovementKind>('churn');
  const chosen = dates.includes(date) ? date : (dates.at(-1) ?? '');
  return (
    <form
      className={styles.openBar}
      aria-label="List the subscriptions behind a bar"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) onSelect({ date: chosen, kind });
      }}
    >
      <SelectField
        label="Bar"
        value={chosen}
        options={dates.map((d) => ({ value: d, label: d }))}
        onValueChange={setDate}
      />
      <SelectField
        label="Movement"
        value={kind}
        options={KIND_OPTIONS}
        onValueChange={(v) => setKind(v as MovementKind)}
      />
      <Button type="submit">List subscriptions</Button>
    </form>
  );
}

/**
 * The Revenue screen's view (docs/metrics.md): filters, eight cards compared with the previous
 * period, the MRR movements chart with its drill-down, MRR over time, the cohort heatmap, MRR by
 * provider and by plan, and the CSV exports. Pure: the screen supplies every load and callback.
 */
export function RevenueView(props: RevenueViewProps) {
  const { revenue, cohorts, chartWidth, drilldown } = props;
  const headingId = useId();
  const plotWidth = Math.max(0, chartWidth - FRAME_INSET);
  const halfWidth = Math.max(0, Math.floor((chartWidth - 16) / 2) - FRAME_INSET);
  const data = revenue.status === 'ready' ? revenue.data : null;
  const empty = data != null && isRevenueEmpty(data);
  return (
    <section
      className={styles.view}
      aria-labelledby={headingId}
      aria-busy={revenue.status === 'loading'}
    >
      <h1 id={headingId} className={styles.title}>
        Revenue
      </h1>
      <Filters
        filters={props.filters}
        range={props.range}
        onFiltersChange={props.onFiltersChange}
      />
      {revenue.status === 'loading' ? (
        <p className={styles.status} role="status">
          Loading…
        </p>
      ) : null}
      {revenue.status === 'error' ? <Banner tone="danger">Error: {revenue.message}</Banner> : null}
      {empty ? <p className={styles.status}>No recurring revenue in this period.</p> : null}
      {data ? (
        <>
          <h2 className="visually-hidden">Summary</h2>
          <RevenueCards data={data} previous={props.previous} />
          <div className={styles.exports}>
            <Button onClick={props.onExportMovements}>Export movements (CSV)</Button>
            <Button
              onClick={props.onExportCohorts}
              disabled={cohorts.status !== 'ready' || cohorts.data.length === 0}
            >
              Export cohorts (CSV)
            </Button>
          </div>
        </>
      ) : null}
      {data && chartWidth > 0 ? (
        <div className={styles.charts}>
          <h2 className="visually-hidden">Charts</h2>
          <MovementsChart
            title="MRR movements"
            width={plotWidth}
            height={HEIGHT}
            data={data.movements}
            currency={data.currency}
            interval={data.interval}
            status={empty ? 'empty' : 'ready'}
            onSelect={props.onSelect}
          />
          {empty ? null : (
            <OpenBar dates={data.movements.map((m) => m.date)} onSelect={props.onSelect} />
          )}
          {drilldown ? (
            <MovementDrilldown
              selection={drilldown.selection}
              state={drilldown.state}
              currency={data.currency}
              customerPath={props.customerPath}
              onClose={() => props.onSelect(null)}
            />
          ) : null}
          <TrendChart
            title="MRR over time"
            width={plotWidth}
            height={HEIGHT}
            data={data.mrrSeries}
            xAccessor={dateOf}
            series={[{ key: 'mrr', label: 'MRR', color: SERIES_COLORS.renewals, accessor: mrrOf }]}
            valueKind="currency"
            currency={data.currency}
            status={empty ? 'empty' : 'ready'}
          />
          {cohorts.status === 'ready' ? (
            <CohortHeatmap
              title="Cohort retention"
              cohorts={cohorts.data}
              retention={props.retention}
              currency={data.currency}
              onRetentionChange={props.onRetentionChange}
            />
          ) : null}
          {cohorts.status === 'loading' ? <p role="status">Loading cohorts…</p> : null}
          {cohorts.status === 'error' ? (
            <Banner tone="danger">Error: {cohorts.message}</Banner>
          ) : null}
          <div className={styles.pair}>
            <RankedBarsChart
              title="MRR by provider"
              width={halfWidth}
              height={200}
              data={data.mrrByProvider}
              labelAccessor={nameOf}
              valueAccessor={mrrOf}
              valueKind="currency"
              currency={data.currency}
              color={SERIES_COLORS.lemonsqueezy}
              listCount={0}
              status={data.mrrByProvider.length === 0 ? 'empty' : 'ready'}
            />
            <RankedBarsChart
              title="MRR by plan"
              width={halfWidth}
              height={200}
              data={data.mrrByPlan}
              labelAccessor={nameOf}
              valueAccessor={mrrOf}
              valueKind="currency"
              currency={data.currency}
              color={SERIES_COLORS.renewals}
              listCount={0}
              status={data.mrrByPlan.length === 0 ? 'empty' : 'ready'}
            />
          </div>
        </div>
      ) : null}
    </section>
  );
}
