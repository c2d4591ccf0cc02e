/**
 * The parameters of the revenue endpoints (docs/api.md "Revenue"): a range of UTC days, the
 * bucket interval and the subscription filters, checked once for GET /metrics/revenue,
 * GET /metrics/revenue/movements/:date and GET /metrics/cohorts.
 */
import { z } from 'zod';
import { isSupportedInstant, unsupportedDateMessage } from '../access/params';
import { badRequest } from '../errors';
import { validate } from '../http/body';
import { choiceParam, textParam } from '../http/fields';
import { dayText, METRICS_MAX_RANGE_DAYS, parseDay } from '../routes/metrics';
import { CADENCES, PROVIDERS, type Cadence, type Provider } from '../vocabulary';

export const DAY_MS = 86_400_000;
/** Default range when neither from nor to is given: the last 12 whole months and this one (UTC). */
export const REVENUE_DEFAULT_MONTHS = 12;
/** Ranges up to this many days default to daily buckets, longer ones to monthly. */
export const REVENUE_DAILY_MAX_DAYS = 92;

/** The five movements, in the order the response and the cumulative rounding use. */
export const MOVEMENT_KINDS = ['new', 'expansion', 'reactivation', 'contraction', 'churn'] as const;
/** One of MOVEMENT_KINDS. */
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** Subscription filters: provider, plan (case-insensitive exact), cadence. */
export interface RevenueFilters {
  provider?: Provider;
  plan?: string;
  cadence?: Cadence;
}

/** A checked range: [fromMs, endMs) in epoch ms (UTC), endMs = min(to + 1 day, now). */
export interface RevenueRange extends RevenueFilters {
  /** 'YYYY-MM-DD' (UTC), the first day. */
  from: string;
  /** 'YYYY-MM-DD' (UTC), the last day (never after today). */
  to: string;
  fromMs: number;
  endMs: number;
  interval: 'day' | 'month';
}

type Query = Record<string, string | undefined>;

const rangeQuery = z.object({
  from: textParam('from', 40),
  to: textParam('to', 40),
  interval: choiceParam('interval', ['day', 'month']),
  provider: choiceParam('provider', PROVIDERS),
  plan: textParam('plan', 100),
  cadence: choiceParam('cadence', CADENCES),
  kind: choiceParam('kind', MOVEMENT_KINDS),
});

/** First instant (epoch ms) of the UTC month containing `ms`, shifted by `add` months. */
export function monthStart(ms: number, add = 0): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1);
}

/**
 * Checks a revenue query at the clock `now` → the range and filters (plus `kind` when given).
 * Days are 'YYYY-MM-DD' (UTC); `to` defaults to today and is capped at today; `from` defaults to
 * the first day of the month REVENUE_DEFAULT_MONTHS before this one. Throws 400 for a malformed or
 * impossible day, a day outside 1970–2100, from after to, a range longer than
 * METRICS_MAX_RANGE_DAYS, an unknown interval, provider, cadence or kind, or a plan over 100
 * characters.
 */
export function parseRevenueQuery(
  q: Query,
  now: Date,
): RevenueRange & { kind: MovementKind | undefined } {
  const input = validate(rangeQuery, q);
  const nowMs = now.getTime();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const day = (name: 'from' | 'to'): number | undefined => {
    const t = input[name];
    if (t === undefined) return undefined;
    const ms = parseDay(t);
    const refuse = (message: string) => badRequest(message, [{ path: name, message }]);
    if (ms === null) throw refuse(`${name} must be a UTC day 'YYYY-MM-DD' (got '${t}')`);
    if (!isSupportedInstant(ms)) throw refuse(unsupportedDateMessage(name, t));
    return ms;
  };
  const to = Math.min(day('to') ?? today, today);
  const from = day('from') ?? monthStart(to, -REVENUE_DEFAULT_MONTHS);
  if (from > to) throw badRequest(`from (${dayText(from)}) is after to (${dayText(to)})`);
  const days = (to - from) / DAY_MS + 1;
  if (days > METRICS_MAX_RANGE_DAYS) {
    throw badRequest(`The range may span at most ${METRICS_MAX_RANGE_DAYS} days`);
  }
  return {
    from: dayText(from),
    to: dayText(to),
    fromMs: from,
    endMs: Math.max(from, Math.min(to + DAY_MS, nowMs)),
    interval: input.interval ?? (days <= REVENUE_DAILY_MAX_DAYS ? 'day' : 'month'),
    provider: input.provider,
    plan: input.plan,
    cadence: input.cadence,
    kind: input.kind,
  };
}

/**
 * SQL conditions for the filters on a table with provider, plan and cadence columns (alias `a`),
 * their parameters appended to `params`; and the expression of a movement's kind under the filters
 * (kind_net when the paired piece passes them too, else kind_alone; docs/metrics.md).
 */
export function filterSql(
  f: RevenueFilters,
  params: unknown[],
  a: string,
): { where: string[]; kind: string; otherPasses: string } {
  const where: string[] = [];
  const other: string[] = [`${a}.paired`];
  const add = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (f.provider) where.push(`${a}.provider = ${add(f.provider)}`);
  if (f.plan) {
    const p = add(f.plan.toLowerCase());
    where.push(`lower(${a}.plan) = ${p}`);
    other.push(`lower(${a}.other_plan) = ${p}`);
  }
  if (f.cadence) {
    const c = add(f.cadence);
    where.push(`${a}.cadence = ${c}`);
    other.push(`${a}.other_cadence = ${c}`);
  }
  const otherPasses = other.join(' AND ');
  return {
    where,
    otherPasses,
    kind: `CASE WHEN ${otherPasses} THEN ${a}.kind_net ELSE ${a}.kind_alone END`,
  };
}

/** The first days 'YYYY-MM-DD' of the buckets of a range: each day, or each month it touches. */
export function bucketDates(r: Pick<RevenueRange, 'fromMs' | 'to' | 'interval'>): string[] {
  const last = parseDay(r.to) ?? r.fromMs;
  const out: string[] = [];
  if (r.interval === 'day') {
    for (let d = r.fromMs; d <= last; d += DAY_MS) out.push(dayText(d));
  } else {
    for (let m = monthStart(r.fromMs); m <= last; m = monthStart(m, 1)) out.push(dayText(m));
  }
  return out;
}

/** Which movements a window of time takes: at < hi (`closed`: at ≤ hi), and at ≥ lo when given. */
export interface MovementWindow {
  /** Epoch ms of a UTC midnight, or null for every movement before hi. */
  lo: number | null;
  /** Epoch ms, any instant. */
  hi: number;
  /** Include the movements at exactly `hi` (the state at an instant counts a span starting then). */
  closed: boolean;
  /**
   * 'month': whole months come from revenue_monthly and every row's b is the first day of its
   * UTC month; 'day': days come from revenue_daily and b is the UTC day.
   */
  bucket: 'day' | 'month';
}

/** What each source of movementSource computes over its rows (alias d). */
export interface MovementAggregate {
  /** The select list, given the SQL of the row's bucket (a UTC day or month, see MovementWindow). */
  select: (bucket: string) => string;
  /** Conditions on d (filterSql's), each starting with AND; '' for none. */
  where: string;
  /** The GROUP BY list of `select`. */
  groupBy: string;
  /**
   * Without filters, whole days may come from revenue_daily_kinds (migration 031: day, currency,
   * cadence, kind, delta_twelfths; kind as it counts unfiltered) instead of revenue_daily: the
   * select list and GROUP BY over it, given the bucket as `select` is.
   */
  narrowDays?: { select: (bucket: string) => string; groupBy: string };
}

/**
 * The movements of a window aggregated by `agg` in each of the cheapest sources for its parts,
 * as a derived table (a UNION ALL of their groups, which the caller sums again): whole months from
 * revenue_monthly, the remaining whole days from revenue_daily (or revenue_daily_kinds, see
 * MovementAggregate.narrowDays), and the part of the last day before
 * `hi` from revenue_movements (migrations 015, 018). Every source but revenue_daily_kinds has the
 * columns provider, plan, cadence, currency, kind_alone, kind_net, paired, other_plan,
 * other_cadence and delta_twelfths, so filterSql's conditions apply to each (narrowDays comes
 * with no condition: throws otherwise). Parameters are appended to `params`.
 */
export function movementSource(
  w: MovementWindow,
  params: unknown[],
  agg: MovementAggregate,
): string {
  const add = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const byMonth = w.bucket === 'month';
  const hiDay = Math.floor(w.hi / DAY_MS) * DAY_MS;
  const parts: string[] = [];
  const part = (bucket: string, table: string, time: string) =>
    parts.push(
      `SELECT ${agg.select(bucket)} FROM ${table} d WHERE ${time} ${agg.where} GROUP BY ${agg.groupBy}`,
    );
  const narrow = agg.narrowDays;
  if (narrow && agg.where !== '') throw new Error('movementSource: narrowDays reads no filter');
  // Under monthly buckets a run of days lies within one month, whose first day is its bucket: a
  // constant instead of a date_trunc per row (a literal: a select list may leave it unused, and an
  // unused parameter has no type).
  const monthOf = (ms: number) => `'${dayText(monthStart(ms))}'::date`;
  const days = (lo: number | null, hi: number) => {
    if (lo !== null && lo >= hi) return;
    const bucket = byMonth ? monthOf(hi - DAY_MS) : 'd.day';
    const from = lo === null ? '' : `d.day >= ${add(dayText(lo))}::date AND `;
    const time = `${from}d.day < ${add(dayText(hi))}::date`;
    if (narrow) {
      parts.push(
        `SELECT ${narrow.select(bucket)} FROM revenue_daily_kinds d WHERE ${time} GROUP BY ${narrow.groupBy}`,
      );
    } else part(bucket, 'revenue_daily', time);
  };
  if (byMonth) {
    const mHi = monthStart(hiDay);
    const mLo = w.lo === null ? null : monthStart(w.lo) === w.lo ? w.lo : monthStart(w.lo, 1);
    if (mLo !== null && w.lo !== null && mLo > mHi) {
      days(w.lo, hiDay);
    } else {
      if (mLo !== null && w.lo !== null) days(w.lo, mLo);
      if (mLo === null || mLo < mHi) {
        const from = mLo === null ? '' : `d.month >= ${add(dayText(mLo))}::date AND `;
        part('d.month', 'revenue_monthly', `${from}d.month < ${add(dayText(mHi))}::date`);
      }
      days(mHi, hiDay);
    }
  } else {
    days(w.lo, hiDay);
  }
  if (w.hi > hiDay || w.closed) {
    const bucket = byMonth ? monthOf(hiDay) : `(d.at AT TIME ZONE 'UTC')::date`;
    part(
      bucket,
      'revenue_movements',
      `d.at >= ${add(new Date(hiDay).toISOString())}::timestamptz
       AND d.at ${w.closed ? '<=' : '<'} ${add(new Date(w.hi).toISOString())}::timestamptz`,
    );
  }
  if (parts.length === 0) part('NULL::date', 'revenue_daily', 'false');
  return `(${parts.join('\n UNION ALL ')})`;
}
