/**
 * Revenue analytics (docs/metrics.md; docs/api.md "Revenue"): the Revenue screen's filters and
 * their URL form, the figures' inside shapes, and the comparison with the previous equal period.
 * Pure and total. Days are UTC 'YYYY-MM-DD'; money is integer cents of the reporting currency;
 * rates are fractions.
 */
import {
  addUtcDays,
  DEFAULT_PERIOD,
  isDay,
  isPeriodPreset,
  periodRange,
  type DayRange,
  type PeriodPreset,
} from './metrics';

/** The five MRR movements, in the order bars stack and the rounding walks (docs/metrics.md). */
export const MOVEMENT_KINDS = ['new', 'expansion', 'reactivation', 'contraction', 'churn'] as const;
/** One MRR movement. */
export type MovementKind = (typeof MOVEMENT_KINDS)[number];
/** Movements that lower MRR, drawn below zero. */
export const LOSS_KINDS: readonly MovementKind[] = ['contraction', 'churn'];
/** Display names of the movements. */
export const MOVEMENT_LABELS: Readonly<Record<MovementKind, string>> = {
  new: 'New',
  expansion: 'Expansion',
  reactivation: 'Reactivation',
  contraction: 'Contraction',
  churn: 'Churn',
};

/** Provider, cadence and interval choices ('' = all / automatic). */
export const REVENUE_PROVIDERS = ['', 'lemonsqueezy', 'clickbank'] as const;
export const REVENUE_CADENCES = ['', 'monthly', 'yearly'] as const;
export const REVENUE_INTERVALS = ['', 'day', 'month'] as const;

/** The Revenue screen's filters, as the URL keeps them. */
export interface RevenueFilters {
  /** One of the Metrics screen's 14 presets. */
  period: PeriodPreset;
  /** Manual from/to (UTC days) of the custom period. */
  customFrom: string;
  customTo: string;
  provider: (typeof REVENUE_PROVIDERS)[number];
  /** Free text, case-insensitive exact. */
  plan: string;
  cadence: (typeof REVENUE_CADENCES)[number];
  /** Bucket size; '' lets the server choose (days up to 92 days, else months). */
  interval: (typeof REVENUE_INTERVALS)[number];
}

/** The defaults: the Metrics screen's default period, nothing filtered, automatic buckets. */
export const DEFAULT_REVENUE_FILTERS: Readonly<RevenueFilters> = Object.freeze({
  period: DEFAULT_PERIOD,
  customFrom: '',
  customTo: '',
  provider: '',
  plan: '',
  cadence: '',
  interval: '',
});

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Reads the filters from the address (period, from, to, provider, plan, cadence, interval); never throws. */
export function revenueFiltersFromSearch(search: URLSearchParams): RevenueFilters {
  const get = (key: string) => search.get(key);
  const period = isPeriodPreset(get('period')) ? (get('period') as PeriodPreset) : DEFAULT_PERIOD;
  return {
    period,
    customFrom: period === 'custom' && isDay(get('from')) ? (get('from') as string) : '',
    customTo: period === 'custom' && isDay(get('to')) ? (get('to') as string) : '',
    provider: oneOf(REVENUE_PROVIDERS, get('provider'), ''),
    plan: get('plan') ?? '',
    cadence: oneOf(REVENUE_CADENCES, get('cadence'), ''),
    interval: oneOf(REVENUE_INTERVALS, get('interval'), ''),
  };
}

/** The filters as query parameters; defaults and blanks left out. */
export function revenueFiltersToSearch(f: RevenueFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.period !== DEFAULT_PERIOD) out.period = f.period;
  if (f.period === 'custom') {
    if (f.customFrom) out.from = f.customFrom;
    if (f.customTo) out.to = f.customTo;
  }
  if (f.provider) out.provider = f.provider;
  if (f.plan) out.plan = f.plan;
  if (f.cadence) out.cadence = f.cadence;
  if (f.interval) out.interval = f.interval;
  return out;
}

/**
 * The filters after the Period select chose `period`: as on the Metrics screen, switching to
 * custom starts from `shown`, the range on screen; any other choice changes only the preset.
 */
export function chooseRevenuePeriod(
  filters: RevenueFilters,
  period: PeriodPreset,
  shown: DayRange,
): RevenueFilters {
  if (period !== 'custom' || filters.period === 'custom') return { ...filters, period };
  return { ...filters, period, customFrom: shown.from, customTo: shown.to };
}

/** GET /metrics/revenue query: UTC days and filters ('' = none). */
export interface RevenueQuery {
  from: string;
  to: string;
  interval: string;
  provider: string;
  plan: string;
  cadence: string;
}

/** The longest range the server answers, in days ('All time' reaches back this far). */
export const REVENUE_MAX_DAYS = 3660;

/** The query for the filters on `now`'s UTC day. */
export function revenueQueryFromFilters(f: RevenueFilters, now: Date): RevenueQuery {
  const range = periodRange(f.period, now, { from: f.customFrom, to: f.customTo });
  return {
    from: range.from || (f.period === 'all' ? addUtcDays(now, -(REVENUE_MAX_DAYS - 1)) : ''),
    to: range.to,
    interval: f.interval,
    provider: f.provider,
    plan: f.plan.trim(),
    cadence: f.cadence,
  };
}

/**
 * The equal period just before `range` (both ends inclusive UTC days): e.g. 2026-11-01..2026-11-20
 * → 2026-10-12..2026-10-31. Null when the range is open or not two days.
 */
export function previousRange(range: DayRange): DayRange | null {
  if (!isDay(range.from) || !isDay(range.to)) return null;
  const from = new Date(`${range.from}T00:00:00Z`);
  const to = new Date(`${range.to}T00:00:00Z`);
  const days = Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1;
  if (days < 1) return null;
  return { from: addUtcDays(from, -days), to: addUtcDays(from, -1) };
}

/** One bucket of movements, cents ≥ 0. */
export interface MovementBucket {
  /** First day of the bucket (UTC). */
  date: string;
  new: number;
  expansion: number;
  reactivation: number;
  contraction: number;
  churn: number;
}

/** Net new MRR of a bucket: new + expansion + reactivation − contraction − churn, cents. */
export function netMovement(m: MovementBucket): number {
  return m.new + m.expansion + m.reactivation - m.contraction - m.churn;
}

/** GET /metrics/revenue, normalised. */
export interface RevenueOverview {
  currency: string;
  interval: 'day' | 'month';
  from: string;
  to: string;
  mrrStartCents: number;
  mrrEndCents: number;
  movements: MovementBucket[];
  /** MRR at the end of each bucket. */
  mrrSeries: Array<{ date: string; mrrCents: number }>;
  customersStart: number;
  customersEnd: number;
  customersChurned: number;
  customerChurnRate: number | null;
  mrrChurnRate: number | null;
  nrr: number | null;
  quickRatio: number | null;
  arpaCents: number | null;
  ltvCents: number | null;
  mrrByProvider: Array<{ name: string; mrrCents: number }>;
  mrrByPlan: Array<{ name: string; mrrCents: number }>;
}

/** True when nothing recurred and nothing moved in the range. */
export function isRevenueEmpty(r: RevenueOverview): boolean {
  return (
    r.mrrStartCents === 0 && r.mrrEndCents === 0 && r.movements.every((m) => netMovement(m) === 0)
  );
}

/** One cohort: customers by the month of their first subscription. */
export interface Cohort {
  /** 'YYYY-MM' (UTC). */
  cohort: string;
  customers: number;
  /** Starting MRR, cents. */
  mrrCents: number;
  /** % of customers recurring at the end of month k (one decimal). */
  logo: number[];
  /** % of starting MRR recurring at the end of month k; null when it cannot be said. */
  revenue: Array<number | null>;
}

/** One subscription change behind a movement bar. */
export interface MovementSubscription {
  subscriptionId: number;
  email: string;
  provider: string;
  plan: string;
  cadence: string;
  /** ISO instant (UTC). */
  at: string;
  kind: MovementKind;
  /** Signed change of MRR in cents of the reporting currency; null without a rate. */
  deltaCents: number | null;
}

/** The bar an operator opened: its bucket and movement. */
export interface MovementSelection {
  date: string;
  kind: MovementKind;
}

/** A card's comparison with the previous equal period. */
export interface Comparison {
  direction: 'up' | 'down' | 'flat';
  /** |change| ÷ |previous|, a fraction; null when the previous figure is 0 or missing. */
  change: number | null;
}

/** Compares a figure with the previous period's (null when either is missing). */
export function compare(current: number | null, previous: number | null): Comparison | null {
  if (current == null || previous == null) return null;
  const direction = current > previous ? 'up' : current < previous ? 'down' : 'flat';
  return {
    direction,
    change: previous === 0 ? null : Math.abs(current - previous) / Math.abs(previous),
  };
}
