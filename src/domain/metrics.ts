/**
 * Subscription metrics rules (spec §2 Metrics, §3 Metrics response, §4 period presets, §5 provider
 * normalisation and series summing). Pure and total: every function accepts any JSON and answers a
 * well-formed value rather than throwing. Days are UTC 'YYYY-MM-DD'; money is integer cents.
 */
import { readNumber } from './stats';

/* ------------------------------------------------------------------------------------------ */
/* §4 period presets                                                                            */
/* ------------------------------------------------------------------------------------------ */

/** The 14 period choices of the Metrics screen (§2 Period select, §4 presets), in display order. */
export const PERIOD_PRESETS = [
  'today',
  'yesterday',
  '7d',
  '14d',
  '28d',
  '30d',
  '60d',
  '90d',
  '180d',
  '270d',
  'ytd',
  'last_year',
  'all',
  'custom',
] as const;

/** One period choice (§4). */
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** §9: the default metrics period is 28 days. */
export const DEFAULT_PERIOD: PeriodPreset = '28d';

/** The Period select's labels (§2: "180 (6 months)", "this year (YTD)"…). */
export const PERIOD_LABELS: Readonly<Record<PeriodPreset, string>> = {
  today: 'Today',
  yesterday: 'Yesterday',
  '7d': 'Last 7 days',
  '14d': 'Last 14 days',
  '28d': 'Last 28 days',
  '30d': 'Last 30 days',
  '60d': 'Last 60 days',
  '90d': 'Last 90 days',
  '180d': 'Last 180 days (6 months)',
  '270d': 'Last 270 days (9 months)',
  ytd: 'This year (YTD)',
  last_year: 'Last year',
  all: 'All time',
  custom: 'Custom range',
};

/** Days before today each rolling preset starts (§4: "7d = today minus 6 days through today"). */
const ROLLING_DAYS_BACK: Partial<Record<PeriodPreset, number>> = {
  '7d': 6,
  '14d': 13,
  '28d': 27,
  '30d': 29,
  '60d': 59,
  '90d': 89,
  '180d': 179,
  '270d': 269,
};

/** A date range in UTC days: 'YYYY-MM-DD', or '' for an open end. */
export interface DayRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A Date's UTC calendar day as 'YYYY-MM-DD'. */
export function utcDay(date: Date): string {
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The UTC day `days` days after (negative: before) `date`'s UTC day, as 'YYYY-MM-DD'. */
export function addUtcDays(date: Date, days: number): string {
  return utcDay(
    new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days)),
  );
}

/** True for a real calendar day 'YYYY-MM-DD' (2026-02-30 is not). */
export function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && utcDay(d) === value;
}

/** True when `value` names one of the 14 presets. */
export function isPeriodPreset(value: unknown): value is PeriodPreset {
  return typeof value === 'string' && (PERIOD_PRESETS as readonly string[]).includes(value);
}

/**
 * The from/to of a period preset, computed from `now`'s UTC day (§4):
 * today = today..today; yesterday = yesterday..yesterday; Nd = today − (N−1) days..today;
 * ytd = Jan 1..today; last_year = Jan 1..Dec 31 of the prior year; all = only a to date (from '');
 * custom = the manual dates as given (invalid ones become '').
 */
export function periodRange(
  preset: PeriodPreset,
  now: Date,
  manual: DayRange = { from: '', to: '' },
): DayRange {
  const today = utcDay(now);
  const year = now.getUTCFullYear();
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addUtcDays(now, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'ytd':
      return { from: `${String(year).padStart(4, '0')}-01-01`, to: today };
    case 'last_year': {
      const last = String(year - 1).padStart(4, '0');
      return { from: `${last}-01-01`, to: `${last}-12-31` };
    }
    case 'all':
      return { from: '', to: today };
    case 'custom':
      return { from: isDay(manual.from) ? manual.from : '', to: isDay(manual.to) ? manual.to : '' };
    default:
      return { from: addUtcDays(now, -(ROLLING_DAYS_BACK[preset] ?? 27)), to: today };
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Metrics filters (§2) and their URL form                                                      */
/* ------------------------------------------------------------------------------------------ */

/** §2 provider filter values ('' = all). */
export const METRICS_PROVIDERS = ['', 'lemonsqueezy', 'clickbank'] as const;
/** §2 status filter values ('' = any). */
export const METRICS_STATUSES = ['', 'active', 'cancelled', 'expired'] as const;
/** §2 type filter values ('' = any). */
export const METRICS_TYPES = ['', 'new', 'renewal'] as const;
/** §2 bar display mode: stacked (default) or grouped side by side. */
export type BarMode = 'stacked' | 'grouped';

/** The Metrics screen's filters (§2). Text filters are raw input; trimmed when sent (§5). */
export interface MetricsFilters {
  period: PeriodPreset;
  /** Manual from/to 'YYYY-MM-DD' (UTC), used only by the custom period. */
  customFrom: string;
  customTo: string;
  provider: (typeof METRICS_PROVIDERS)[number];
  status: (typeof METRICS_STATUSES)[number];
  type: (typeof METRICS_TYPES)[number];
  plan: string;
  source: string;
  barMode: BarMode;
}

/** The defaults: last 28 days, everything else any, stacked bars (§2, §9). */
export const DEFAULT_METRICS_FILTERS: Readonly<MetricsFilters> = Object.freeze({
  period: DEFAULT_PERIOD,
  customFrom: '',
  customTo: '',
  provider: '',
  status: '',
  type: '',
  plan: '',
  source: '',
  barMode: 'stacked',
});

/** GET /metrics/overview query (§7 notes; CONTRACT.md): UTC days and filters, '' = any. */
export interface MetricsQuery {
  from: string;
  to: string;
  provider: string;
  status: string;
  type: string;
  plan: string;
  source: string;
}

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/**
 * Reads the filters from the address's query (keys period, from, to, provider, status, type,
 * plan, source, bars). Unknown or malformed values fall back to the defaults; never throws.
 */
export function metricsFiltersFromSearch(search: URLSearchParams): MetricsFilters {
  const get = (key: string) => search.get(key);
  const period = isPeriodPreset(get('period')) ? (get('period') as PeriodPreset) : DEFAULT_PERIOD;
  return {
    period,
    customFrom: period === 'custom' && isDay(get('from')) ? (get('from') as string) : '',
    customTo: period === 'custom' && isDay(get('to')) ? (get('to') as string) : '',
    provider: oneOf(METRICS_PROVIDERS, get('provider'), ''),
    status: oneOf(METRICS_STATUSES, get('status'), ''),
    type: oneOf(METRICS_TYPES, get('type'), ''),
    plan: get('plan') ?? '',
    source: get('source') ?? '',
    barMode: get('bars') === 'grouped' ? 'grouped' : 'stacked',
  };
}

/** The filters as a query string's parameters; defaults and blanks are left out (short URLs). */
export function metricsFiltersToSearch(filters: MetricsFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (filters.period !== DEFAULT_PERIOD) out.period = filters.period;
  if (filters.period === 'custom') {
    if (filters.customFrom) out.from = filters.customFrom;
    if (filters.customTo) out.to = filters.customTo;
  }
  if (filters.provider) out.provider = filters.provider;
  if (filters.status) out.status = filters.status;
  if (filters.type) out.type = filters.type;
  if (filters.plan) out.plan = filters.plan;
  if (filters.source) out.source = filters.source;
  if (filters.barMode === 'grouped') out.bars = 'grouped';
  return out;
}

/**
 * The filters after the Period select chose `period` (§4: a preset recomputes from/to, custom
 * keeps the manual dates). Switching to custom starts from `shown`, the range on screen, so the
 * date inputs, the URL and the request keep those days instead of going blank; any other choice
 * only changes the preset (its range is computed from today).
 */
export function choosePeriod(
  filters: MetricsFilters,
  period: PeriodPreset,
  shown: DayRange,
): MetricsFilters {
  if (period !== 'custom' || filters.period === 'custom') return { ...filters, period };
  return { ...filters, period, customFrom: shown.from, customTo: shown.to };
}

/** The GET /metrics/overview query for the filters on `now`'s UTC day (text trimmed, §5). */
export function metricsQueryFromFilters(filters: MetricsFilters, now: Date): MetricsQuery {
  const range = periodRange(filters.period, now, {
    from: filters.customFrom,
    to: filters.customTo,
  });
  return {
    from: range.from,
    to: range.to,
    provider: filters.provider,
    status: filters.status,
    type: filters.type,
    plan: filters.plan.trim(),
    source: filters.source.trim(),
  };
}

/**
 * The ISR summary range of the Metrics page (§5): from gets ' 00:00:00' and to ' 23:59:59';
 * an open end stays ''. e.g. {from:'2026-10-24', to:'2026-11-20'} →
 * {from:'2026-10-24 00:00:00', to:'2026-11-20 23:59:59'}.
 */
export function metricsIsrSummaryRange(range: DayRange): DayRange {
  return {
    from: range.from ? `${range.from} 00:00:00` : '',
    to: range.to ? `${range.to} 23:59:59` : '',
  };
}

/* ------------------------------------------------------------------------------------------ */
/* §5 provider names                                                                            */
/* ------------------------------------------------------------------------------------------ */

/** The two known providers, in the order charts show them. */
export const KNOWN_PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** A misspelt LemonSqueezy: starts with "lemon", mentions "squeez"/"squez", or is ≤ 2 edits away. */
function isLemonSqueezyLike(letters: string): boolean {
  return (
    letters.startsWith('lemon') ||
    letters.includes('squeez') ||
    letters.includes('squez') ||
    (letters.length >= 8 && editDistance(letters, 'lemonsqueezy') <= 2)
  );
}

/**
 * §5 provider-name normalisation: lowercased, letters only; 'cb'/'clickbank' → 'clickbank';
 * 'ls', 'lemonsqueezy' and its misspellings ('Lemon Squeezy', 'lemonsquezy') → 'lemonsqueezy';
 * other names keep their letters ('Stripe-2' → 'stripe'); blank, no letters or not a string →
 * 'unknown'.
 */
export function normaliseProviderName(raw: unknown): string {
  if (typeof raw !== 'string') return 'unknown';
  const letters = raw.toLowerCase().replace(/[^a-z]/g, '');
  if (!letters) return 'unknown';
  if (letters === 'cb' || letters === 'clickbank') return 'clickbank';
  if (letters === 'ls' || letters === 'lemonsqueezy' || isLemonSqueezyLike(letters))
    return 'lemonsqueezy';
  return letters;
}

/** Display name of a normalised provider: 'LemonSqueezy', 'ClickBank', else the name itself. */
export function providerLabel(provider: string): string {
  if (provider === 'lemonsqueezy') return 'LemonSqueezy';
  if (provider === 'clickbank') return 'ClickBank';
  return provider;
}

/** Providers in chart order: the two known first, then the others alphabetically ('unknown' last). */
export function orderProviders(providers: Iterable<string>): string[] {
  const set = new Set(providers);
  const known = KNOWN_PROVIDERS.filter((p) => set.has(p));
  const others = [...set]
    .filter((p) => !(KNOWN_PROVIDERS as readonly string[]).includes(p))
    .sort((a, b) => (a === 'unknown' ? 1 : b === 'unknown' ? -1 : a.localeCompare(b)));
  return [...known, ...others];
}

/* ------------------------------------------------------------------------------------------ */
/* §5 series-row summing                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** One day of a per-provider series after §5 summing. */
export interface ProviderDailyRow {
  /** UTC day 'YYYY-MM-DD' ('' when the row had none). */
  date: string;
  /** Per normalised provider: a count, or cents for amount series. */
  values: Record<string, number>;
  /** The row's own total (total / total_cents) or, when it has none, the sum of `values`. */
  total: number;
}

/** §5: a key that never holds a provider figure (date, total*, *_total, *sum*). */
export function isIgnoredSeriesKey(key: string): boolean {
  const k = key.toLowerCase();
  return (
    k === 'date' ||
    k === 'day' ||
    k.startsWith('total') ||
    k.endsWith('_total') ||
    k.includes('sum')
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Sorted own keys, so sums never depend on the order a backend wrote the keys in. */
function sortedKeys(bag: Record<string, unknown>): string[] {
  return Object.keys(bag).sort();
}

/** The sum of every number (or numeric string) in a value, nested objects and lists included. */
function nestedSum(value: unknown, depth = 0): number {
  if (depth > 8) return 0;
  const direct = readNumber(value);
  if (direct !== null) return direct;
  if (Array.isArray(value))
    return value.reduce<number>((sum, item) => sum + nestedSum(item, depth + 1), 0);
  if (!isPlainObject(value)) return 0;
  let sum = 0;
  for (const key of sortedKeys(value)) {
    if (isIgnoredSeriesKey(key)) continue;
    sum += nestedSum(value[key], depth + 1);
  }
  return sum;
}

/**
 * Sums one series row per provider (§5). Keys named date, starting with total, ending with _total
 * or containing sum are ignored; the other keys are provider names (normalised, so 'cb' and
 * 'clickbank' add up); a number nested in an object counts for its top-level key's provider. The
 * total is the row's `total_cents` (cents) or `total` (scaled by `scale`), else the provider sum.
 * `scale` turns the row's units into the wanted ones (100 for a dollars amount series → cents).
 */
export function sumSeriesRow(row: unknown, scale = 1): ProviderDailyRow {
  if (!isPlainObject(row)) return { date: '', values: {}, total: 0 };
  const values: Record<string, number> = {};
  for (const key of sortedKeys(row)) {
    if (isIgnoredSeriesKey(key)) continue;
    const raw = row[key];
    const direct = readNumber(raw);
    const sum = direct ?? (isPlainObject(raw) ? nestedSum(raw) : null);
    if (sum === null) continue;
    const provider = normaliseProviderName(key);
    values[provider] = (Object.hasOwn(values, provider) ? values[provider]! : 0) + sum;
  }
  // A figure too large to scale (±Infinity in cents) is no figure: summing two of them would
  // give NaN.
  for (const provider of Object.keys(values)) {
    const scaled = roundIfScaled(values[provider]! * scale, scale);
    if (Number.isFinite(scaled)) values[provider] = scaled;
    else delete values[provider];
  }
  const ownCents = readNumber(row.total_cents);
  const ownTotal = readNumber(row.total);
  const ownScaled = ownCents ?? (ownTotal === null ? null : roundIfScaled(ownTotal * scale, scale));
  const own = ownScaled !== null && Number.isFinite(ownScaled) ? ownScaled : null;
  const total =
    own ??
    Object.keys(values)
      .sort()
      .reduce((sum, p) => sum + values[p]!, 0);
  const rawDate =
    typeof row.date === 'string' ? row.date : typeof row.day === 'string' ? row.day : '';
  return { date: rawDate.slice(0, 10), values, total };
}

function roundIfScaled(value: number, scale: number): number {
  return scale === 1 ? value : Math.round(value);
}

/* ------------------------------------------------------------------------------------------ */
/* §3 Metrics response                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** §3: the accepted names of the amount series, in the specification's order (shown in §2's message). */
export const AMOUNT_SERIES_NAMES = [
  'byProviderDailyAmount',
  'byProviderDailyAmountCents',
  'amountByProviderDaily',
  'dailyAmountByProvider',
] as const;

/** The order an amount series is looked for: the unambiguous cents spelling first. */
const AMOUNT_SERIES_PREFERENCE = [
  'byProviderDailyAmountCents',
  'byProviderDailyAmount',
  'amountByProviderDaily',
  'dailyAmountByProvider',
] as const;

/** §3: the accepted names of the per-provider count series. */
export const COUNT_SERIES_NAMES = ['byProviderDaily', 'dailyByProvider'] as const;

/** §3 totals; null when the server leaves one out (the card shows a dash). */
export interface MetricsTotals {
  totalActive: number | null;
  totalNewInRange: number | null;
  totalRenewalsInRange: number | null;
  totalCancellationsInRange: number | null;
  /** A fraction: 0.0734 is 7.3 %. */
  churnRate: number | null;
  /** Integer cents (new + renewals). */
  estimatedRevenueCents: number | null;
}

/** One lineDaily row: the day's new, renewal and cancellation counts. */
export interface TrendDailyRow {
  date: string;
  new: number;
  renewals: number;
  cancellations: number;
}

/** A per-provider daily amount series, always in cents for the charts. */
export interface AmountSeries {
  /** The §3 name it was sent under. */
  name: (typeof AMOUNT_SERIES_NAMES)[number];
  /**
   * Whether the backend sent cents: true for byProviderDailyAmountCents or rows carrying
   * total_cents; otherwise the values were currency units and have been multiplied by 100.
   */
  sentInCents: boolean;
  /** Rows with values in cents. */
  rows: ProviderDailyRow[];
  /** Providers present, in chart order. */
  providers: string[];
}

/** A pie slice: a name and a count. */
export interface PieSlice {
  /** Normalised provider name, or the plan as sent ('unknown' when blank). */
  name: string;
  cnt: number;
}

/** §3 Metrics response, normalised for the screen. */
export interface MetricsOverview {
  range: { from: string | null; to: string | null };
  totals: MetricsTotals;
  lineDaily: TrendDailyRow[];
  /** byProviderDaily / dailyByProvider, summed per provider (§5). */
  byProviderDaily: ProviderDailyRow[];
  /** Providers of byProviderDaily, in chart order. */
  providers: string[];
  /** The amount series, or null when the answer has none of the accepted names (§2 message). */
  amountSeries: AmountSeries | null;
  pies: { activeByProvider: PieSlice[]; activeByPlan: PieSlice[] };
}

function objectList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function readCount(value: unknown): number | null {
  const n = readNumber(value);
  return n === null ? null : Math.round(n) + 0;
}

function readDay(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 10) : null;
}

/** Pie rows → slices: names normalised by `nameOf`, equal names merged, counts ≥ 0, largest first. */
function normalisePie(value: unknown, key: string, nameOf: (raw: unknown) => string): PieSlice[] {
  const merged = new Map<string, number>();
  for (const row of objectList(value)) {
    const name = nameOf(row[key]);
    const cnt = Math.max(0, readCount(row.cnt ?? row.count) ?? 0);
    merged.set(name, (merged.get(name) ?? 0) + cnt);
  }
  return [...merged]
    .map(([name, cnt]) => ({ name, cnt }))
    .sort((a, b) => b.cnt - a.cnt || a.name.localeCompare(b.name));
}

function planName(raw: unknown): string {
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return typeof raw === 'string' && raw.trim() ? raw.trim() : 'unknown';
}

function providersOf(rows: ProviderDailyRow[]): string[] {
  return orderProviders(rows.flatMap((row) => Object.keys(row.values)));
}

/**
 * Any GET /metrics/overview answer → MetricsOverview (§3, §5). Accepts every alias spelling
 * (byProviderDaily/dailyByProvider; the four amount-series names), normalises provider names
 * in series and pies, and never throws, whatever the JSON.
 */
export function normaliseMetricsOverview(raw: unknown): MetricsOverview {
  const root = isPlainObject(raw) ? raw : {};
  const range = isPlainObject(root.range) ? root.range : {};
  const totals = isPlainObject(root.totals) ? root.totals : {};
  const series = isPlainObject(root.series) ? root.series : {};
  const pies = isPlainObject(root.pies) ? root.pies : {};

  const countName = COUNT_SERIES_NAMES.find((name) => Array.isArray(series[name]));
  const byProviderDaily = objectList(countName ? series[countName] : undefined).map((row) =>
    sumSeriesRow(row),
  );

  const amountName = AMOUNT_SERIES_PREFERENCE.find((name) => Array.isArray(series[name]));
  let amountSeries: AmountSeries | null = null;
  if (amountName) {
    const rawRows = objectList(series[amountName]);
    const sentInCents =
      amountName === 'byProviderDailyAmountCents' ||
      (rawRows.length > 0 && rawRows.every((row) => readNumber(row.total_cents) !== null));
    const rows = rawRows.map((row) => sumSeriesRow(row, sentInCents ? 1 : 100));
    amountSeries = { name: amountName, sentInCents, rows, providers: providersOf(rows) };
  }

  return {
    range: { from: readDay(range.from), to: readDay(range.to) },
    totals: {
      totalActive: readCount(totals.totalActive),
      totalNewInRange: readCount(totals.totalNewInRange),
      totalRenewalsInRange: readCount(totals.totalRenewalsInRange),
      totalCancellationsInRange: readCount(totals.totalCancellationsInRange),
      churnRate: readNumber(totals.churnRate),
      estimatedRevenueCents: readCount(totals.estimatedRevenueCents),
    },
    lineDaily: objectList(series.lineDaily).map((row) => ({
      date: readDay(row.date ?? row.day) ?? '',
      new: readNumber(row.new) ?? 0,
      renewals: readNumber(row.renewals) ?? 0,
      cancellations: readNumber(row.cancellations) ?? 0,
    })),
    byProviderDaily,
    providers: providersOf(byProviderDaily),
    amountSeries,
    pies: {
      activeByProvider: normalisePie(pies.activeByProvider, 'provider', normaliseProviderName),
      activeByPlan: normalisePie(pies.activeByPlan, 'plan', planName),
    },
  };
}

/** True when the answer carries no day of data at all (the charts show their empty state). */
export function isMetricsEmpty(m: MetricsOverview): boolean {
  return (
    m.lineDaily.length === 0 &&
    m.byProviderDaily.length === 0 &&
    (m.amountSeries?.rows.length ?? 0) === 0
  );
}
