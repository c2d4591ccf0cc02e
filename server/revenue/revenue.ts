/**
 * GET /metrics/revenue and GET /metrics/revenue/movements/:date (docs/metrics.md defines every
 * figure, docs/api.md "Revenue" the JSON). They read the MRR history of migrations 015 and 018:
 * the monthly and daily roll-ups (revenue_monthly, revenue_daily, and without filters the
 * narrower revenue_daily_kinds of 031) for whole months and days, revenue_movements for the part
 * of a day before an instant, the recurring-customer roll-ups (revenue_customers_monthly,
 * revenue_customers_daily) for the customers at an instant, revenue_retained_daily (029) for the
 * customers of the start without filters, and revenue_spans for the customers of the start under
 * filters and those whose spans change on the last day.
 *
 * Money: each movement is a sum of per-subscription deltas in twelfths of a cent of its currency,
 * converted with the configured rates (server/fx.ts). Converted money is rounded so that the
 * identity MRR(end) − MRR(start) = new + expansion + reactivation − contraction − churn holds
 * exactly in cents: the movements are taken in order (bucket by bucket, MOVEMENT_KINDS within a
 * bucket) as signed steps from the unrounded MRR at the start, and each reports the difference of
 * the rounded running totals; the last step ends on mrr_end_cents, which is rounded as the
 * dashboard rounds its MRR (server/stats monthlyRecurringCents), so a range ending now reports the
 * dashboard's MRR.
 */
import { readDbOf, type AppDeps, type ServerConfig } from '../context';
import { dayText, parseDay } from '../routes/metrics';
import { reportingRate } from '../fx';
import { monthlyRecurringCents } from '../stats';
import { CADENCES, PROVIDERS, type Cadence } from '../vocabulary';
import { badRequest } from '../errors';
import {
  bucketDates,
  DAY_MS,
  filterSql,
  monthStart,
  MOVEMENT_KINDS,
  movementSource,
  parseRevenueQuery,
  type MovementKind,
  type RevenueRange,
} from './query';

/** One bucket of GET /metrics/revenue: the movements in reporting cents, all ≥ 0. */
export interface MovementRow {
  /** First day of the bucket, 'YYYY-MM-DD' (UTC). */
  date: string;
  new_cents: number;
  expansion_cents: number;
  contraction_cents: number;
  churn_cents: number;
  reactivation_cents: number;
}

/** GET /metrics/revenue body (docs/api.md "Revenue"). Money in cents of `currency`; rates are fractions. */
export interface RevenueJson {
  currency: string;
  range: { from: string; to: string; interval: 'day' | 'month' };
  mrr_start_cents: number;
  mrr_end_cents: number;
  movements: MovementRow[];
  /** MRR at the end of each bucket (at `now` for the bucket holding it), one per movement row. */
  mrr_series: Array<{ date: string; mrr_cents: number }>;
  customers_start: number;
  customers_end: number;
  customers_churned: number;
  /** customers_churned / customers_start; null when no customer recurred at the start. */
  customer_churn_rate: number | null;
  /** (churn + contraction) / mrr_start; null when mrr_start is 0. */
  mrr_churn_rate: number | null;
  nrr: number | null;
  quick_ratio: number | null;
  arpa_cents: number | null;
  ltv_cents: number | null;
  /** MRR at the end by provider and by plan (cents), largest first. */
  mrr_by_provider: Array<{ provider: string; mrr_cents: number }>;
  mrr_by_plan: Array<{ plan: string; mrr_cents: number }>;
}

/** Twelfths of a cent per (currency, cadence). */
type Groups = Map<string, number>;
const key = (currency: string, cadence: string) => `${currency}\u0000${cadence}`;

function addTo(g: Groups, currency: string, cadence: string, twelfths: number): void {
  const k = key(currency, cadence);
  g.set(k, (g.get(k) ?? 0) + twelfths);
}

/** The groups as monthlyRecurringCents takes them (monthly: cents; yearly: the yearly cents), sorted. */
function dashboardGroups(g: Groups) {
  return [...g.entries()]
    .map(([k, t]) => {
      const [currency = '', cadence = 'monthly'] = k.split('\u0000');
      return {
        currency,
        cadence: cadence as Cadence,
        sum_cents: cadence === 'yearly' ? t : t / 12,
      };
    })
    .sort((a, b) => a.currency.localeCompare(b.currency) || a.cadence.localeCompare(b.cadence));
}

/** Unrounded reporting cents of some groups (the dashboard's sum before its one rounding). */
function exactCents(g: Groups, config: ServerConfig, missing: Set<string>): number {
  let total = 0;
  for (const d of dashboardGroups(g)) {
    const rate = reportingRate(config, d.currency);
    if (rate == null) {
      missing.add(d.currency);
      continue;
    }
    total += rate * (d.cadence === 'yearly' ? d.sum_cents / 12 : d.sum_cents);
  }
  return total;
}

/** Rounded reporting cents of some groups, exactly as the dashboard rounds its MRR. */
function roundedCents(g: Groups, config: ServerConfig, missing: Set<string>): number {
  return monthlyRecurringCents(dashboardGroups(g), config, missing);
}

const num = (v: unknown): number => (v == null ? 0 : Number(v));

/**
 * The rows of `sql` as one JSON text: PGlite hands a row back far more slowly than PostgreSQL
 * builds it, so a statement of hundreds of rows returns them in a single value instead. Values
 * arrive as JSON does (text stays text; cast sums ::text to keep every digit).
 */
async function jsonRows<T>(db: AppDeps['db'], sql: string, params: unknown[]): Promise<T[]> {
  const res = await db.query<{ j: string }>(
    `SELECT COALESCE(json_agg(x), '[]')::text AS j FROM (${sql}) x`,
    params,
  );
  return JSON.parse(res.rows[0]?.j ?? '[]') as T[];
}

/** The bucket (first day 'YYYY-MM-DD') of a UTC day 'YYYY-MM-DD'. */
function bucketOf(day: string, r: RevenueRange): string {
  if (r.interval === 'day') return day;
  return dayText(monthStart(parseDay(day) ?? r.fromMs));
}

/**
 * Computes GET /metrics/revenue for the query `q` at the clock `now` (see the module doc and
 * docs/metrics.md). Throws 400 on a bad query; database failures propagate.
 */
export async function revenueOverview(
  deps: AppDeps,
  q: Record<string, string | undefined>,
): Promise<RevenueJson> {
  const { config } = deps;
  const db = readDbOf(deps);
  const r = parseRevenueQuery(q, deps.now());
  const missing = new Set<string>();

  // MRR at the start: every movement before the first day.
  const startParams: unknown[] = [];
  const sf = filterSql(r, startParams, 'd');
  const startSource = movementSource(
    { lo: null, hi: r.fromMs, closed: false, bucket: 'month' },
    startParams,
    {
      select: () => 'd.currency, d.cadence, sum(d.delta_twelfths) AS t',
      where: sf.where.map((w) => `AND ${w}`).join(' '),
      groupBy: '1, 2',
    },
  );
  // Movements in the range by bucket: whole months (monthly buckets) and days from the roll-ups
  // (without filters, whole days from the narrow one), the rest of the last day from the rows.
  const rangeParams: unknown[] = [];
  const rf = filterSql(r, rangeParams, 'd');
  const rangeSource = movementSource(
    { lo: r.fromMs, hi: r.endMs, closed: false, bucket: r.interval },
    rangeParams,
    {
      select: (b) =>
        `${b} AS b, d.currency, d.cadence, ${rf.kind} AS kind, sum(d.delta_twelfths) AS t`,
      where: rf.where.map((w) => `AND ${w}`).join(' '),
      groupBy: '1, 2, 3, 4',
      narrowDays:
        rf.where.length === 0
          ? {
              select: (b) => `${b} AS b, d.currency, d.cadence, d.kind, sum(d.delta_twelfths) AS t`,
              groupBy: '1, 2, 3, 4',
            }
          : undefined,
    },
  );
  // The MRR statements and the customer statements are independent: two lanes, each one
  // statement at a time, so a request holds at most two pooled connections.
  const [[startRows, rows, breakdown, customersEndAt], customers] = await Promise.all([
    (async () => {
      const startRows = await db.query<{ currency: string; cadence: string; t: string }>(
        `SELECT u.currency, u.cadence, sum(u.t)::text AS t FROM ${startSource} u GROUP BY 1, 2`,
        startParams,
      );
      // A row per bucket, currency and kind, with the twelfths of each cadence (null when none):
      // half the rows of one per cadence, for the same groups.
      const rows = await jsonRows<{
        day: string;
        currency: string;
        kind: MovementKind;
        monthly: string | null;
        yearly: string | null;
      }>(
        db,
        `SELECT to_char(u.b, 'YYYY-MM-DD') AS day, u.currency, u.kind,
                (sum(u.t) FILTER (WHERE u.cadence = 'monthly'))::text AS monthly,
                (sum(u.t) FILTER (WHERE u.cadence = 'yearly'))::text AS yearly
           FROM ${rangeSource} u
          GROUP BY u.b, 2, 3`,
        rangeParams,
      );
      const breakdown = await mrrBreakdown(deps, r, missing);
      // The customers at the end ride this lane: the other follows the customers of the start
      // through the range, the longest statement of the request under a filter.
      const endCount = r.endMs === r.fromMs ? null : await customersAt(deps, r, r.endMs);
      return [startRows, rows, breakdown, endCount] as const;
    })(),
    customerFigures(deps, r),
  ]);
  const customersEnd = customersEndAt ?? customers.start;
  const start: Groups = new Map();
  for (const row of startRows.rows) addTo(start, row.currency, row.cadence, num(row.t));

  // Per bucket and kind: twelfths per (currency, cadence).
  const dates = bucketDates(r);
  const perBucket = new Map<string, Map<MovementKind, Groups>>();
  for (const d of dates) perBucket.set(d, new Map(MOVEMENT_KINDS.map((k) => [k, new Map()])));
  const end: Groups = new Map(start);
  for (const row of rows) {
    const b = perBucket.get(bucketOf(row.day, r))?.get(row.kind);
    for (const cadence of CADENCES) {
      const t = row[cadence];
      if (t === null) continue;
      if (b) addTo(b, row.currency, cadence, num(t));
      addTo(end, row.currency, cadence, num(t));
    }
  }

  const mrrStart = roundedCents(start, config, missing);
  const mrrEnd = roundedCents(end, config, missing);
  // Cumulative rounding (module doc): each step is the change of the rounded running total.
  let running = exactCents(start, config, missing);
  let shown = mrrStart;
  const steps: Array<{ date: string; kind: MovementKind; groups: Groups }> = [];
  for (const d of dates) {
    for (const k of MOVEMENT_KINDS) {
      const g = perBucket.get(d)?.get(k);
      if (g && g.size > 0) steps.push({ date: d, kind: k, groups: g });
    }
  }
  const byDate = new Map<string, MovementRow>(
    dates.map((d) => [
      d,
      {
        date: d,
        new_cents: 0,
        expansion_cents: 0,
        contraction_cents: 0,
        churn_cents: 0,
        reactivation_cents: 0,
      },
    ]),
  );
  const mrrAfter = new Map<string, number>();
  steps.forEach((s, i) => {
    running += exactCents(s.groups, config, missing);
    const next = i === steps.length - 1 ? mrrEnd : Math.round(running);
    const change = next - shown;
    shown = next;
    const row = byDate.get(s.date);
    if (row) {
      const field = `${s.kind}_cents` as const;
      row[field] += s.kind === 'contraction' || s.kind === 'churn' ? -change : change;
    }
    mrrAfter.set(s.date, shown);
  });
  const movements = dates.map((d) => byDate.get(d) as MovementRow);
  let level = mrrStart;
  const mrr_series = dates.map((d) => {
    level = mrrAfter.get(d) ?? level;
    return { date: d, mrr_cents: level };
  });

  const totals = { new: 0, expansion: 0, reactivation: 0, contraction: 0, churn: 0 };
  for (const m of movements) {
    totals.new += m.new_cents;
    totals.expansion += m.expansion_cents;
    totals.reactivation += m.reactivation_cents;
    totals.contraction += m.contraction_cents;
    totals.churn += m.churn_cents;
  }

  let nrrNumerator = exactCents(start, config, missing);
  for (const t of customers.retained) nrrNumerator += exactCents(t, config, missing);
  const months = (r.endMs - r.fromMs) / DAY_MS / (365.25 / 12);
  const customerChurnRate = customers.start > 0 ? customers.churned / customers.start : null;
  const arpa = customersEnd > 0 ? Math.round(mrrEnd / customersEnd) : null;
  const monthlyChurn = customerChurnRate != null && months > 0 ? customerChurnRate / months : null;
  const ltv =
    arpa != null && monthlyChurn != null && monthlyChurn > 0
      ? Math.round(arpa / monthlyChurn)
      : null;
  const nrrCohort = Math.round(nrrNumerator);
  const lost = totals.contraction + totals.churn;

  if (missing.size > 0) {
    deps.log.warn(
      { currencies: [...missing] },
      'revenue: no FX rate for these currencies; left out of money figures',
    );
  }
  const ratio = (a: number, b: number): number | null =>
    b === 0 ? null : Math.round((a / b) * 1_000_000) / 1_000_000;
  return {
    currency: config.reportingCurrency,
    range: { from: r.from, to: r.to, interval: r.interval },
    mrr_start_cents: mrrStart,
    mrr_end_cents: mrrEnd,
    movements,
    mrr_series,
    customers_start: customers.start,
    customers_end: customersEnd,
    customers_churned: customers.churned,
    customer_churn_rate:
      customerChurnRate == null ? null : ratio(customers.churned, customers.start),
    mrr_churn_rate: ratio(lost, mrrStart),
    nrr: mrrStart === 0 ? null : ratio(nrrCohort, mrrStart),
    quick_ratio: ratio(totals.new + totals.expansion + totals.reactivation, lost),
    arpa_cents: arpa,
    ltv_cents: ltv,
    mrr_by_provider: breakdown.byProvider,
    mrr_by_plan: breakdown.byPlan,
  };
}

/** The condition "span alias `a` recurs at the instant parameter `p`". */
const recursAt = (a: string, p: string) =>
  `${a}.valid_from <= ${p} AND (${a}.valid_to IS NULL OR ${a}.valid_to > ${p})`;

/**
 * Without filters: the expansion, contraction and churn movements of the range [A, B) whose
 * customer recurred at its start A (a UTC midnight), as rows (currency, t: twelfths summed) and a
 * ROLLUP total row (currency null) whose `churned` counts the customers of the start who churned.
 * A movement's customer recurred at A when its streak (migration 028) began at or before A (but a
 * churn at A itself ends every span then), or when the customer recurred first before A and an
 * earlier streak covered A (a churn and a reactivation in between: probed from its spans). A
 * customer of the start who churned has exactly one churn in the streak covering A, so the
 * customers churned are the flips of those churns. The streaks of months before A's month come
 * from revenue_retained_daily (migration 029) for whole days; those that began in A's month and
 * the last, partial day from the movements.
 */
function retainedSql(r: RevenueRange): { sql: string; params: unknown[] } {
  const endDay = Math.floor(r.endMs / DAY_MS) * DAY_MS;
  const params = [
    new Date(r.fromMs).toISOString(), // $1 A
    new Date(r.endMs).toISOString(), // $2 B
    dayText(r.fromMs), // $3 A's day
    dayText(endDay), // $4 B's day
    dayText(monthStart(r.fromMs)), // $5 A's month
    new Date(endDay).toISOString(), // $6 B's day, as an instant
    new Date(monthStart(r.fromMs)).toISOString(), // $7 A's month, as an instant
  ];
  // Every part reads (currency, delta, churn flips of the streak covering A).
  const retained = `m.kind_alone IN ('expansion', 'contraction', 'churn')`;
  const churnFlips = `COALESCE(sum(m.flip) FILTER (WHERE m.kind_alone = 'churn'), 0)`;
  // The movements of later streaks are few, and read off revenue_movements_restreak_idx before
  // their probes: planned with them, each row of the range is charged a probe, and intersecting
  // two large indexes looks cheaper. One probe each, not the hash of every span recurring at A
  // that an EXISTS may be planned as.
  const sql = `WITH later AS MATERIALIZED (
       SELECT m.customer_id, m.currency, m.delta_twelfths
         FROM revenue_movements m
        WHERE ${retained} AND m.streak_from > m.first_from
          AND m.at >= $1::timestamptz AND m.at < $2::timestamptz
          AND m.first_from <= $1::timestamptz AND m.streak_from > $1::timestamptz)
    SELECT u.currency, sum(u.t)::text AS t, (-COALESCE(sum(u.flips), 0))::int AS churned
      FROM (
        -- Whole days, streaks of the months before A's.
        SELECT d.currency, sum(d.delta_twelfths) AS t, sum(d.churn_flips) AS flips
          FROM revenue_retained_daily d
         WHERE d.day >= $3::date AND d.day < $4::date AND d.streak_month < $5::date
         GROUP BY 1
        UNION ALL
        -- Less a churn at A itself: its customer did not recur at A.
        SELECT m.currency, -sum(m.delta_twelfths), -${churnFlips}
          FROM revenue_movements m
         WHERE ${retained} AND m.at = $1::timestamptz AND m.kind_alone = 'churn'
           AND m.streak_from < $7::timestamptz AND $3::date < $4::date
         GROUP BY 1
        UNION ALL
        -- The last, partial day, streaks of the months before A's.
        SELECT m.currency, sum(m.delta_twelfths), ${churnFlips}
          FROM revenue_movements m
         WHERE ${retained} AND m.at >= $6::timestamptz AND m.at < $2::timestamptz
           AND m.streak_from < $7::timestamptz AND NOT (m.at = $1::timestamptz AND m.kind_alone = 'churn')
         GROUP BY 1
        UNION ALL
        -- Streaks that began in A's month, at or before A.
        SELECT m.currency, sum(m.delta_twelfths), ${churnFlips}
          FROM revenue_movements m
         WHERE ${retained} AND m.streak_from >= $7::timestamptz AND m.streak_from <= $1::timestamptz
           AND m.at >= $1::timestamptz AND m.at < $2::timestamptz
           AND NOT (m.at = $1::timestamptz AND m.kind_alone = 'churn')
         GROUP BY 1
        UNION ALL
        -- Later streaks of customers who recurred first before A and recurred at A (churns of a
        -- later streak are no customer of the start churning).
        SELECT l.currency, sum(l.delta_twelfths), 0
          FROM later l
         WHERE (SELECT true FROM revenue_spans s
                 WHERE s.customer_id = l.customer_id AND ${recursAt('s', '$1::timestamptz')} LIMIT 1)
         GROUP BY 1
      ) u
     GROUP BY ROLLUP (u.currency)`;
  return { sql, params };
}

/**
 * Customers recurring at the start, those of them who churned in the range, and what the NRR
 * numerator adds to the MRR at the start: the expansion − contraction − churn of the customers
 * recurring at the start (reactivations left out), as monthly groups of twelfths per currency
 * (`retained`, one per currency, in the statement's order). The count comes from customersAt;
 * one statement follows the movements of the customers of the start (none when there are none):
 * without filters retainedSql's; under filters the customers of the start are those with a
 * matching span recurring then, which the planner probes or hashes.
 */
async function customerFigures(
  deps: AppDeps,
  r: RevenueRange,
): Promise<{ start: number; churned: number; retained: Groups[] }> {
  const db = readDbOf(deps);
  const customersStart = await customersAt(deps, r, r.fromMs);
  let churned = 0;
  const retained: Groups[] = [];
  // Without customers at the start there are none to follow through the range.
  if (customersStart > 0) {
    const params: unknown[] = [new Date(r.fromMs).toISOString(), new Date(r.endMs).toISOString()];
    const mf = filterSql(r, [...params], 'm');
    const pf = filterSql(r, [...params], 'p');
    const sf = filterSql(r, params, 's');
    const unfiltered = mf.where.length === 0 ? retainedSql(r) : null;
    // Both sides are read off indexes keyed (provider, cadence, time) (migration 039): a filter
    // on one of the two bounds the other by every value it can take (CHECKed there), so the
    // scan descends once per value within the range instead of reading the whole provider.
    const open: Array<[string, readonly string[]]> = [];
    if (r.provider && !r.cadence) open.push(['cadence', CADENCES]);
    if (r.cadence && !r.provider) open.push(['provider', PROVIDERS]);
    for (const [column, values] of open) {
      params.push(values);
      mf.where.push(`m.${column} = ANY($${params.length}::text[])`);
      sf.where.push(`s.${column} = ANY($${params.length}::text[])`);
    }
    const and = (where: string[]) => where.map((w) => `AND ${w}`).join(' ');
    const startSpan = (c: string) =>
      `SELECT 1 FROM revenue_spans s WHERE s.customer_id = ${c}.customer_id AND ${recursAt('s', '$1')} ${and(sf.where)}`;
    // Only the movements read here (expansion, contraction and churn; a piece of a split change
    // has kind_net among them too), and only those of customers who first recurred at or before
    // the start (migration 028): a customer recurring under a filter recurs, so the others cannot
    // count.
    const read = `m.at >= $1 AND m.at < $2 ${and(mf.where)}
          AND m.kind_alone IN ('expansion', 'contraction', 'churn') AND m.first_from <= $1`;
    // Per currency: the numerator, and the churned customers counted by their churn's flip piece
    // in the streak covering the start (migration 044).
    const sums = `m.currency,
              (sum(m.delta_twelfths) FILTER (WHERE ${mf.kind} IN ('expansion', 'contraction', 'churn')))::text AS t,
              (count(*) FILTER (WHERE m.kind_alone = 'churn' AND m.flip = -1 AND m.streak_from <= $1))::int AS churned`;
    // The movement and probe filters reuse the span filters' parameters (same values, same order).
    // Under a plan filter every movement is probed: the planner hashes the spans recurring at the
    // start. Under a provider or cadence filter alone, a movement whose customer's spans all share
    // its provider and cadence (migration 048's uniform bits: 1 provider, 2 cadence) recurred
    // under the filters at the start when the customer did: when its streak began at or before
    // it, but for a churn at the start itself, which ends every span then. The first branch sums
    // those in the parallel workers, with no probe. The next two probe the others: the customers
    // mixed in a filtered dimension (off revenue_movements_mixed_idx), and the uniform ones in a
    // later streak (few: read off revenue_movements_restreak_idx of migration 029 before the
    // filters, else the planner reads the filter's whole slice of the range for them); a churn
    // at the start of a uniform customer in its first streak is in neither, and no span recurs
    // then. The last counts the churned customers the flip pieces miss, distinct, less those
    // already counted.
    let later = '';
    let branches = `SELECT ${sums} FROM revenue_movements m WHERE ${read} AND EXISTS (${startSpan('m')}) GROUP BY 1`;
    if (!r.plan) {
      // The values of uniform that share the filtered dimensions, and those that do not (a list,
      // not a bit test, so that the planner estimates it from the column's statistics).
      const bits = (r.provider ? 1 : 0) | (r.cadence ? 2 : 0);
      params.push([0, 1, 2, 3].filter((u) => (u & bits) === bits));
      const uniform = `$${params.length}::smallint[]`;
      params.push([0, 1, 2].filter((u) => (u & bits) !== bits));
      // With the partial index's own condition beside it (uniform <> 3), which the list implies,
      // so that the planner reads revenue_movements_mixed_idx.
      const mixed = `$${params.length}::smallint[]`;
      later = `later AS MATERIALIZED (
         SELECT m.* FROM revenue_movements m
          WHERE m.kind_alone IN ('expansion', 'contraction', 'churn') AND m.streak_from > m.first_from
            AND m.at >= $1 AND m.at < $2 AND m.first_from <= $1 AND m.streak_from > $1
       ),`;
      branches = `SELECT ${sums} FROM revenue_movements m
        WHERE ${read} AND m.uniform = ANY(${uniform}) AND m.streak_from <= $1
          AND NOT (m.at = $1 AND m.kind_alone = 'churn')
        GROUP BY 1
       UNION ALL
       SELECT ${sums} FROM revenue_movements m
        WHERE ${read} AND m.uniform <> 3 AND m.uniform = ANY(${mixed}) AND EXISTS (${startSpan('m')})
        GROUP BY 1
       UNION ALL
       SELECT ${sums} FROM later m
        WHERE ${read} AND m.uniform = ANY(${uniform}) AND EXISTS (${startSpan('m')})
        GROUP BY 1`;
    }
    const res = await db.query<{ currency: string | null; t: string | null; churned: number }>(
      unfiltered?.sql ??
        `WITH ${later} rest AS MATERIALIZED (
         SELECT m.customer_id FROM revenue_movements m
          WHERE m.kind_alone = 'churn' AND (m.flip = 0 OR m.streak_from > m.first_from)
            AND m.at >= $1 AND m.at < $2 ${and(mf.where)}
            AND m.first_from <= $1 AND NOT (m.flip = -1 AND m.streak_from <= $1)
       )
       ${branches}
       UNION ALL
       -- Probed one by one (an aggregate, not LIMIT 1, so each probe keys on the customer).
       SELECT NULL, NULL, (count(DISTINCT x.customer_id))::int
         FROM rest x
        WHERE (SELECT count(*) FROM (${startSpan('x')}) y) > 0
          AND (SELECT count(*) FROM revenue_movements p
                WHERE p.customer_id = x.customer_id AND p.kind_alone = 'churn' AND p.flip = -1
                  AND p.streak_from <= $1 AND p.at >= $1 AND p.at < $2 ${and(pf.where)}) = 0`,
      unfiltered?.params ?? params,
    );
    for (const row of res.rows) {
      // Without filters the ROLLUP's total row (currency null) carries the customers churned;
      // under filters every row carries its part of them.
      if (!unfiltered || row.currency == null) churned += row.churned;
      if (row.currency != null && row.t != null)
        retained.push(new Map([[key(row.currency, 'monthly'), num(row.t)]]));
    }
  }
  return { start: customersStart, churned, retained };
}

/**
 * Customers with a span recurring under the filters at the instant `at` (epoch ms; a span starting
 * then counts, one ending then does not). The roll-ups of migration 018 give the count just before
 * the UTC midnight D of `at` (whole months from revenue_customers_monthly, the days of the last
 * one from revenue_customers_daily); each customer with a movement under the filters in [D, at]
 * then adds whether it recurs at `at` less whether it recurred just before D, read from its spans.
 * Without filters those are the customer's flips in [D, at] (+1 for each customer-level start:
 * new or reactivation; −1 for each churn; a start and a churn never share an instant).
 */
async function customersAt(deps: AppDeps, r: RevenueRange, at: number): Promise<number> {
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  const plan = r.plan?.toLowerCase();
  const g = (r.provider ? 1 : 0) | (plan ? 2 : 0) | (r.cadence ? 4 : 0);
  const params: unknown[] = [
    g,
    r.provider ?? '',
    plan ?? '',
    r.cadence ?? '',
    dayText(monthStart(day)),
    dayText(day),
    new Date(day).toISOString(),
    new Date(at).toISOString(),
  ];
  const mf = filterSql(r, [...params], 'm');
  const sf = filterSql(r, params, 's');
  // The movement filters reuse the span filters' parameters (same values, same order).
  const shape = 'c.g = $1 AND c.provider = $2 AND c.plan = $3 AND c.cadence = $4';
  // Without filters the flips of [D, at]; under filters, per customer with a movement then, whether
  // it recurs at `at` less whether it recurred just before D.
  const change =
    mf.where.length === 0
      ? `SELECT COALESCE(sum(m.flip), 0) AS d FROM revenue_movements m
          WHERE m.at >= $7::timestamptz AND m.at <= $8::timestamptz`
      : `SELECT (bool_or(${recursAt('s', '$8::timestamptz')}))::int
                - (bool_or(s.valid_from < $7::timestamptz))::int AS d
           FROM (SELECT DISTINCT m.customer_id FROM revenue_movements m
                  WHERE m.at >= $7::timestamptz AND m.at <= $8::timestamptz
                        ${mf.where.map((w) => `AND ${w}`).join(' ')}) t
           JOIN revenue_spans s ON s.customer_id = t.customer_id
                AND s.valid_from <= $8::timestamptz
                AND (s.valid_to IS NULL OR s.valid_to >= $7::timestamptz)
                ${sf.where.map((w) => `AND ${w}`).join(' ')}
          GROUP BY t.customer_id`;
  const res = await readDbOf(deps).query<{ n: number }>(
    `WITH change AS (${change})
     SELECT ((SELECT COALESCE(sum(c.customers), 0) FROM revenue_customers_monthly c
               WHERE ${shape} AND c.month < $5::date)
             + (SELECT COALESCE(sum(c.customers), 0) FROM revenue_customers_daily c
                 WHERE ${shape} AND c.day >= $5::date AND c.day < $6::date)
             + (SELECT COALESCE(sum(d), 0) FROM change))::int AS n`,
    params,
  );
  return res.rows[0]?.n ?? 0;
}

/** MRR at the end of the range by provider and by plan, in reporting cents, largest first. */
async function mrrBreakdown(
  deps: AppDeps,
  r: RevenueRange,
  missing: Set<string>,
): Promise<{
  byProvider: Array<{ provider: string; mrr_cents: number }>;
  byPlan: Array<{ plan: string; mrr_cents: number }>;
}> {
  // The spans recurring at the end are the movements up to it (inclusive), summed per key.
  const params: unknown[] = [];
  const f = filterSql(r, params, 'd');
  const source = movementSource({ lo: null, hi: r.endMs, closed: true, bucket: 'month' }, params, {
    select: () => 'd.provider, d.plan, d.currency, sum(d.delta_twelfths) AS t',
    where: f.where.map((w) => `AND ${w}`).join(' '),
    groupBy: '1, 2, 3',
  });
  const res = await readDbOf(deps).query<{
    provider: string;
    plan: string;
    currency: string;
    t: string;
  }>(
    `SELECT u.provider, u.plan, u.currency, sum(u.t)::text AS t FROM ${source} u
      GROUP BY 1, 2, 3
     HAVING sum(u.t) <> 0`,
    params,
  );
  const provider = new Map<string, Groups>();
  const plan = new Map<string, Groups>();
  for (const row of res.rows) {
    for (const [m, k] of [
      [provider, row.provider],
      [plan, row.plan],
    ] as const) {
      const g = m.get(k) ?? new Map();
      addTo(g, row.currency, 'monthly', num(row.t));
      m.set(k, g);
    }
  }
  const list = (m: Map<string, Groups>) =>
    [...m.entries()]
      .map(([k, g]) => ({ k, cents: Math.round(exactCents(g, deps.config, missing)) }))
      .sort((a, b) => b.cents - a.cents || a.k.localeCompare(b.k));
  return {
    byProvider: list(provider).map((e) => ({ provider: e.k, mrr_cents: e.cents })),
    byPlan: list(plan).map((e) => ({ plan: e.k, mrr_cents: e.cents })),
  };
}

/** One subscription behind a movement bar. */
export interface MovementSubscriptionRow {
  subscription_id: number;
  customer_id: number;
  email: string;
  provider: string;
  plan: string;
  cadence: string;
  currency: string;
  /** ISO instant (UTC) of the change. */
  at: string;
  kind: MovementKind;
  /** The change of the subscription's MRR in cents of its own currency (signed; yearly / 12, rounded). */
  delta_cents: number;
  /** The same in cents of the reporting currency (signed, rounded); null without a rate. */
  delta_reporting_cents: number | null;
}

/** Rows listed per bar at most (the largest changes first). */
export const MOVEMENT_LIST_LIMIT = 500;

/**
 * GET /metrics/revenue/movements/:date: the subscription changes behind one bar (the bucket
 * starting at `date` with `interval`, clipped to from/to when given), of one `kind` or all, under
 * the same filters as GET /metrics/revenue. 400 for a bad date or query.
 */
export async function movementList(
  deps: AppDeps,
  date: string,
  q: Record<string, string | undefined>,
): Promise<{
  date: string;
  interval: 'day' | 'month';
  kind: MovementKind | null;
  total: number;
  rows: MovementSubscriptionRow[];
}> {
  const dayMs = parseDay(date);
  if (dayMs === null) throw badRequest(`date must be a UTC day 'YYYY-MM-DD' (got '${date}')`);
  const r = parseRevenueQuery(
    { ...q, from: q.from ?? date, interval: q.interval ?? 'day' },
    deps.now(),
  );
  const bucketStart = r.interval === 'month' ? monthStart(dayMs) : dayMs;
  const bucketEnd = r.interval === 'month' ? monthStart(dayMs, 1) : dayMs + DAY_MS;
  const lo = Math.max(bucketStart, q.from ? r.fromMs : bucketStart);
  const hi = Math.min(bucketEnd, r.endMs);
  const params: unknown[] = [new Date(lo).toISOString(), new Date(Math.max(lo, hi)).toISOString()];
  const f = filterSql(r, params, 'm');
  const kindFilter = r.kind ? `AND (${f.kind}) = $${params.push(r.kind)}` : '';
  const res = await readDbOf(deps).query<{
    subscription_id: string;
    customer_id: string;
    email: string;
    provider: string;
    plan: string;
    cadence: string;
    currency: string;
    at: Date;
    kind: MovementKind;
    t: string;
    total: number;
  }>(
    `SELECT m.subscription_id, m.customer_id, c.email, m.provider, m.plan, m.cadence, m.currency, m.at,
            ${f.kind} AS kind, m.delta_twelfths::text AS t, count(*) OVER ()::int AS total
       FROM revenue_movements m JOIN customers c ON c.id = m.customer_id
      WHERE m.at >= $1 AND m.at < $2 ${f.where.map((w) => `AND ${w}`).join(' ')} ${kindFilter}
      ORDER BY abs(m.delta_twelfths) DESC, m.at, m.subscription_id
      LIMIT ${MOVEMENT_LIST_LIMIT}`,
    params,
  );
  return {
    date: dayText(bucketStart),
    interval: r.interval,
    kind: r.kind ?? null,
    total: res.rows[0]?.total ?? 0,
    rows: res.rows.map((row) => {
      const t = num(row.t);
      const rate = reportingRate(deps.config, row.currency);
      return {
        subscription_id: Number(row.subscription_id),
        customer_id: Number(row.customer_id),
        email: row.email,
        provider: row.provider,
        plan: row.plan,
        cadence: row.cadence,
        currency: row.currency,
        at: new Date(row.at).toISOString(),
        kind: row.kind,
        delta_cents: Math.round(t / 12),
        delta_reporting_cents: rate == null ? null : Math.round((rate * t) / 12),
      };
    }),
  };
}
