import { useMemo } from 'react';
import { Axis, BarSeries, BarStack, Grid, LineSeries, XYChart } from '@visx/xychart';
import {
  ChartFrame,
  formatAxisValue,
  formatDayTick,
  formatFullValue,
  SERIES_COLORS,
  thinTicks,
  useActiveIndex,
  type ChartStatus,
} from '../ChartFrame';
import { BAND_X_SCALE, XY_MARGIN, bandGeometry, xyTheme } from '../ChartFrame/xy';
import { ChartLegend, type LegendItem } from '../ChartLegend';
import {
  LOSS_KINDS,
  MOVEMENT_KINDS,
  MOVEMENT_LABELS,
  netMovement,
  type MovementBucket,
  type MovementKind,
  type MovementSelection,
} from '../../domain/revenue';
import { MOVEMENT_COLORS } from './colors';

/** Props of {@link MovementsChart}. */
export interface MovementsChartProps {
  /** Title and accessible name. */
  title: string;
  /** Plot size, px. */
  width: number;
  height?: number;
  /** One bucket per day or month, in order; cents ≥ 0. */
  data: readonly MovementBucket[];
  /** ISO code of the money. */
  currency: string;
  /** Bucket size: day buckets tick as 'Nov 20', month buckets as '2026-11'. */
  interval?: 'day' | 'month';
  status?: ChartStatus;
  /** A bar segment was clicked: its bucket and movement. */
  onSelect?: (selection: MovementSelection) => void;
  headingLevel?: 2 | 3;
}

/** The y scale: linear through zero, so losses hang below the axis. */
const Y_SCALE = { type: 'linear', nice: true, zero: true } as const;
const date = (d: MovementBucket) => d.date;
const monthTick = (day: string) => day.slice(0, 7);
/** A movement's signed bar height: gains above zero, losses below. */
const signed = (kind: MovementKind) => (d: MovementBucket) =>
  LOSS_KINDS.includes(kind) ? -d[kind] : d[kind];

/**
 * MRR movements as ChartMogul draws them: new, expansion and reactivation stacked above zero,
 * contraction and churn below, and a net line. Pure, fixed size, keyboard tooltips and a data
 * table; clicking a bar segment reports it (the drill-down).
 */
export function MovementsChart({
  title,
  width,
  height = 340,
  data,
  currency,
  interval = 'day',
  status = 'ready',
  onSelect,
  headingLevel,
}: MovementsChartProps) {
  const active = useActiveIndex(data.length);
  const categories = useMemo(() => data.map(date), [data]);
  const geometry = useMemo(
    () => bandGeometry(categories, width, height),
    [categories, width, height],
  );
  const theme = useMemo(
    () => xyTheme([...MOVEMENT_KINDS.map((k) => MOVEMENT_COLORS[k]), SERIES_COLORS.total]),
    [],
  );
  const format = (cents: number) => formatFullValue(cents, 'currency', currency);
  const legend: LegendItem[] = [
    ...MOVEMENT_KINDS.map((k) => ({
      key: k,
      label: MOVEMENT_LABELS[k],
      color: MOVEMENT_COLORS[k],
      shape: 'bar' as const,
    })),
    { key: 'net', label: 'Net new MRR', color: SERIES_COLORS.total, shape: 'line' as const },
  ];
  return (
    <ChartFrame
      title={title}
      headingLevel={headingLevel}
      status={status === 'ready' && data.length === 0 ? 'empty' : status}
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
          heading: d.date,
          lines: [
            ...MOVEMENT_KINDS.map((k) => ({
              label: MOVEMENT_LABELS[k],
              value: `${LOSS_KINDS.includes(k) && d[k] > 0 ? '−' : ''}${format(d[k])}`,
              color: MOVEMENT_COLORS[k],
            })),
            { label: 'Net new MRR', value: format(netMovement(d)), color: SERIES_COLORS.total },
          ],
        };
      }}
      table={{
        headers: ['Date', ...MOVEMENT_KINDS.map((k) => MOVEMENT_LABELS[k]), 'Net new MRR'],
        rows: data.map((d) => [
          d.date,
          ...MOVEMENT_KINDS.map((k) => format(d[k])),
          format(netMovement(d)),
        ]),
      }}
    >
      <XYChart
        width={width}
        height={height}
        margin={XY_MARGIN}
        xScale={BAND_X_SCALE}
        yScale={Y_SCALE}
        theme={theme}
        accessibilityLabel={title}
        pointerEventsDataKey="nearest"
        onPointerMove={({ index }) => active.setPointerIndex(index)}
        onPointerOut={() => active.setPointerIndex(null)}
        onPointerUp={({ index, key }) => {
          // A stacked bar's datum here is the stack's [from, to] pair, not the bucket: the bucket
          // comes from the index, which every movement series shares with `data`.
          const kind = MOVEMENT_KINDS.find((k) => k === key);
          const bucket = data[index];
          if (kind && bucket && onSelect) onSelect({ date: bucket.date, kind });
        }}
      >
        <Grid columns={false} numTicks={5} />
        <BarStack offset="diverging">
          {MOVEMENT_KINDS.map((k) => (
            <BarSeries
              key={k}
              dataKey={k}
              data={data as MovementBucket[]}
              xAccessor={date}
              yAccessor={signed(k)}
              colorAccessor={() => MOVEMENT_COLORS[k]}
            />
          ))}
        </BarStack>
        <LineSeries
          dataKey="net"
          data={data as MovementBucket[]}
          xAccessor={date}
          yAccessor={netMovement}
          stroke={SERIES_COLORS.total}
        />
        <Axis
          orientation="bottom"
          tickValues={thinTicks(categories, geometry.plotWidth)}
          tickFormat={interval === 'month' ? monthTick : formatDayTick}
        />
        <Axis
          orientation="left"
          numTicks={5}
          tickFormat={(v: number) => formatAxisValue(v, 'currency', currency)}
        />
      </XYChart>
    </ChartFrame>
  );
}
