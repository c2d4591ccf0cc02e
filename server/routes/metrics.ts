/**
 * GET /metrics/overview (specification §2 Metrics screen, §3 Metrics response, §7 "Metrics load";
 * CONTRACT.md; docs/api.md "Metrics"). Self-contained on purpose: its own parameter
 * checks on top of server/access/params, no shared list helper.
 *
 * Definitions (UTC days; money in integer cents of the reporting currency):
 * - new / renewals / cancellations: subscription_events of type 'new', 'renewal', 'cancellation'
 *   whose occurred_at falls on a day of the range. They are read from the daily roll-ups of
 *   migrations 005, 007 and 030 (metrics_daily, metrics_daily_provider, metrics_daily_plan,
 *   metrics_daily_status, metrics_daily_source), kept exact by triggers; rollupTable picks the
 *   narrowest for the filters.
 * - totalActive: subscriptions granting current access at `now` — activeAccessCondition
 *   (server/vocabulary.ts), so with no filter it equals /stats activeSubscribers.
 * - activeAtStart: subscriptions that had started before the range's first instant and whose
 *   access had not ended then (ends_at null or later), paused ones left out.
 * Both are counted from the month and day roll-ups subscription_months and subscription_days
 * (migrations 021 and 032) and a few index entries, never by reading every subscription
 * (accessByProviderPlan).
 * - churnRate = cancellations ÷ activeAtStart (a fraction, 6 decimals; 0 when activeAtStart is 0).
 * - estimatedRevenueCents = amounts of the new + renewal events, converted per day and provider
 *   with the configured fixed rates (as /stats) and rounded there, so the amount series sums to it.
 *   Currencies without a rate are left out of money (and logged).
 *
 * Filters narrow every part: provider (lemonsqueezy | clickbank), status (active = the provider
 * statuses active, trialing, past_due; cancelled; expired — the subscription's status now), plan
 * and source (free text, case-insensitive exact match). type (new | renewal) narrows the payment
 * figures (new, renewals, revenue and the by-provider series) to that kind; cancellations, active
 * counts and pies are neither kind and are not narrowed by it. 'all' / 'any' mean no filter.
 */
import { Hono } from 'hono';
import { readDbOf, type AppDeps } from '../context';
import type { Queryable } from '../db/types';
import { z } from 'zod';
import { isSupportedInstant, unsupportedDateMessage } from '../access/params';
import { validate } from '../http/body';
import { choiceParam, textParam } from '../http/fields';
import { badRequest } from '../errors';
import { ACCESS_STATUSES } from '../vocabulary';
import { reportingRate } from '../fx';

const DAY_MS = 86_400_000;
/** Longest range answered, in days (bounds the daily series). */
export const METRICS_MAX_RANGE_DAYS = 3660;
/** §9 default metrics period: the last 28 days, today included. */
export const METRICS_DEFAULT_DAYS = 28;

/** Providers of the by-provider series, in column order. */
const PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;
type Provider = (typeof PROVIDERS)[number];

/** Subscription statuses each `status` filter value selects. */
const STATUS_FILTER: Record<'active' | 'cancelled' | 'expired', readonly string[]> = {
  active: ACCESS_STATUSES,
  cancelled: ['cancelled'],
  expired: ['expired'],
};

/** A checked overview request. Days are 'YYYY-MM-DD' (UTC), `from` ≤ `to`. */
export interface OverviewQuery {
  from: string;
  to: string;
  provider?: Provider;
  status?: keyof typeof STATUS_FILTER;
  type?: 'new' | 'renewal';
  plan?: string;
  source?: string;
}

/** One day of series.lineDaily (counts). */
export interface LineDailyRow {
  date: string;
  new: number;
  renewals: number;
  cancellations: number;
}

/** One day of series.byProviderDaily (counts of new + renewal payments) or byProviderDailyAmountCents (cents). */
export interface ProviderDailyRow {
  date: string;
  lemonsqueezy: number;
  clickbank: number;
  total: number;
}

/** GET /metrics/overview body (§3 Metrics response; docs/api.md). */
export interface MetricsOverviewJson {
  range: { from: string; to: string };
  /** Reporting currency of every *Cents figure. */
  currency: string;
  totals: {
    totalActive: number;
    totalNewInRange: number;
    totalRenewalsInRange: number;
    totalCancellationsInRange: number;
    /** Subscriptions with access at the start of the range (churn's denominator). */
    activeAtStart: number;
    churnRate: number;
    estimatedRevenueCents: number;
  };
  series: {
    lineDaily: LineDailyRow[];
    byProviderDaily: ProviderDailyRow[];
    byProviderDailyAmountCents: ProviderDailyRow[];
  };
  pies: {
    activeByProvider: Array<{ provider: string; cnt: number }>;
    activeByPlan: Array<{ plan: string; cnt: number }>;
  };
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a 'YYYY-MM-DD' UTC day → epoch ms of its midnight, or null (also for impossible dates). */
export function parseDay(text: string): number | null {
  const m = DAY_RE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return null;
  return ms;
}

/** Epoch ms of a UTC midnight → 'YYYY-MM-DD'. */
export const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A query string as Hono gives it. */
type Query = Record<string, string | undefined>;

/** GET /metrics/overview's parameters (§7): days as text (checked below), lenient choices, free text. */
const overviewQuery = z.object({
  from: textParam('from', 40),
  to: textParam('to', 40),
  provider: choiceParam('provider', PROVIDERS),
  status: choiceParam('status', ['active', 'cancelled', 'expired']),
  type: choiceParam('type', ['new', 'renewal']),
  plan: textParam('plan', 100),
  source: textParam('source', 100),
});

/**
 * Checks the query of GET /metrics/overview → the filters and the requested days (from may be
 * null: "all time", resolved against the data by the caller). Throws 400 for a malformed or
 * impossible day, a day outside 1970–2100, from after to, a range longer than
 * METRICS_MAX_RANGE_DAYS, an unknown provider/status/type, or plan/source longer than 100
 * characters.
 */
export function parseOverviewQuery(
  q: Query,
  now: Date,
): Omit<OverviewQuery, 'from'> & { from: string | null } {
  const input = validate(overviewQuery, q);
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
  const fromMs = day('from');
  const toMs = day('to');
  let from: number | null;
  let to: number;
  if (fromMs === undefined && toMs === undefined) {
    to = today;
    from = today - (METRICS_DEFAULT_DAYS - 1) * DAY_MS;
  } else if (fromMs === undefined) {
    to = toMs as number;
    from = null; // all time up to `to`
  } else {
    from = fromMs;
    to = toMs ?? today;
  }
  if (from !== null && from > to)
    throw badRequest(`from (${dayText(from)}) is after to (${dayText(to)})`);
  if (from !== null && (to - from) / DAY_MS + 1 > METRICS_MAX_RANGE_DAYS) {
    throw badRequest(`The range may span at most ${METRICS_MAX_RANGE_DAYS} days`);
  }
  return {
    from: from === null ? null : dayText(from),
    to: dayText(to),
    provider: input.provider,
    status: input.status,
    type: input.type,
    plan: input.plan,
    source: input.source,
  };
}

/** SQL conditions + parameters for the subscription-level filters on a table alias (s.* or roll-up columns). */
function filterSql(
  f: Pick<OverviewQuery, 'provider' | 'status' | 'plan' | 'source'>,
  params: unknown[],
  col: (name: 'provider' | 'status' | 'plan' | 'source') => string,
): string[] {
  const parts: string[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (f.provider) add(`${col('provider')} = ?`, f.provider);
  if (f.status) add(`${col('status')} = ANY(?::text[])`, STATUS_FILTER[f.status]);
  if (f.plan) add(`lower(${col('plan')}) = ?`, f.plan.toLowerCase());
  if (f.source) add(`lower(COALESCE(${col('source')}, '')) = ?`, f.source.toLowerCase());
  return parts;
}

/**
 * The narrowest daily roll-up holding every column the filters compare (all are kept exact by the
 * triggers of migrations 005 and 007, and each is a GROUP BY of metrics_daily over its key, so every
 * choice gives the same answer): no plan/source/status filter → metrics_daily_provider (day, type,
 * provider, currency); plan only → metrics_daily_plan; status only → metrics_daily_status; source
 * only → metrics_daily_source (migration 030); any two of them → metrics_daily (the full key).
 */
export function rollupTable(
  f: Pick<OverviewQuery, 'plan' | 'source' | 'status'>,
):
  | 'metrics_daily_provider'
  | 'metrics_daily_plan'
  | 'metrics_daily_status'
  | 'metrics_daily_source'
  | 'metrics_daily' {
  const given = [f.plan, f.status, f.source].filter((v) => v !== undefined).length;
  if (given > 1) return 'metrics_daily';
  if (f.plan !== undefined) return 'metrics_daily_plan';
  if (f.status !== undefined) return 'metrics_daily_status';
  if (f.source !== undefined) return 'metrics_daily_source';
  return 'metrics_daily_provider';
}

/** Current access and access at the range's start of one (provider, plan). */
interface AccessRow {
  provider: string;
  plan: string;
  active: number;
  start_active: number;
}

/**
 * totalActive and the pies' counts (subscriptions granting access at `now`, activeAccessCondition)
 * and activeAtStart (started before `startIso`, a UTC midnight, with no end at or before it, paused
 * left out), per (provider, plan), for the subscription-level filters. Exactly what one scan of
 * every subscription would count (server/routes/metrics-access.test.ts), read from the roll-ups
 * of migrations 021 and 032 (subscription_months' whole months, the months after this one of the
 * cancelled subscriptions still paid among them; subscription_days' days of the start's month
 * before it, and the rest of this month after today of the cancelled subscriptions still paid) and
 * from covering indexes for the rest (the ends at the start itself, today's paid cancellations
 * after now, and the subscriptions that end at or before they start). Rejects when the database
 * fails.
 */
async function accessByProviderPlan(
  db: Queryable,
  f: Pick<OverviewQuery, 'provider' | 'status' | 'plan' | 'source'>,
  now: Date,
  startIso: string,
): Promise<AccessRow[]> {
  const start = new Date(startIso);
  const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)).toISOString();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const tomorrow = new Date(today.getTime() + 86_400_000).toISOString();
  // Each parameter is compared as one type only (a date, or an instant): a parameter cast both
  // ways takes the first cast's type, and converting a date to an instant reads the session's
  // time zone.
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const params: unknown[] = [
    now.toISOString(),
    startIso,
    month.slice(0, 10),
    [...ACCESS_STATUSES],
    today.toISOString().slice(0, 10),
    tomorrow,
    startIso.slice(0, 10),
    nextMonth.toISOString().slice(0, 10),
  ];
  const m = filterSql(f, params, (c) => `m.${c}`);
  const d = filterSql(f, params, (c) => `d.${c}`)
    .map((w) => ` AND ${w}`)
    .join('');
  const s = filterSql(f, params, (c) => `s.${c}`)
    .map((w) => ` AND ${w}`)
    .join('');
  const r = await db.query<AccessRow>(
    `SELECT provider, plan, sum(active)::int AS active, sum(start_active)::int AS start_active
       FROM (SELECT m.provider, m.plan,
                    COALESCE(sum(m.n) FILTER (WHERE m.kind = 'start' AND m.status = ANY($4::text[])), 0)
                    + COALESCE(sum(m.n) FILTER (WHERE m.kind = 'end' AND m.status = 'cancelled' AND m.month >= $8::date), 0)
                      AS active,
                    COALESCE(sum(m.n) FILTER (WHERE m.kind = 'start' AND m.month < $3::date AND m.status <> 'paused'), 0)
                    - COALESCE(sum(m.n) FILTER (WHERE m.kind = 'end' AND m.month < $3::date AND m.status <> 'paused'), 0)
                      AS start_active
               FROM subscription_months m ${m.length > 0 ? `WHERE ${m.join(' AND ')}` : ''}
              GROUP BY m.provider, m.plan
             UNION ALL
             SELECT d.provider, d.plan, sum(d.n), 0 FROM subscription_days d
              WHERE d.day > $5::date AND d.day < $8::date AND d.kind = 'end' AND d.status = 'cancelled'${d}
              GROUP BY d.provider, d.plan
             UNION ALL
             SELECT s.provider, s.plan, count(*), 0 FROM subscriptions s
              WHERE s.status = 'cancelled' AND s.ends_at > $1::timestamptz
                AND s.ends_at < $6::timestamptz AND s.ends_at > s.start_date${s}
              GROUP BY s.provider, s.plan
             UNION ALL
             SELECT s.provider, s.plan, count(*), 0 FROM subscriptions s
              WHERE s.status = 'cancelled' AND s.ends_at > $1::timestamptz AND s.ends_at <= s.start_date
                -- implied (start ≥ end > now): a range of subscriptions_ends_unordered_idx
                AND s.start_date > $1::timestamptz${s}
              GROUP BY s.provider, s.plan
             UNION ALL
             SELECT d.provider, d.plan, 0,
                    COALESCE(sum(d.n) FILTER (WHERE d.kind = 'start'), 0)
                    - COALESCE(sum(d.n) FILTER (WHERE d.kind = 'end'), 0)
               FROM subscription_days d
              WHERE d.day >= $3::date AND d.day < $7::date AND d.status <> 'paused'${d}
              GROUP BY d.provider, d.plan
             UNION ALL
             SELECT s.provider, s.plan, 0, -count(*) FROM subscriptions s
              WHERE s.ends_at = $2::timestamptz AND s.ends_at > s.start_date AND s.status <> 'paused'${s}
              GROUP BY s.provider, s.plan
             UNION ALL
             SELECT s.provider, s.plan, 0, -count(*) FROM subscriptions s
              WHERE s.ends_at <= s.start_date AND s.start_date < $2::timestamptz AND s.status <> 'paused'${s}
              GROUP BY s.provider, s.plan) x
      GROUP BY provider, plan`,
    params,
  );
  return r.rows;
}

/**
 * Computes the §3 Metrics response for `q` at the clock `now` (see the module doc for every
 * definition). Throws 400 on a bad query (parseOverviewQuery); database failures propagate.
 */
export async function metricsOverview(deps: AppDeps, query: Query): Promise<MetricsOverviewJson> {
  const { config } = deps;
  const db = readDbOf(deps);
  const now = deps.now();
  const parsed = parseOverviewQuery(query, now);
  const table = rollupTable(parsed);

  let from = parsed.from;
  if (from === null) {
    // All time: from the first day with data (in the filtered view) up to `to`.
    const params: unknown[] = [];
    const where = filterSql(parsed, params, (c) => c);
    params.push(parsed.to);
    const first = await db.query<{ d: string | null }>(
      `SELECT to_char(min(day), 'YYYY-MM-DD') AS d FROM ${table}
        WHERE ${[...where, `day <= $${params.length}::date`, 'events > 0'].join(' AND ')}`,
      params,
    );
    from = first.rows[0]?.d ?? parsed.to;
    if ((Date.parse(parsed.to) - Date.parse(from)) / DAY_MS + 1 > METRICS_MAX_RANGE_DAYS) {
      from = dayText(Date.parse(parsed.to) - (METRICS_MAX_RANGE_DAYS - 1) * DAY_MS);
    }
  }
  const to = parsed.to;

  // 1. Daily flows from the roll-up, pivoted to one row per day with data and converted into the
  // reporting currency in SQL (a few hundred small rows cross the PGlite boundary, not thousands).
  const fxCurrencies = [
    config.reportingCurrency,
    ...Object.keys(config.fxRates).filter((c) => c !== config.reportingCurrency),
  ];
  const fxRates = fxCurrencies.map((c) => reportingRate(config, c));
  const payTypes = parsed.type ? [parsed.type] : ['new', 'renewal'];
  const sParams: unknown[] = [from, to, fxCurrencies, fxRates, payTypes];
  const sWhere = [
    'm.day >= $1::date',
    'm.day <= $2::date',
    ...filterSql(parsed, sParams, (c) => `m.${c}`),
  ];
  const pay = `m.type = ANY($5::text[])`;
  const flows = await db.query<{
    day: string;
    new: number;
    renewals: number;
    cancellations: number;
    ls_n: number;
    cb_n: number;
    ls_amount: number;
    cb_amount: number;
    missing: string[] | null;
  }>(
    `SELECT to_char(m.day, 'YYYY-MM-DD') AS day,
            COALESCE(sum(m.events) FILTER (WHERE m.type = 'new' AND ${pay}), 0)::int AS new,
            COALESCE(sum(m.events) FILTER (WHERE m.type = 'renewal' AND ${pay}), 0)::int AS renewals,
            COALESCE(sum(m.events) FILTER (WHERE m.type = 'cancellation'), 0)::int AS cancellations,
            COALESCE(sum(m.events) FILTER (WHERE ${pay} AND m.provider = 'lemonsqueezy'), 0)::int AS ls_n,
            COALESCE(sum(m.events) FILTER (WHERE ${pay} AND m.provider = 'clickbank'), 0)::int AS cb_n,
            COALESCE(sum(m.amount_cents * fx.rate) FILTER (WHERE ${pay} AND m.provider = 'lemonsqueezy'), 0)::float8 AS ls_amount,
            COALESCE(sum(m.amount_cents * fx.rate) FILTER (WHERE ${pay} AND m.provider = 'clickbank'), 0)::float8 AS cb_amount,
            array_agg(DISTINCT m.currency) FILTER (WHERE ${pay} AND fx.rate IS NULL) AS missing
       FROM ${table} m LEFT JOIN unnest($3::text[], $4::float8[]) AS fx(currency, rate) ON fx.currency = m.currency
      WHERE ${sWhere.join(' AND ')}
      GROUP BY m.day`,
    sParams,
  );

  // 2. Current access and access at the start of the range, by provider and plan: whole months
  // and days from subscription_months and subscription_days (migrations 021 and 032), the rest
  // from a few index entries.
  const access = await accessByProviderPlan(db, parsed, now, `${from}T00:00:00Z`);

  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const toMs = Date.parse(`${to}T00:00:00Z`);
  const days: string[] = [];
  for (let t = fromMs; t <= toMs; t += DAY_MS) days.push(dayText(t));
  const index = new Map(days.map((d, i) => [d, i]));
  const line: LineDailyRow[] = days.map((date) => ({
    date,
    new: 0,
    renewals: 0,
    cancellations: 0,
  }));
  const counts: ProviderDailyRow[] = days.map((date) => ({
    date,
    lemonsqueezy: 0,
    clickbank: 0,
    total: 0,
  }));
  /** Unrounded reporting-currency amounts per day and provider. */
  const amounts = days.map(() => ({ lemonsqueezy: 0, clickbank: 0 }));
  const missing = new Set<string>();
  let payments = 0;

  for (const r of flows.rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    const row = line[i] as LineDailyRow;
    row.new += r.new;
    row.renewals += r.renewals;
    row.cancellations += r.cancellations;
    const c = counts[i] as ProviderDailyRow;
    c.lemonsqueezy += r.ls_n;
    c.clickbank += r.cb_n;
    payments += r.ls_n + r.cb_n;
    const a = amounts[i] as Record<Provider, number>;
    a.lemonsqueezy += Number(r.ls_amount);
    a.clickbank += Number(r.cb_amount);
    for (const m of r.missing ?? []) missing.add(m);
  }
  if (missing.size > 0) {
    deps.log.warn(
      { currencies: [...missing] },
      'metrics: no FX rate for these currencies; left out of money figures',
    );
  }

  const amountRows: ProviderDailyRow[] = days.map((date, i) => {
    const a = amounts[i] as Record<Provider, number>;
    const ls = Math.round(a.lemonsqueezy);
    const cb = Math.round(a.clickbank);
    return { date, lemonsqueezy: ls, clickbank: cb, total: ls + cb };
  });
  for (const c of counts) c.total = c.lemonsqueezy + c.clickbank;

  const byProvider = new Map<string, number>();
  const byPlan = new Map<string, number>();
  let totalActive = 0;
  let activeAtStart = 0;
  for (const r of access) {
    totalActive += r.active;
    activeAtStart += r.start_active;
    if (r.active > 0) {
      byProvider.set(r.provider, (byProvider.get(r.provider) ?? 0) + r.active);
      byPlan.set(r.plan, (byPlan.get(r.plan) ?? 0) + r.active);
    }
  }
  const pie = <K extends string>(m: Map<string, number>, key: K) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([name, cnt]) => ({ [key]: name, cnt }) as Record<K, string> & { cnt: number });

  const totalNew = line.reduce((s, r) => s + r.new, 0);
  const totalRenewals = line.reduce((s, r) => s + r.renewals, 0);
  const totalCancellations = line.reduce((s, r) => s + r.cancellations, 0);
  const revenue = amountRows.reduce((s, r) => s + r.total, 0);
  const hasPayments = payments > 0;
  return {
    range: { from, to },
    currency: config.reportingCurrency,
    totals: {
      totalActive,
      totalNewInRange: totalNew,
      totalRenewalsInRange: totalRenewals,
      totalCancellationsInRange: totalCancellations,
      activeAtStart,
      churnRate:
        activeAtStart > 0 ? Math.round((totalCancellations / activeAtStart) * 1e6) / 1e6 : 0,
      estimatedRevenueCents: revenue,
    },
    series: {
      lineDaily: line,
      byProviderDaily: hasPayments ? counts : [],
      byProviderDailyAmountCents: hasPayments ? amountRows : [],
    },
    pies: { activeByProvider: pie(byProvider, 'provider'), activeByPlan: pie(byPlan, 'plan') },
  };
}

/** Metrics router: GET /metrics/overview → MetricsOverviewJson (paths relative to the API prefix). */
export function metricsRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/metrics/overview', async (c) => c.json(await metricsOverview(deps, c.req.query())));
  return r;
}
