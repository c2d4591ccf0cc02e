/**
 * Revenue answers in wire shape (docs/api.md "Revenue") for stories, unit tests and dev:
 * deterministic figures that keep the identity MRR(end) − MRR(start) = Σ net movements.
 */

/** Options of {@link makeRevenueWire}. */
export interface RevenueWireOptions {
  /** Buckets (months) in the range. */
  months?: number;
  /** First bucket's month, 'YYYY-MM'. */
  firstMonth?: string;
  /** MRR at the start, cents. */
  startCents?: number;
  /** Churn per month grows so that net movement is negative. */
  negativeNet?: boolean;
  /** No contraction or churn at all (LTV has no churn to divide by). */
  zeroChurn?: boolean;
}

/** One bucket in wire shape. */
interface MovementWire {
  date: string;
  new_cents: number;
  expansion_cents: number;
  reactivation_cents: number;
  contraction_cents: number;
  churn_cents: number;
}

const monthAdd = (ym: string, k: number) => {
  const [y = 2026, m = 1] = ym.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + k, 1));
  return d.toISOString().slice(0, 10);
};

/** A monthly revenue answer with `months` buckets (default 12 ending November 2026). */
export function makeRevenueWire(o: RevenueWireOptions = {}) {
  const months = o.months ?? 12;
  const first = o.firstMonth ?? monthAdd('2026-11', -(months - 1)).slice(0, 7);
  const start = o.startCents ?? 2_400_000;
  let mrr = start;
  const movements: MovementWire[] = [];
  const series: Array<{ date: string; mrr_cents: number }> = [];
  for (let k = 0; k < months; k++) {
    const date = monthAdd(first, k);
    const wave = (k * 37) % 11;
    const row = {
      date,
      new_cents: 180_000 + wave * 9_000,
      expansion_cents: 12_000 + wave * 800,
      reactivation_cents: 6_000 + (k % 3) * 1_500,
      contraction_cents: o.zeroChurn ? 0 : 9_000 + (k % 4) * 700,
      churn_cents: o.zeroChurn
        ? 0
        : o.negativeNet
          ? 260_000 + wave * 5_000
          : 110_000 + wave * 4_000,
    };
    movements.push(row);
    mrr +=
      row.new_cents +
      row.expansion_cents +
      row.reactivation_cents -
      row.contraction_cents -
      row.churn_cents;
    series.push({ date, mrr_cents: mrr });
  }
  const sum = (key: Exclude<keyof MovementWire, 'date'>) =>
    movements.reduce((s, m) => s + Number(m[key]), 0);
  const lost = sum('contraction_cents') + sum('churn_cents');
  const gained = sum('new_cents') + sum('expansion_cents') + sum('reactivation_cents');
  const customersStart = Math.round(start / 1500);
  const churned = o.zeroChurn ? 0 : Math.round(customersStart * 0.04 * months);
  const customersEnd = Math.max(1, Math.round(mrr / 1500));
  const arpa = Math.round(mrr / customersEnd);
  const churnRate = customersStart > 0 ? churned / customersStart : null;
  const monthly = churnRate == null ? null : churnRate / months;
  return {
    currency: 'USD',
    range: {
      from: `${first}-01`,
      to: movements.length ? '2026-11-20' : `${first}-01`,
      interval: 'month',
    },
    mrr_start_cents: start,
    mrr_end_cents: mrr,
    movements,
    mrr_series: series,
    customers_start: customersStart,
    customers_end: customersEnd,
    customers_churned: churned,
    customer_churn_rate: churnRate,
    mrr_churn_rate: start > 0 ? lost / start : null,
    nrr: start > 0 ? (start + sum('expansion_cents') - lost) / start : null,
    quick_ratio: lost > 0 ? gained / lost : null,
    arpa_cents: arpa,
    ltv_cents: monthly && monthly > 0 ? Math.round(arpa / monthly) : null,
    mrr_by_provider: [
      { provider: 'lemonsqueezy', mrr_cents: Math.round(mrr * 0.6) },
      { provider: 'clickbank', mrr_cents: mrr - Math.round(mrr * 0.6) },
    ],
    mrr_by_plan: [
      { plan: 'Pro', mrr_cents: Math.round(mrr * 0.45) },
      { plan: 'Basic', mrr_cents: Math.round(mrr * 0.35) },
      { plan: 'Premium', mrr_cents: mrr - Math.round(mrr * 0.45) - Math.round(mrr * 0.35) },
    ],
  };
}

/** An answer where nothing recurred and nothing moved. */
export const EMPTY_REVENUE_WIRE = {
  ...makeRevenueWire({ months: 0, startCents: 0 }),
  customers_start: 0,
  customers_end: 0,
  arpa_cents: null,
  mrr_by_provider: [],
  mrr_by_plan: [],
};

/** Cohorts of `months` months ending November 2026, retention decaying with age. */
export function makeCohortsWire(months = 12) {
  const cohorts: Array<{
    cohort: string;
    customers: number;
    mrr_cents: number;
    logo: number[];
    revenue: number[];
  }> = [];
  for (let c = 0; c < months; c++) {
    const cohort = monthAdd('2026-11', -(months - 1) + c).slice(0, 7);
    const age = months - c;
    const logo: number[] = [];
    const revenue: number[] = [];
    for (let k = 0; k < age; k++) {
      logo.push(Math.round((100 - k * 6.5 - (c % 3)) * 10) / 10);
      // Every fourth cohort expands past its starting MRR.
      const drift = c % 4 === 0 ? k * 2.5 : -k * 4.5 - (c % 2);
      revenue.push(Math.round((100 + drift) * 10) / 10);
    }
    cohorts.push({ cohort, customers: 80 + c * 7, mrr_cents: (80 + c * 7) * 1500, logo, revenue });
  }
  return {
    currency: 'USD',
    range: { from: `${cohorts[0]?.cohort ?? '2026-11'}-01`, to: '2026-11-20' },
    cohorts,
  };
}

/** The subscriptions behind one bar. */
export const MOVEMENT_LIST_WIRE = {
  date: '2026-10-01',
  interval: 'month',
  kind: 'churn',
  total: 3,
  rows: [
    ['ada@example.com', 'lemonsqueezy', 'Premium', 'monthly', -2900],
    ['=cmd@example.org', 'clickbank', 'Pro', 'yearly', -1583],
    ['bob@example.com', 'lemonsqueezy', 'Basic', 'monthly', -999],
  ].map(([email, provider, plan, cadence, delta], i) => ({
    subscription_id: 100 + i,
    customer_id: 200 + i,
    email,
    provider,
    plan,
    cadence,
    currency: 'USD',
    at: `2026-10-0${i + 2}T10:00:00.000Z`,
    kind: 'churn',
    delta_cents: delta,
    delta_reporting_cents: delta,
  })),
};
