import type { ProviderDailyRow } from '../../domain/metrics';
import { providerLabel } from '../../domain/metrics';
import { seriesColor } from '../ChartFrame';

/** One drawn series of a daily chart: its key, label, colour and value accessor. */
export interface DailySeries<D> {
  key: string;
  label: string;
  color: string;
  /** The datum's value: a count, or cents for currency charts. */
  accessor: (d: D) => number;
}

/** The series of a per-provider daily chart, one per provider (§5 names), in the given order. */
export function providerSeries(providers: readonly string[]): DailySeries<ProviderDailyRow>[] {
  return providers.map((provider, index) => ({
    key: provider,
    label: providerLabel(provider),
    color: seriesColor(provider, index),
    accessor: (row) => (Object.hasOwn(row.values, provider) ? (row.values[provider] ?? 0) : 0),
  }));
}

/** The day of a per-provider row (the x accessor). */
export const rowDate = (row: ProviderDailyRow) => row.date;
/** The total of a per-provider row (the total line). */
export const rowTotal = (row: ProviderDailyRow) => row.total;
