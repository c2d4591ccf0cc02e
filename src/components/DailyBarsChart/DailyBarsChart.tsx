import { useMemo, type ReactNode } from 'react';
import { Axis, BarGroup, BarSeries, BarStack, Grid, LineSeries, XYChart } from '@visx/xychart';
import {
  ChartFrame,
  SERIES_COLORS,
  formatAxisValue,
  formatDayTick,
  formatFullValue,
  thinTicks,
  useActiveIndex,
  type ChartStatus,
  type ValueKind,
} from '../ChartFrame';
import { BAND_X_SCALE, LINEAR_Y_SCALE, XY_MARGIN, bandGeometry, xyTheme } from '../ChartFrame/xy';
import { ChartLegend, type LegendItem } from '../ChartLegend';
import type { DailySeries } from './series';

/** Props of {@link DailyBarsChart}. */
export interface DailyBarsChartProps<D extends object> {
  /** Title and accessible name (§2 chart titles). */
  title: string;
  /** Plot width in px. */
  width: number;
  /** Plot height in px; §2 asks for 320–360 (default 340). */
  height?: number;
  /** One datum per UTC day, in day order. */
  data: readonly D[];
  /** The datum's day 'YYYY-MM-DD' (UTC), the x category. */
  xAccessor: (d: D) => string;
  /** The bar series (one per provider), drawn in this order. */
  series: readonly DailySeries<D>[];
  /** A total line over the bars (§2 "plus a total line"); omitted = no line. */
  total?: { label: string; accessor: (d: D) => number };
  /** Stacked (default) or grouped side by side (§2 bar display mode). */
  mode?: 'stacked' | 'grouped';
  /** Counts, or money in integer cents (currency axis and tooltips). */
  valueKind?: ValueKind;
  /** ISO currency of money values (default USD). */
  currency?: string;
  /** Loading, empty or ready (default ready; no data reads as empty). */
  status?: ChartStatus;
  /** A message shown instead of the plot (e.g. §2 missing amount series). */
  message?: ReactNode;
  headingLevel?: 2 | 3;
}

/**
 * Daily bars per series, stacked or grouped, with an optional total line (§2 'Total
 * subscriptions vs providers (daily)', 'Total amount vs providers (daily)', 'New subscriptions by
 * provider (daily)', ISR daily revenue). Pure: no animation, fixed size, keyboard tooltips.
 */
export function DailyBarsChart<D extends object>(props: DailyBarsChartProps<D>) {
  return <DailyXYChart kind="bars" {...props} />;
}

/**
 * The shared daily xy chart: bars (stacked/grouped) or one line per series, plus the total line.
 * Used by DailyBarsChart and TrendChart.
 */
export function DailyXYChart<D extends object>({
  kind,
  title,
  width,
  height = 340,
  data,
  xAccessor,
  series,
  total,
  mode = 'stacked',
  valueKind = 'count',
  currency = 'USD',
  status = 'ready',
  message,
  headingLevel,
}: DailyBarsChartProps<D> & { kind: 'bars' | 'lines' }) {
  const active = useActiveIndex(data.length);
  const categories = useMemo(() => data.map(xAccessor), [data, xAccessor]);
  const geometry = useMemo(
    () => bandGeometry(categories, width, height),
    [categories, width, height],
  );
  const theme = useMemo(
    () => xyTheme([...series.map((s) => s.color), SERIES_COLORS.total]),
    [series],
  );
  const format = (value: number) => formatFullValue(value, valueKind, currency);

  const legend: LegendItem[] = [
    ...series.map((s) => ({
      key: s.key,
      label: s.label,
      color: s.color,
      shape: kind === 'lines' ? ('line' as const) : ('bar' as const),
    })),
    ...(total
      ? [{ key: '__total', label: total.label, color: SERIES_COLORS.total, shape: 'line' as const }]
      : []),
  ];

  const lines = series.map((s) => (
    <LineSeries
      key={s.key}
      dataKey={s.key}
      data={data as D[]}
      xAccessor={xAccessor}
      yAccessor={s.accessor}
      stroke={s.color}
    />
  ));
  const bars = series.map((s) => (
    <BarSeries
      key={s.key}
      dataKey={s.key}
      data={data as D[]}
      xAccessor={xAccessor}
      yAccessor={s.accessor}
      colorAccessor={() => s.color}
    />
  ));

  return (
    <ChartFrame
      title={title}
      headingLevel={headingLevel}
      status={status}
      message={message}
      width={width}
      height={height}
      legend={<ChartLegend items={legend} />}
      active={active}
      count={data.length}
      anchor={geometry.anchor}
      highlight={geometry.highlight}
      describe={(index) => {
        const d = data[index]!;
        return {
          heading: xAccessor(d),
          lines: [
            ...series.map((s) => ({
              label: s.label,
              value: format(s.accessor(d)),
              color: s.color,
            })),
            ...(total
              ? [
                  {
                    label: total.label,
                    value: format(total.accessor(d)),
                    color: SERIES_COLORS.total,
                  },
                ]
              : []),
          ],
        };
      }}
      table={{
        headers: ['Date', ...series.map((s) => s.label), ...(total ? [total.label] : [])],
        rows: data.map((d) => [
          xAccessor(d),
          ...series.map((s) => format(s.accessor(d))),
          ...(total ? [format(total.accessor(d))] : []),
        ]),
      }}
    >
      <XYChart
        width={width}
        height={height}
        margin={XY_MARGIN}
        xScale={BAND_X_SCALE}
        yScale={LINEAR_Y_SCALE}
        theme={theme}
        accessibilityLabel={title}
        pointerEventsDataKey="nearest"
        onPointerMove={({ index }) => active.setPointerIndex(index)}
        onPointerOut={() => active.setPointerIndex(null)}
      >
        <Grid columns={false} numTicks={5} />
        {kind === 'lines' ? (
          lines
        ) : mode === 'stacked' ? (
          <BarStack>{bars}</BarStack>
        ) : (
          <BarGroup padding={0.1}>{bars}</BarGroup>
        )}
        {total ? (
          <LineSeries
            dataKey="__total"
            data={data as D[]}
            xAccessor={xAccessor}
            yAccessor={total.accessor}
            stroke={SERIES_COLORS.total}
          />
        ) : null}
        <Axis
          orientation="bottom"
          tickValues={thinTicks(categories, geometry.plotWidth)}
          tickFormat={formatDayTick}
        />
        <Axis
          orientation="left"
          numTicks={5}
          tickFormat={(v: number) => formatAxisValue(v, valueKind, currency)}
        />
      </XYChart>
    </ChartFrame>
  );
}
