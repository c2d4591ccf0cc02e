import { useMemo } from 'react';
import { Group } from '@visx/group';
import { Pie } from '@visx/shape';
import {
  ChartFrame,
  formatFullValue,
  seriesColor,
  useActiveIndex,
  type ChartStatus,
  type ValueKind,
} from '../ChartFrame';
import { ChartLegend } from '../ChartLegend';

/** Props of {@link PieChart}. */
export interface PieChartProps<D extends object> {
  /** Title and accessible name (§2 'Active subscriptions by provider'…). */
  title: string;
  width: number;
  /** Height in px (default 320; §2: 320–360). */
  height?: number;
  /** The slices, in display order (largest first reads best). */
  data: readonly D[];
  /** The slice's key (a normalised provider or plan name), also its colour's key. */
  nameAccessor: (d: D) => string;
  /** The slice's display label (default: the name). */
  labelAccessor?: (d: D) => string;
  /** The slice's value: a count or cents; negative values count as 0. */
  valueAccessor: (d: D) => number;
  valueKind?: ValueKind;
  currency?: string;
  status?: ChartStatus;
  headingLevel?: 2 | 3;
}

const TAU = Math.PI * 2;

function percent(value: number, total: number): string {
  return total > 0 ? `${((value / total) * 100).toFixed(1)}%` : '0.0%';
}

/**
 * A pie (@visx/shape Pie) with a legend giving each slice's value and share; the slices are
 * reachable by keyboard like any chart's data, and listed in a data table.
 */
export function PieChart<D extends object>({
  title,
  width,
  height = 320,
  data,
  nameAccessor,
  labelAccessor = nameAccessor,
  valueAccessor,
  valueKind = 'count',
  currency = 'USD',
  status = 'ready',
  headingLevel,
}: PieChartProps<D>) {
  const value = (d: D) => Math.max(0, valueAccessor(d) || 0);
  const total = data.reduce((sum, d) => sum + value(d), 0);
  const active = useActiveIndex(data.length);
  const radius = Math.max(0, Math.min(width, height) / 2 - 8);
  const cx = width / 2;
  const cy = height / 2;
  const colors = useMemo(
    () => data.map((d, i) => seriesColor(nameAccessor(d), i)),
    [data, nameAccessor],
  );
  // Slice mid-angles in data order (the Pie below is unsorted), for the tooltip anchors.
  const midAngles = useMemo(() => {
    const angles: number[] = [];
    let start = 0;
    for (const d of data) {
      const sweep = total > 0 ? (Math.max(0, valueAccessor(d) || 0) / total) * TAU : 0;
      angles.push(start + sweep / 2);
      start += sweep;
    }
    return angles;
  }, [data, total, valueAccessor]);
  const full = (v: number) => formatFullValue(v, valueKind, currency);

  return (
    <ChartFrame
      title={title}
      headingLevel={headingLevel}
      status={total === 0 && status === 'ready' ? 'empty' : status}
      width={width}
      height={height}
      legend={
        <ChartLegend
          items={data.map((d, i) => ({
            key: `${nameAccessor(d)}-${i}`,
            label: labelAccessor(d),
            color: colors[i]!,
            value: `${full(value(d))} · ${percent(value(d), total)}`,
          }))}
        />
      }
      active={active}
      count={data.length}
      anchor={(index) => {
        const angle = midAngles[index] ?? 0;
        return { x: cx + Math.sin(angle) * radius * 0.6, y: cy - Math.cos(angle) * radius * 0.6 };
      }}
      describe={(index) => {
        const d = data[index]!;
        return {
          heading: labelAccessor(d),
          lines: [
            { label: percent(value(d), total), value: full(value(d)), color: colors[index]! },
          ],
        };
      }}
      table={{
        headers: ['Name', valueKind === 'currency' ? 'Amount' : 'Count', 'Share'],
        rows: data.map((d) => [labelAccessor(d), full(value(d)), percent(value(d), total)]),
      }}
    >
      <svg width={width} height={height} role="img" aria-label={title}>
        <Group top={cy} left={cx}>
          <Pie
            data={data as D[]}
            pieValue={value}
            outerRadius={radius}
            pieSort={null}
            pieSortValues={null}
          >
            {(pie) =>
              pie.arcs.map((arc, index) => (
                <path
                  key={`${nameAccessor(arc.data)}-${index}`}
                  d={pie.path(arc) ?? undefined}
                  fill={colors[index]}
                  stroke="#ffffff"
                  strokeWidth={1.5}
                  opacity={active.index === null || active.index === index ? 1 : 0.55}
                  onPointerMove={() => active.setPointerIndex(index)}
                  onPointerLeave={() => active.setPointerIndex(null)}
                />
              ))
            }
          </Pie>
        </Group>
      </svg>
    </ChartFrame>
  );
}
