/**
 * Integrated sales tracking (ISR) endpoints (specification §2 Integrated Tracking screen and the
 * Metrics ISR panel, §3 ISR rows, §7; CONTRACT.md; docs/api.md "Integrated Tracking"):
 *
 * - GET /isr-metrics/summary?from&to → IsrSummaryJson
 * - GET /isr-metrics/daily?from&to → {rows: [{day, source, events, amount_cents}], currency}
 * - GET /isr-metrics/affiliates?from&to&limit → {rows: [{affiliate, amount_cents, events}], currency}
 * - GET /isr-events?q&source&affiliate&subid&receipt&order_id&time_from&time_to&page&pageSize → {rows, total, page, pageSize, totalCapped}
 *
 * Self-contained on purpose: its own parameter checks on top of server/access/params.
 *
 * Instants: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.fff]]' (UTC, what the console sends, §5) or ISO
 * 8601 with 'T' and an optional 'Z' / ±HH:MM offset. A lower bound is inclusive. An upper bound
 * includes the whole unit it names: a day-only `to` the whole day, '… 23:59:59' the whole second.
 * Without from and to the range is the §9 default: the last 14 UTC days (from 00:00 of the day
 * 13 days ago, no upper bound). Only `to` = all time up to it.
 *
 * Aggregated money is in the reporting currency (REPORTING_CURRENCY, `currency` in the answer),
 * converted with the fixed FX_RATES as /stats does, rounded per row (per source for the summary,
 * so its total is the sum of its parts); events in a currency without a rate still count as
 * events but are left out of amounts (and logged). Refunds and chargebacks are negative, so
 * amounts are net. Event rows keep their own amount_cents and currency.
 *
 * The three aggregates read the whole UTC days of their range from the daily roll-ups of
 * migration 006 (isr_daily, isr_daily_affiliate; exact, kept by triggers) and only the partial
 * days at either end from raw rows, so their cost grows with days, not events; the answers are
 * the same as from raw rows (server/routes/isr.rollup.test.ts).
 */
import { Hono } from 'hono';
import { readDbOf, type AppDeps, type ServerConfig } from '../context';
import { z } from 'zod';
import { isSupportedInstant, iso, unsupportedDateMessage } from '../access/params';
import { containsPattern } from '../db/list';
import { commonSearchWindow, SEARCH_PROBE_ROWS } from '../db/searchProbe';
import { badRequest } from '../errors';
import { validate } from '../http/body';
import { intParam, pageParams, textParam } from '../http/fields';
import { reportingRate } from '../fx';

/** A query string as Hono gives it. */
type Query = Record<string, string | undefined>;

/** The range parameters, as text: parsed by parseInstantRange (module doc rules). */
const instantText = (name: string) => textParam(name, 40);
const rangeQuery = z.object({ from: instantText('from'), to: instantText('to') });

const DAY_MS = 86_400_000;
/** §9 default ISR range in days. */
export const ISR_DEFAULT_DAYS = 14;
/** §9 top affiliates limit (default) and the largest accepted. */
export const ISR_AFFILIATES_DEFAULT_LIMIT = 12;
export const ISR_AFFILIATES_MAX_LIMIT = 100;
/** §9 ISR events page size (default) and the largest accepted. */
export const ISR_EVENTS_DEFAULT_PAGE_SIZE = 50;
export const ISR_EVENTS_MAX_PAGE_SIZE = 200;
/** A free-text search's total is counted up to this many matches (then totalCapped is true), as GET /logs. */
export const ISR_SEARCH_COUNT_CAP = 1000;

/** GET /isr-metrics/summary body (§3 ISR summary). Amounts in cents of `currency`. */
export interface IsrSummaryJson {
  total_amount_cents: number;
  total_events: number;
  clickbank_amount_cents: number;
  clickbank_events: number;
  lemonsqueezy_amount_cents: number;
  lemonsqueezy_events: number;
  currency: string;
}

/** One row of GET /isr-metrics/daily (§3 ISR daily series row); day 'YYYY-MM-DD' (UTC). */
export interface IsrDailyRowJson {
  day: string;
  source: string;
  events: number;
  amount_cents: number;
}

/** One row of GET /isr-metrics/affiliates (§3 Top affiliate row). */
export interface IsrAffiliateRowJson {
  affiliate: string;
  amount_cents: number;
  events: number;
}

/** One row of GET /isr-events (§3 ISR event row); created_at ISO 8601 UTC, amount in cents of currency. */
export interface IsrEventRowJson {
  id: number;
  created_at: string | null;
  source: string;
  order_id: string | null;
  receipt: string | null;
  product_id: string | null;
  amount_cents: number;
  currency: string;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customer_email: string | null;
  referrer: string | null;
}

/** GET /isr-events body. */
export interface IsrEventsPageJson {
  rows: IsrEventRowJson[];
  /** Matching events; with q at most ISR_SEARCH_COUNT_CAP (see totalCapped). */
  total: number;
  page: number;
  pageSize: number;
  /** True when a search (q) matched more than ISR_SEARCH_COUNT_CAP events: total is then that cap ("1,000+"). */
  totalCapped: boolean;
}

const INSTANT_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A parsed instant: epoch ms and the length in ms of the unit the text named (day, minute, second, ms). */
export interface ParsedInstant {
  ms: number;
  unitMs: number;
}

/** Parses an ISR instant (see the module doc) → ParsedInstant, or null when malformed or impossible. Never throws. */
export function parseInstant(text: string): ParsedInstant | null {
  const m = INSTANT_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const milli = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  ) {
    return null;
  }
  let offsetMin = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    if (h === undefined) return null; // an offset needs a time of day
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 14 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  const unitMs =
    h === undefined ? DAY_MS : s === undefined ? 60_000 : frac === undefined ? 1000 : 1;
  return { ms: utc - offsetMin * 60_000, unitMs };
}

/** A half-open UTC range [from, toExclusive); either end may be open (null). */
export interface InstantRange {
  from: Date | null;
  toExclusive: Date | null;
}

/**
 * Reads a range from the parameters `fromName` / `toName` (module doc rules) at the clock `now`.
 * Throws 400 naming the parameter when one is malformed or outside 1970–2100
 * (isSupportedInstant), or when from is not before to.
 */
export function parseInstantRange(
  q: Readonly<Record<string, unknown>>,
  fromName: string,
  toName: string,
  now: Date,
  defaultDays: number | null,
): InstantRange {
  const read = (name: string): ParsedInstant | undefined => {
    const t = q[name];
    if (typeof t !== 'string' || t.trim() === '') return undefined;
    const p = parseInstant(t.trim());
    const refuse = (message: string) => badRequest(message, [{ path: name, message }]);
    if (!p) {
      throw refuse(
        `${name} must be a UTC date-time 'YYYY-MM-DD HH:MM:SS', a day 'YYYY-MM-DD' or ISO 8601 (got '${t}')`,
      );
    }
    // Both ends of the unit it names: a day-only '2100-12-31' reaches 2101-01-01 exclusive.
    if (!isSupportedInstant(p.ms) || !isSupportedInstant(p.ms + p.unitMs - 1)) {
      throw refuse(unsupportedDateMessage(name, t));
    }
    return p;
  };
  const from = read(fromName);
  const to = read(toName);
  if (from === undefined && to === undefined) {
    if (defaultDays === null) return { from: null, toExclusive: null };
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return { from: new Date(today - (defaultDays - 1) * DAY_MS), toExclusive: null };
  }
  const range: InstantRange = {
    from: from === undefined ? null : new Date(from.ms),
    toExclusive: to === undefined ? null : new Date(to.ms + to.unitMs),
  };
  if (range.from && range.toExclusive && range.from.getTime() >= range.toExclusive.getTime()) {
    throw badRequest(
      `${fromName} (${String(q[fromName]).trim()}) is after ${toName} (${String(q[toName]).trim()})`,
    );
  }
  return range;
}

/** SQL conditions on isr_events.created_at for `range`, appending parameters to `params`. */
function rangeSql(range: InstantRange, params: unknown[]): string[] {
  const parts: string[] = [];
  if (range.from) {
    params.push(range.from.toISOString());
    parts.push(`created_at >= $${params.length}::timestamptz`);
  }
  if (range.toExclusive) {
    params.push(range.toExclusive.toISOString());
    parts.push(`created_at < $${params.length}::timestamptz`);
  }
  return parts;
}

const whereOf = (parts: string[]) => (parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`);

/** How an aggregate reads its range: from the daily roll-ups (migration 006) or raw rows only. */
export interface IsrAggregateOptions {
  /** Read whole UTC days from isr_daily / isr_daily_affiliate (default true); false = raw rows (tests compare both). */
  rollup?: boolean;
}

/**
 * A range split for the roll-ups: `days` = the whole UTC days inside it as 'YYYY-MM-DD' bounds
 * [from, toExclusive) (either open), or null when it holds none; `edges` = the partial days at
 * either end, read from raw rows. The parts are disjoint and together cover `range` exactly.
 */
export interface SplitRange {
  days: { from: string | null; toExclusive: string | null } | null;
  edges: InstantRange[];
}

/** Splits `range` into whole UTC days and partial edge days (see SplitRange). */
export function splitRangeByDay(range: InstantRange): SplitRange {
  const f = range.from?.getTime() ?? null;
  const t = range.toExclusive?.getTime() ?? null;
  const dayFrom = f === null ? null : Math.ceil(f / DAY_MS) * DAY_MS;
  const dayTo = t === null ? null : Math.floor(t / DAY_MS) * DAY_MS;
  if (dayFrom !== null && dayTo !== null && dayFrom >= dayTo) return { days: null, edges: [range] };
  const edges: InstantRange[] = [];
  if (f !== null && dayFrom !== null && dayFrom > f) {
    edges.push({ from: range.from, toExclusive: new Date(dayFrom) });
  }
  if (t !== null && dayTo !== null && dayTo < t) {
    edges.push({ from: new Date(dayTo), toExclusive: range.toExclusive });
  }
  const day = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 10));
  return { days: { from: day(dayFrom), toExclusive: day(dayTo) }, edges };
}

/**
 * SQL of the grouped rows (`keys`…, events, amount) of isr_events over `range`: the union of the
 * roll-up `table` for its whole days and raw rows for the partial edge days (or raw rows only
 * when `rollup` is false), each part grouped by `keys`; the caller groups the union again. `raw`
 * maps each key to its expression on isr_events (the roll-up has a column of the key's name);
 * `rawWhere` narrows raw rows as the roll-up already is. Appends parameters to `params`.
 */
function groupedRangeSql(
  range: InstantRange,
  params: unknown[],
  opts: { table: string; raw: Record<string, string>; rawWhere?: string; rollup: boolean },
): string {
  const keys = Object.keys(opts.raw);
  const rawPart = (r: InstantRange) => {
    const where = rangeSql(r, params);
    if (opts.rawWhere) where.push(opts.rawWhere);
    return `SELECT ${keys.map((k) => `${opts.raw[k]} AS ${k}`).join(', ')}, count(*)::bigint AS events,
                   sum(amount_cents)::bigint AS amount
              FROM isr_events ${whereOf(where)} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;
  };
  if (!opts.rollup) return rawPart(range);
  const split = splitRangeByDay(range);
  if (split.days === null) return rawPart(range);
  const dayWhere: string[] = [];
  if (split.days.from !== null) {
    params.push(split.days.from);
    dayWhere.push(`day >= $${params.length}::date`);
  }
  if (split.days.toExclusive !== null) {
    params.push(split.days.toExclusive);
    dayWhere.push(`day < $${params.length}::date`);
  }
  const parts = [
    `SELECT ${keys.join(', ')}, events::bigint AS events, amount_cents AS amount FROM ${opts.table} ${whereOf(dayWhere)}`,
    ...split.edges.map(rawPart),
  ];
  return parts.join('\n UNION ALL\n');
}

/** Converts per-currency cent sums into the reporting currency (unrounded); unknown currencies are collected in `missing`. */
function converter(
  config: Pick<ServerConfig, 'fxRates' | 'reportingCurrency'>,
  missing: Set<string>,
) {
  return (currency: string, cents: number): number => {
    const rate = reportingRate(config, currency);
    if (rate === null) {
      missing.add(currency);
      return 0;
    }
    return rate * cents;
  };
}

function warnMissing(deps: AppDeps, missing: Set<string>): void {
  if (missing.size > 0) {
    deps.log.warn(
      { currencies: [...missing] },
      'isr: no FX rate for these currencies; left out of amounts',
    );
  }
}

/** GET /isr-metrics/summary (§3 ISR summary) for the range of `q`. Throws 400 on bad from/to. */
export async function isrSummary(
  deps: AppDeps,
  q: Query,
  opts: IsrAggregateOptions = {},
): Promise<IsrSummaryJson> {
  const range = parseInstantRange(
    validate(rangeQuery, q),
    'from',
    'to',
    deps.now(),
    ISR_DEFAULT_DAYS,
  );
  const params: unknown[] = [];
  const res = await readDbOf(deps).query<{
    source: string;
    currency: string;
    events: number;
    amount: string;
  }>(
    `SELECT source, currency, sum(events)::int AS events, sum(amount)::bigint AS amount
       FROM (${groupedRangeSql(range, params, {
         table: 'isr_daily',
         raw: { source: 'source', currency: 'currency' },
         rollup: opts.rollup ?? true,
       })}) x
      GROUP BY source, currency ORDER BY source, currency`,
    params,
  );
  const missing = new Set<string>();
  const convert = converter(deps.config, missing);
  const bySource = new Map<string, { events: number; amount: number }>();
  for (const r of res.rows) {
    const s = bySource.get(r.source) ?? { events: 0, amount: 0 };
    s.events += r.events;
    s.amount += convert(r.currency, Number(r.amount));
    bySource.set(r.source, s);
  }
  warnMissing(deps, missing);
  let totalAmount = 0;
  let totalEvents = 0;
  for (const s of bySource.values()) {
    s.amount = Math.round(s.amount);
    totalAmount += s.amount;
    totalEvents += s.events;
  }
  const part = (source: string) => bySource.get(source) ?? { events: 0, amount: 0 };
  return {
    total_amount_cents: totalAmount,
    total_events: totalEvents,
    clickbank_amount_cents: part('clickbank').amount,
    clickbank_events: part('clickbank').events,
    lemonsqueezy_amount_cents: part('lemonsqueezy').amount,
    lemonsqueezy_events: part('lemonsqueezy').events,
    currency: deps.config.reportingCurrency,
  };
}

/** GET /isr-metrics/daily: one row per UTC day and source with events, ordered by day then source. */
export async function isrDaily(
  deps: AppDeps,
  q: Query,
  opts: IsrAggregateOptions = {},
): Promise<{ rows: IsrDailyRowJson[]; currency: string }> {
  const range = parseInstantRange(
    validate(rangeQuery, q),
    'from',
    'to',
    deps.now(),
    ISR_DEFAULT_DAYS,
  );
  const params: unknown[] = [];
  const res = await readDbOf(deps).query<{
    day: string;
    source: string;
    currency: string;
    events: number;
    amount: string;
  }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, source, currency, sum(events)::int AS events,
            sum(amount)::bigint AS amount
       FROM (${groupedRangeSql(range, params, {
         table: 'isr_daily',
         raw: {
           day: "(created_at AT TIME ZONE 'UTC')::date",
           source: 'source',
           currency: 'currency',
         },
         rollup: opts.rollup ?? true,
       })}) x
      GROUP BY x.day, source, currency
      ORDER BY x.day, source, currency`,
    params,
  );
  const missing = new Set<string>();
  const convert = converter(deps.config, missing);
  const rows: IsrDailyRowJson[] = [];
  const acc: Array<{ day: string; source: string; events: number; amount: number }> = [];
  for (const r of res.rows) {
    const last = acc[acc.length - 1];
    if (last && last.day === r.day && last.source === r.source) {
      last.events += r.events;
      last.amount += convert(r.currency, Number(r.amount));
    } else {
      acc.push({
        day: r.day,
        source: r.source,
        events: r.events,
        amount: convert(r.currency, Number(r.amount)),
      });
    }
  }
  warnMissing(deps, missing);
  for (const a of acc)
    rows.push({
      day: a.day,
      source: a.source,
      events: a.events,
      amount_cents: Math.round(a.amount),
    });
  return { rows, currency: deps.config.reportingCurrency };
}

/** GET /isr-metrics/affiliates: affiliates by net revenue (desc; then events desc, name), at most `limit` (1..100, default 12). */
export async function isrAffiliates(
  deps: AppDeps,
  q: Query,
  opts: IsrAggregateOptions = {},
): Promise<{ rows: IsrAffiliateRowJson[]; currency: string }> {
  const input = validate(affiliatesQuery, q);
  const limit = input.limit;
  const range = parseInstantRange(input, 'from', 'to', deps.now(), ISR_DEFAULT_DAYS);
  const params: unknown[] = [];
  const res = await readDbOf(deps).query<{
    affiliate: string;
    currency: string;
    events: number;
    amount: string;
  }>(
    `SELECT affiliate, currency, sum(events)::int AS events, sum(amount)::bigint AS amount
       FROM (${groupedRangeSql(range, params, {
         table: 'isr_daily_affiliate',
         raw: { affiliate: 'affiliate', currency: 'currency' },
         rawWhere: "affiliate IS NOT NULL AND affiliate <> ''",
         rollup: opts.rollup ?? true,
       })}) x
      GROUP BY affiliate, currency ORDER BY affiliate, currency`,
    params,
  );
  const missing = new Set<string>();
  const convert = converter(deps.config, missing);
  const by = new Map<string, { events: number; amount: number }>();
  for (const r of res.rows) {
    const a = by.get(r.affiliate) ?? { events: 0, amount: 0 };
    a.events += r.events;
    a.amount += convert(r.currency, Number(r.amount));
    by.set(r.affiliate, a);
  }
  warnMissing(deps, missing);
  const rows = [...by.entries()]
    .map(([affiliate, a]) => ({ affiliate, amount_cents: Math.round(a.amount), events: a.events }))
    .sort(
      (a, b) =>
        b.amount_cents - a.amount_cents ||
        b.events - a.events ||
        a.affiliate.localeCompare(b.affiliate),
    )
    .slice(0, limit);
  return { rows, currency: deps.config.reportingCurrency };
}

/** GET /isr-metrics/affiliates: the range and `limit` (1..100, default 12). */
const affiliatesQuery = rangeQuery.extend({
  limit: intParam('limit', 1, ISR_AFFILIATES_MAX_LIMIT, ISR_AFFILIATES_DEFAULT_LIMIT),
});

/** The exact filters of GET /isr-events (§7). */
const EXACT_FILTERS = ['affiliate', 'subid', 'receipt', 'order_id'] as const;

/** GET /isr-events: paging, the time range, free text, source and the exact filters (§7). */
const eventsQuery = z.object({
  ...pageParams(ISR_EVENTS_MAX_PAGE_SIZE, ISR_EVENTS_DEFAULT_PAGE_SIZE),
  time_from: instantText('time_from'),
  time_to: instantText('time_to'),
  q: textParam('q', 200),
  source: textParam('source', 40),
  affiliate: textParam('affiliate', 200),
  subid: textParam('subid', 200),
  receipt: textParam('receipt', 200),
  order_id: textParam('order_id', 200),
});

interface DbIsrRow {
  id: number | string;
  created_at: Date | string | null;
  source: string;
  order_id: string | null;
  receipt: string | null;
  product_id: string | null;
  amount_cents: number;
  currency: string;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customer_email: string | null;
  referrer: string | null;
}

/**
 * Events matching a search (the pattern parameter `pattern`, e.g. '$4') under the other filters
 * (`filtersSql`, a WHERE clause or ''; `params` hold the filters' values, then the pattern, last):
 * the exact count up to ISR_SEARCH_COUNT_CAP, or some number above the cap past it. A common text
 * is proved past the cap from the newest events under the filters, off their time-ordered
 * indexes: the trigram index would read every event that holds it (a tenth of the table for an
 * affiliate's name) before the filters apply. A rare one, or a window that falls short, is counted
 * through the trigram index, at most cap + 1 matches (../db/searchProbe.ts).
 */
async function countSearch(
  db: ReturnType<typeof readDbOf>,
  filtersSql: string,
  pattern: string,
  params: unknown[],
): Promise<number> {
  const matchSql = (a: string) =>
    `isr_search_text(${a}receipt, ${a}order_id, ${a}affiliate, ${a}customer_email, ${a}campaign) LIKE ${pattern} ESCAPE '\\'`;
  const columns = 'receipt, order_id, affiliate, customer_email, campaign, created_at, id';
  // The newest SEARCH_PROBE_ROWS events under the filters: the matches among them, how many there
  // were, and the last one's place in the order (created_at as exact UTC text, id).
  const probe = (
    await db.query<{ matches: number; seen: number; at: string | null; id: string | null }>(
      `SELECT (count(*) FILTER (WHERE ${matchSql('e.')}))::int AS matches, count(*)::int AS seen,
              (array_agg(to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
                         ORDER BY e.created_at, e.id))[1] AS at,
              (array_agg(e.id ORDER BY e.created_at, e.id))[1]::text AS id
         FROM (SELECT ${columns} FROM isr_events ${filtersSql}
                ORDER BY created_at DESC, id DESC LIMIT ${SEARCH_PROBE_ROWS}) e`,
      params,
    )
  ).rows[0] ?? { matches: 0, seen: 0, at: null, id: null };
  // Every event under the filters was read, or the cap is passed already.
  if (probe.seen < SEARCH_PROBE_ROWS || probe.matches > ISR_SEARCH_COUNT_CAP) return probe.matches;
  const window = commonSearchWindow(probe.matches, ISR_SEARCH_COUNT_CAP);
  if (window !== null && window > SEARCH_PROBE_ROWS) {
    // The walk goes on after the probe's last event, newest first, and stops at cap + 1 matches
    // in all: about (cap + 1) / share events for a common text.
    const after = [...params, probe.at, probe.id];
    const walk = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n
         FROM (SELECT 1 FROM (SELECT ${columns} FROM isr_events
                               ${filtersSql ? `${filtersSql} AND` : 'WHERE'}
                                 (created_at, id) < ($${after.length - 1}::timestamptz, $${after.length}::bigint)
                               ORDER BY created_at DESC, id DESC LIMIT ${window - SEARCH_PROBE_ROWS}) e
                WHERE ${matchSql('e.')} LIMIT ${ISR_SEARCH_COUNT_CAP + 1 - probe.matches}) x`,
      after,
    );
    const walked = probe.matches + (walk.rows[0]?.n ?? 0);
    if (walked > ISR_SEARCH_COUNT_CAP) return walked;
    // Not past the cap, so the whole window was read: every event under the filters when they
    // are fewer than the window.
    const fewer = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM isr_events ${filtersSql} LIMIT ${window}) x`,
      params.slice(0, -1),
    );
    if ((fewer.rows[0]?.n ?? 0) < window) return walked;
  }
  const counted = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n
       FROM (SELECT 1 FROM isr_events ${filtersSql} ${filtersSql ? 'AND' : 'WHERE'} ${matchSql('')}
              LIMIT ${ISR_SEARCH_COUNT_CAP + 1}) x`,
    params,
  );
  return counted.rows[0]?.n ?? 0;
}

/**
 * GET /isr-events (§2 search form, §7 ISR events list): newest first (created_at, then id). q
 * matches receipt, order id, affiliate, email and campaign (substring, case-insensitive);
 * source, affiliate, subid, receipt and order_id are exact (source case-insensitive; blank,
 * 'any' or 'all' = every source); time_from / time_to as the module doc (no default range).
 * page ≥ 1, pageSize 1..200 (default 50). Totals are exact, except with q: matches are counted
 * up to ISR_SEARCH_COUNT_CAP (1 000); past it total is the cap and totalCapped is true (the page
 * itself is still exact, at any page number). The total of a list filtered only by time, source
 * and subid is read from a daily roll-up (whole days) and the events (partial days), as the
 * aggregates do (`opts`). Throws 400 on any malformed parameter.
 */
export async function listIsrEvents(
  deps: AppDeps,
  q: Query,
  opts: IsrAggregateOptions = {},
): Promise<IsrEventsPageJson> {
  const input = validate(eventsQuery, q);
  const { page, pageSize, q: search } = input;
  const range = parseInstantRange(input, 'time_from', 'time_to', deps.now(), null);
  const params: unknown[] = [];
  const where = rangeSql(range, params);
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  const source = input.source?.toLowerCase();
  if (source !== undefined && source !== 'any' && source !== 'all') add('source = ?', source);
  for (const name of EXACT_FILTERS) {
    const v = input[name];
    if (v !== undefined) add(`${name} = ?`, v);
  }
  // The other filters alone, before the search's condition joins them (countSearch).
  const filtersSql = whereOf(where);
  if (search !== undefined) {
    add(
      `isr_search_text(receipt, order_id, affiliate, customer_email, campaign) LIKE ? ESCAPE '\\'`,
      containsPattern(search),
    );
  }
  const n = params.length;
  const rowsRes = await readDbOf(deps).query<DbIsrRow>(
    `SELECT id, created_at, source, order_id, receipt, product_id, amount_cents, currency, affiliate, subid,
            campaign, customer_email, referrer
       FROM isr_events ${whereOf(where)}
      ORDER BY created_at DESC, id DESC LIMIT $${n + 1}::int OFFSET $${n + 2}::int`,
    [...params, pageSize, (page - 1) * pageSize],
  );
  let total: number;
  let totalCapped = false;
  if (page === 1 && rowsRes.rows.length < pageSize) total = rowsRes.rows.length;
  else if (search !== undefined) {
    // The search's pattern is the last parameter ($n).
    total = await countSearch(readDbOf(deps), filtersSql, `$${n}`, params);
    if (total > ISR_SEARCH_COUNT_CAP) {
      total = ISR_SEARCH_COUNT_CAP;
      totalCapped = true;
    }
  } else if (EXACT_FILTERS.every((name) => name === 'subid' || input[name] === undefined)) {
    // Only the time range, source and subid: exact from a daily roll-up (isr_daily, or
    // isr_daily_subid with a subid) plus the partial edge days. The console's default list, every
    // ClickBank event, or a common subid would otherwise count most of the table.
    const bySubid = input.subid !== undefined;
    const countParams: unknown[] = [];
    const grouped = groupedRangeSql(range, countParams, {
      table: bySubid ? 'isr_daily_subid' : 'isr_daily',
      raw: bySubid ? { source: 'source', subid: 'subid' } : { source: 'source' },
      rollup: opts.rollup ?? true,
    });
    const outer: string[] = [];
    if (source !== undefined && source !== 'any' && source !== 'all') {
      countParams.push(source);
      outer.push(`source = $${countParams.length}`);
    }
    if (bySubid) {
      countParams.push(input.subid);
      outer.push(`subid = $${countParams.length}`);
    }
    const countRes = await readDbOf(deps).query<{ n: number }>(
      `SELECT COALESCE(sum(events), 0)::int AS n FROM (${grouped}) x ${whereOf(outer)}`,
      countParams,
    );
    total = countRes.rows[0]?.n ?? 0;
  } else {
    const countRes = await readDbOf(deps).query<{ n: number }>(
      `SELECT count(*)::int AS n FROM isr_events ${whereOf(where)}`,
      params,
    );
    total = countRes.rows[0]?.n ?? 0;
  }
  return {
    rows: rowsRes.rows.map((r) => ({
      id: Number(r.id),
      created_at: iso(r.created_at),
      source: r.source,
      order_id: r.order_id,
      receipt: r.receipt,
      product_id: r.product_id,
      amount_cents: Number(r.amount_cents),
      currency: r.currency,
      affiliate: r.affiliate,
      subid: r.subid,
      campaign: r.campaign,
      customer_email: r.customer_email,
      referrer: r.referrer,
    })),
    total,
    page,
    pageSize,
    totalCapped,
  };
}

/** ISR router (paths relative to the API prefix); see the module doc. */
export function isrRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/isr-metrics/summary', async (c) => c.json(await isrSummary(deps, c.req.query())));
  r.get('/isr-metrics/daily', async (c) => c.json(await isrDaily(deps, c.req.query())));
  r.get('/isr-metrics/affiliates', async (c) => c.json(await isrAffiliates(deps, c.req.query())));
  r.get('/isr-events', async (c) => c.json(await listIsrEvents(deps, c.req.query())));
  return r;
}
