import { useMemo } from 'react';
import { scaleBand } from '@visx/scale';
import { Axis, BarSeries, Grid, XYChart } from '@visx/xychart';
import {
  ChartFrame,
  formatAxisValue,
  formatFullValue,
  useActiveIndex,
  type ChartStatus,
  type ValueKind,
} from '../ChartFrame';
import { xyTheme } from '../ChartFrame/xy';
import styles from './RankedBarsChart.module.css';

/** Props of {@link RankedBarsChart}. */
export interface RankedBarsChartProps<D extends object> {
  /** Title and accessible name, e.g. 'Top affiliates by revenue'. */
  title: string;
  width: number;
  /** Plot height in px (default 340; §2: 320–360). */
  height?: number;
  /** Items in rank order (largest first), e.g. the §3 top-affiliate rows. */
  data: readonly D[];
  /** The item's name (a blank one reads '(none)'). */
  labelAccessor: (d: D) => string;
  /** The item's value: a count, or integer cents. */
  valueAccessor: (d: D) => number;
  /** Counts or money in cents. */
  valueKind?: ValueKind;
  currency?: string;
  /** The bar colour. */
  color: string;
  /** How many items the text list under the chart names, in compact k/M (§2: 6; 0 = none). */
  listCount?: number;
  status?: ChartStatus;
  headingLevel?: 2 | 3;
}

const MARGIN = { top: 8, right: 16, bottom: 28, left: 120 } as const;
/**
 * XYChart maps a y band scale bottom-up (range [bottom, top]); `reverse` puts rank 1 on top, as
 * the `band` scale below (anchor, highlight) and the text list read.
 */
const Y_SCALE = { type: 'band', paddingInner: 0.25, paddingOuter: 0.1, reverse: true } as const;
const X_SCALE = { type: 'linear', nice: true, zero: true } as const;

function truncate(text: string, max = 16): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Horizontal bars in rank order with the first `listCount` items also as a text list in compact
 * k/M amounts (§2 top affiliates by revenue: bar plus a text list of the first 6).
 */
export function RankedBarsChart<D extends object>({
  title,
  width,
  height = 340,
  data,
  labelAccessor,
  valueAccessor,
  valueKind = 'currency',
  currency = 'USD',
  color,
  listCount = 6,
  status = 'ready',
  headingLevel,
}: RankedBarsChartProps<D>) {
  const active = useActiveIndex(data.length);
  const label = (d: D) => labelAccessor(d).trim() || '(none)';
  // Category keys are made unique by rank, so two blank names never share one band.
  const keys = useMemo(
    () => data.map((d, i) => `${i + 1}. ${labelAccessor(d).trim() || '(none)'}`),
    [data, labelAccessor],
  );
  const keyOf = (d: D) => keys[data.indexOf(d)] ?? '';
  const band = useMemo(
    () =>
      scaleBand<string>({
        domain: keys,
        range: [MARGIN.top, Math.max(MARGIN.top, height - MARGIN.bottom)],
        paddingInner: Y_SCALE.paddingInner,
        paddingOuter: Y_SCALE.paddingOuter,
      }),
    [keys, height],
  );
  const theme = useMemo(() => xyTheme([color]), [color]);
  const full = (value: number) => formatFullValue(value, valueKind, currency);
  const compact = (value: number) => formatAxisValue(value, valueKind, currency);
  const listed = data.slice(0, listCount);

  return (
    <div className={styles.wrap}>
      <ChartFrame
        title={title}
        headingLevel={headingLevel}
        status={status}
        width={width}
        height={height}
        active={active}
        count={data.length}
        anchor={(index) => ({
          x: MARGIN.left + 8,
          y: (band(keys[index] ?? '') ?? 0) + band.bandwidth(),
        })}
        highlight={(index) => ({
          x: MARGIN.left,
          y: (band(keys[index] ?? '') ?? 0) - (band.step() - band.bandwidth()) / 2,
          width: Math.max(0, width - MARGIN.left - MARGIN.right),
          height: band.step(),
        })}
        describe={(index) => {
          const d = data[index]!;
          return {
            heading: `#${index + 1} ${label(d)}`,
            lines: [{ label: 'Revenue', value: full(valueAccessor(d)), color }],
          };
        }}
        table={{
          headers: ['Rank', 'Name', valueKind === 'currency' ? 'Amount' : 'Count'],
          rows: data.map((d, i) => [String(i + 1), label(d), full(valueAccessor(d))]),
        }}
      >
        <XYChart
          width={width}
          height={height}
          margin={MARGIN}
          xScale={X_SCALE}
          yScale={Y_SCALE}
          theme={theme}
          accessibilityLabel={title}
          onPointerMove={({ index }) => active.setPointerIndex(index)}
          onPointerOut={() => active.setPointerIndex(null)}
        >
          <Grid rows={false} numTicks={4} />
          <BarSeries
            dataKey="value"
            data={data as D[]}
            xAccessor={valueAccessor}
            yAccessor={keyOf}
            colorAccessor={() => color}
          />
          <Axis
            orientation="left"
            tickFormat={(key: string) => truncate(key.replace(/^\d+\.\s/, ''))}
          />
          <Axis orientation="bottom" numTicks={4} tickFormat={(v: number) => compact(v)} />
        </XYChart>
      </ChartFrame>
      {status === 'ready' && listed.length > 0 ? (
        <ol className={styles.list} aria-label={`${title}: first ${listed.length}`}>
          {listed.map((d, i) => (
            <li key={keys[i]}>
              <span className={styles.name}>{label(d)}</span>
              <span className={styles.amount}>{compact(valueAccessor(d))}</span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
