/**
 * Normalisers for the dashboard stats (§3 Stats, §5 dashboard money) and the maintenance-area
 * admin stats (§3 Admin stats). Pure and total: any JSON value gives a complete shape, never a
 * throw, so a backend that sends other spellings still fills the dashboard.
 */
import { normaliseCurrency } from './format';
import type { DashboardStats } from './types';

/** A JSON-ish object with unknown values; anything else reads as empty. */
type Bag = Record<string, unknown>;

function asBag(raw: unknown): Bag {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Bag) : {};
}

/** -0 → 0, non-finite → fallback. Keeps equality checks and formatting free of surprises. */
function clean(value: number, fallback = 0): number {
  return Number.isFinite(value) ? value + 0 : fallback;
}

/**
 * A finite number from a JSON value: numbers as is, numeric strings ('1234', ' 12.5 ') parsed.
 * Booleans, blanks, objects and non-finite values give null.
 */
export function readNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!text) return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The first alias (in the given order) whose value reads as a number, with its key. */
function pick(bag: Bag, aliases: readonly string[]): { key: string; value: number } | null {
  for (const key of aliases) {
    if (!Object.prototype.hasOwnProperty.call(bag, key)) continue;
    const value = readNumber(bag[key]);
    if (value !== null) return { key, value };
  }
  return null;
}

/**
 * A reported figure, unless it is missing or a 0 its parts contradict: then the figure derived
 * from them (§3, §5 Dashboard fallbacks). ARR 0 with MRR 1000 → 12 × 1000; active total 0 with
 * monthly 3 + yearly 2 → 5; a real 0 (both sides 0) stays 0. Non-finite results give 0.
 */
export function reportedOrDerived(reported: number | null, derived: number): number {
  const fallback = clean(derived);
  if (reported === null) return fallback;
  return reported === 0 && fallback !== 0 ? fallback : reported;
}

/** Whether a field name says its value is in cents (mrr_cents, totalRevenueCents). */
function isCentsNamed(key: string): boolean {
  return /cents$/i.test(key);
}

/**
 * A dashboard money value in integer cents, by the §5 rule: a cents-named field is cents; any
 * other field holding a whole number with |value| ≥ 1000 is taken to be cents too (divided by
 * 100 for display); any other value is in currency units and multiplied by 100.
 * Examples: {mrr_cents: 500} → 500; {mrr: 123456} → 123456; {mrr: 12.5} → 1250; {mrr: 500} → 50000.
 */
export function moneyToCents(key: string, value: number): number {
  if (isCentsNamed(key)) return clean(Math.round(value));
  if (Number.isInteger(value) && Math.abs(value) >= 1000) return clean(value);
  return clean(Math.round(value * 100));
}

function money(bag: Bag, aliases: readonly string[]): number | null {
  const found = pick(bag, aliases);
  return found ? moneyToCents(found.key, found.value) : null;
}

function count(bag: Bag, aliases: readonly string[]): number | null {
  const found = pick(bag, aliases);
  return found ? clean(Math.round(found.value)) : null;
}

/** Accepted spellings per dashboard field (§3), in order of preference. */
export const STATS_ALIASES = {
  mrr: ['mrr_cents', 'mrrCents', 'mrr'],
  arr: ['arr_cents', 'arrCents', 'arr'],
  activeMonthly: [
    'activeMonthly',
    'active_monthly',
    'monthlyActive',
    'monthly_active',
    'activeMonthlySubscribers',
    'active_monthly_subscribers',
  ],
  activeYearly: [
    'activeYearly',
    'active_yearly',
    'yearlyActive',
    'yearly_active',
    'activeYearlySubscribers',
    'active_yearly_subscribers',
  ],
  activeTotal: [
    'activeSubscribers',
    'active_subscribers',
    'activeTotal',
    'active_total',
    'totalActive',
    'total_active',
    'active',
  ],
  scheduledCancellations: [
    'scheduledCancellations',
    'scheduled_cancellations',
    'revokeDeferredCount',
    'revoke_deferred_count',
  ],
  avgDaysRemaining: [
    'avgDaysRemaining',
    'avg_days_remaining',
    'averageDaysRemaining',
    'average_days_remaining',
  ],
  newToday: ['newToday', 'new_today'],
  renewalsToday: ['renewalsToday', 'renewals_today'],
  cancellationsToday: [
    'cancellationsToday',
    'cancellations_today',
    'cancelsToday',
    'cancels_today',
  ],
  totalSubscribers: ['totalSubscribers', 'total_subscribers'],
  totalRevenue: ['totalRevenueCents', 'total_revenue_cents', 'totalRevenue', 'total_revenue'],
} as const satisfies Record<string, readonly string[]>;

/**
 * GET /stats answer → DashboardStats (§3, §5). Interpretation:
 * - each field takes the first alias of STATS_ALIASES that holds a number or numeric string;
 *   cents-named aliases come first, so `mrr_cents` wins over `mrr` when both are sent;
 * - money (MRR, ARR, total revenue) is converted to integer cents by `moneyToCents` (§5 rule);
 * - ARR missing or 0 with a non-zero MRR → 12 × MRR; active total missing or 0 with a non-zero
 *   monthly + yearly → their sum (§3, §5; reportedOrDerived);
 * - counts are rounded to whole numbers; missing counts and money are 0;
 * - avgDaysRemaining stays fractional, null when missing (the card shows a dash);
 * - currency is an upper-case ISO code, 'USD' when missing or malformed (§1).
 * Never throws: a non-object (array, null, string…) gives the all-zero shape.
 */
export function normaliseStats(raw: unknown): DashboardStats {
  const bag = asBag(raw);
  const a = STATS_ALIASES;
  const mrrCents = money(bag, a.mrr) ?? 0;
  const activeMonthly = count(bag, a.activeMonthly) ?? 0;
  const activeYearly = count(bag, a.activeYearly) ?? 0;
  const avg = pick(bag, a.avgDaysRemaining);
  return {
    currency: normaliseCurrency(typeof bag.currency === 'string' ? bag.currency : null),
    mrrCents,
    arrCents: reportedOrDerived(money(bag, a.arr), mrrCents * 12),
    activeTotal: reportedOrDerived(count(bag, a.activeTotal), activeMonthly + activeYearly),
    activeMonthly,
    activeYearly,
    scheduledCancellations: count(bag, a.scheduledCancellations) ?? 0,
    avgDaysRemaining: avg ? clean(avg.value) : null,
    newToday: count(bag, a.newToday) ?? 0,
    renewalsToday: count(bag, a.renewalsToday) ?? 0,
    cancellationsToday: count(bag, a.cancellationsToday) ?? 0,
    totalSubscribers: count(bag, a.totalSubscribers) ?? 0,
    totalRevenueCents: money(bag, a.totalRevenue) ?? 0,
  };
}

/** The maintenance area's admin stats (§3 Admin stats, GET /status), normalised. Money in cents. */
export interface AdminStats {
  /** Whether the server reached its database; null when not reported. */
  dbOk: boolean | null;
  activeTotal: number;
  activeMonthly: number;
  activeYearly: number;
  scheduledCancellations: number;
  avgDaysRemaining: number | null;
  mrrCents: number;
  arrCents: number;
  /** Users whose cancelled access is due to be expired by the expiration run. */
  pendingExpire: number;
  webhookDedupRows: number;
}

function readBool(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return null;
}

/**
 * GET /status answer → AdminStats (§3). mrr/arr are integer cents as docs/api.md pins them
 * (`mrr_cents`/`arr_cents` accepted too); ARR missing or 0 → 12 × MRR; active_total missing or 0 →
 * `active`, else monthly + yearly (the dashboard's fallbacks, reportedOrDerived). Never throws; non-objects give zeros with dbOk null.
 */
export function normaliseAdminStats(raw: unknown): AdminStats {
  const bag = asBag(raw);
  const activeMonthly = count(bag, ['active_monthly', 'activeMonthly']) ?? 0;
  const activeYearly = count(bag, ['active_yearly', 'activeYearly']) ?? 0;
  const mrrCents = count(bag, ['mrr_cents', 'mrr']) ?? 0;
  const avg = pick(bag, ['avg_days_remaining', 'avgDaysRemaining']);
  return {
    dbOk: readBool(bag.db_ok ?? bag.dbOk),
    activeTotal: reportedOrDerived(
      count(bag, ['active_total', 'activeTotal', 'active']),
      activeMonthly + activeYearly,
    ),
    activeMonthly,
    activeYearly,
    scheduledCancellations: count(bag, ['scheduled_cancellations', 'scheduledCancellations']) ?? 0,
    avgDaysRemaining: avg ? clean(avg.value) : null,
    mrrCents,
    arrCents: reportedOrDerived(count(bag, ['arr_cents', 'arr']), mrrCents * 12),
    pendingExpire: count(bag, ['pending_expire', 'pendingExpire']) ?? 0,
    webhookDedupRows: count(bag, ['webhook_dedup_rows', 'webhookDedupRows']) ?? 0,
  };
}
