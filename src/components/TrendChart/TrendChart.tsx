import { DailyXYChart, type DailyBarsChartProps } from '../DailyBarsChart/DailyBarsChart';

/** Props of {@link TrendChart}: a daily chart without a bar mode. */
export type TrendChartProps<D extends object> = Omit<DailyBarsChartProps<D>, 'mode'>;

/**
 * A multi-line daily trend: one line per series, plus an optional total line (§2 'Daily trend:
 * New vs Renewals vs Cancellations'; ISR 'daily events count' per provider plus total). Pure, no
 * animation, keyboard and pointer tooltips, a data table.
 */
export function TrendChart<D extends object>(props: TrendChartProps<D>) {
  return <DailyXYChart kind="lines" {...props} />;
}
