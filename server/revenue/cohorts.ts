/**
 * GET /metrics/cohorts (docs/metrics.md "Cohorts", docs/api.md "Revenue"): customers grouped by
 * the UTC month of their first recurring subscription; for each month since, the share of the
 * cohort recurring at the month's end (logo retention) and the cohort's MRR then as a share of its
 * starting MRR (revenue retention). The month holding `now` is measured at `now`. Read from the
 * roll-up revenue_cohort_monthly (migration 015) for whole months and from revenue_movements for
 * the current month up to `now`.
 */
import { readDbOf, type AppDeps } from '../context';
import { reportingRate } from '../fx';
import { dayText } from '../routes/metrics';
import { monthStart, parseRevenueQuery } from './query';

/** One cohort row. Percentages have one decimal; revenue may exceed 100. */
export interface CohortRow {
  /** 'YYYY-MM' (UTC). */
  cohort: string;
  /** Customers whose first subscription started in the month. */
  customers: number;
  /** Their MRR when each started, in reporting cents. */
  mrr_cents: number;
  /** logo[k]: % of the cohort's customers recurring at the end of month k (0 = the cohort month). */
  logo: number[];
  /** revenue[k]: the cohort's MRR at the end of month k, % of mrr_cents (null when mrr_cents is 0). */
  revenue: Array<number | null>;
}

/** GET /metrics/cohorts body. */
export interface CohortsJson {
  currency: string;
  range: { from: string; to: string };
  cohorts: CohortRow[];
}

const pct = (a: number, b: number): number => Math.round((a / b) * 1000) / 10;

/**
 * Computes GET /metrics/cohorts for the query `q` (from, to: the cohort months the days fall in;
 * provider: customers whose first subscription is with that provider). Throws 400 on a bad query.
 */
export async function cohorts(
  deps: AppDeps,
  q: Record<string, string | undefined>,
): Promise<CohortsJson> {
  const now = deps.now();
  const r = parseRevenueQuery({ from: q.from, to: q.to, provider: q.provider }, now);
  const first = monthStart(r.fromMs);
  const last = monthStart(Date.parse(`${r.to}T00:00:00Z`));
  const current = monthStart(now.getTime());
  const params: unknown[] = [dayText(first), dayText(last), dayText(current)];
  const providerSql = r.provider ? `AND cohort_provider = $${params.push(r.provider)}` : '';
  const whole = await readDbOf(deps).query<{
    cohort: string;
    month: string;
    currency: string;
    t: string;
    flips: number;
    n: number;
    nt: string;
  }>(
    `SELECT to_char(cohort, 'YYYY-MM-DD') AS cohort, to_char(month, 'YYYY-MM-DD') AS month, currency,
            sum(delta_twelfths)::text AS t, sum(flips)::int AS flips, sum(new_customers)::int AS n,
            sum(new_twelfths)::text AS nt
       FROM revenue_cohort_monthly
      WHERE cohort >= $1 AND cohort <= $2 AND month < $3 ${providerSql}
      GROUP BY 1, 2, 3`,
    params,
  );
  const tailParams: unknown[] = [
    dayText(first),
    dayText(last),
    new Date(current).toISOString(),
    now.toISOString(),
  ];
  const tailProvider = r.provider ? `AND cohort_provider = $${tailParams.push(r.provider)}` : '';
  const tail = await readDbOf(deps).query<(typeof whole.rows)[number]>(
    `SELECT to_char(cohort, 'YYYY-MM-DD') AS cohort, $3::date::text AS month, currency,
            sum(delta_twelfths)::text AS t, sum(flip)::int AS flips,
            (count(*) FILTER (WHERE kind_alone = 'new' AND flip = 1))::int AS n,
            COALESCE(sum(delta_twelfths) FILTER (WHERE kind_alone = 'new'), 0)::text AS nt
       FROM revenue_movements
      WHERE cohort >= $1 AND cohort <= $2 AND at >= $3 AND at < $4 ${tailProvider}
      GROUP BY 1, 2, 3`,
    tailParams,
  );

  interface Acc {
    customers: number;
    start: Map<string, number>;
    /** month index → flips, twelfths per currency */
    months: Map<number, { flips: number; t: Map<string, number> }>;
  }
  const acc = new Map<string, Acc>();
  const monthIndex = (cohort: string, month: string): number => {
    const [cy = 0, cm = 0] = cohort.split('-').map(Number);
    const [my = 0, mm = 0] = month.split('-').map(Number);
    return (my - cy) * 12 + (mm - cm);
  };
  for (const row of [...whole.rows, ...tail.rows]) {
    const a = acc.get(row.cohort) ?? { customers: 0, start: new Map(), months: new Map() };
    acc.set(row.cohort, a);
    a.customers += row.n;
    a.start.set(row.currency, (a.start.get(row.currency) ?? 0) + Number(row.nt));
    const k = monthIndex(row.cohort, row.month);
    const m = a.months.get(k) ?? { flips: 0, t: new Map() };
    a.months.set(k, m);
    m.flips += row.flips;
    m.t.set(row.currency, (m.t.get(row.currency) ?? 0) + Number(row.t));
  }
  const cents = (t: Map<string, number>): number => {
    let total = 0;
    for (const [currency, twelfths] of t) {
      const rate = reportingRate(deps.config, currency);
      if (rate != null) total += (rate * twelfths) / 12;
    }
    return total;
  };
  const out: CohortRow[] = [];
  for (let c = first; c <= Math.min(last, current); c = monthStart(c, 1)) {
    const cohort = dayText(c);
    const a = acc.get(cohort);
    if (!a || a.customers === 0) continue;
    const startCents = cents(a.start);
    const span = monthIndex(cohort, dayText(current));
    const logo: number[] = [];
    const revenue: Array<number | null> = [];
    let active = 0;
    const mrr = new Map<string, number>();
    for (let k = 0; k <= span; k++) {
      const m = a.months.get(k);
      if (m) {
        active += m.flips;
        for (const [cur, t] of m.t) mrr.set(cur, (mrr.get(cur) ?? 0) + t);
      }
      logo.push(pct(active, a.customers));
      revenue.push(startCents > 0 ? pct(cents(mrr), startCents) : null);
    }
    out.push({
      cohort: cohort.slice(0, 7),
      customers: a.customers,
      mrr_cents: Math.round(startCents),
      logo,
      revenue,
    });
  }
  return {
    currency: deps.config.reportingCurrency,
    range: { from: r.from, to: r.to },
    cohorts: out,
  };
}
