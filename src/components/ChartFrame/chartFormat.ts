/**
 * How chart values read on axes, in tooltips and in the data tables (§9: currency with two
 * decimals for ISR amounts, compact k/M on axes and in the affiliate list, whole counts).
 */
import {
  formatCompactCount,
  formatCompactCurrency,
  formatCount,
  formatCurrency,
  parseUtc,
} from '../../domain/format';

/** What a chart's values are: counts, or money in integer cents. */
export type ValueKind = 'count' | 'currency';

/** An axis tick: compact k/M ('1.2k', '$12.3k'). */
export function formatAxisValue(value: number, kind: ValueKind, currency = 'USD'): string {
  return kind === 'currency' ? formatCompactCurrency(value, currency) : formatCompactCount(value);
}

/** A tooltip or table value in full: '1,234' or '$1,234.56'. */
export function formatFullValue(value: number, kind: ValueKind, currency = 'USD'): string {
  return kind === 'currency' ? formatCurrency(value, currency, 2) : formatCount(value);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A UTC day 'YYYY-MM-DD' as an axis tick: 'Nov 20'; anything else as given. */
export function formatDayTick(day: string): string {
  const d = parseUtc(day);
  return d ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}` : day;
}

/**
 * Which categories get an axis tick so labels never collide: every k-th, with about one label
 * per `minSpacingPx` of plot width.
 */
export function thinTicks<T>(values: readonly T[], plotWidth: number, minSpacingPx = 72): T[] {
  const max = Math.max(1, Math.floor(plotWidth / minSpacingPx));
  const step = Math.max(1, Math.ceil(values.length / max));
  return values.filter((_, index) => index % step === 0);
}
