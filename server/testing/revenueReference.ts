/**
 * A plain, per-subscription reference of docs/metrics.md for the revenue tests: loops over
 * subscriptions and instants in TypeScript, sharing nothing with the SQL of migration 015 or
 * server/revenue. Instants are epoch ms (UTC); values are twelfths of a cent of the currency.
 */

/** One stretch of a subscription recurring at one value under one key: [from, to), to null = open. */
export interface RefSegment {
  subscription: number;
  customer: number;
  provider: string;
  plan: string;
  cadence: string;
  currency: string;
  twelfths: number;
  from: number;
  to: number | null;
}

/** One stored state of a subscription from the instant `at` on (as a writer leaves the row). */
export interface RefState {
  at: number;
  customer: number;
  provider: string;
  plan: string;
  cadence: 'monthly' | 'yearly';
  currency: string;
  status: string;
  amountCents: number | null;
  endsAt: number | null;
}

/** The monthly value of a state in twelfths: active and past_due recur, cancelled until ends_at. */
function stateTwelfths(s: RefState): number {
  if (s.amountCents == null || s.amountCents <= 0) return 0;
  if (!['active', 'past_due', 'cancelled'].includes(s.status)) return 0;
  if (s.status === 'cancelled' && s.endsAt == null) return 0;
  return s.cadence === 'yearly' ? s.amountCents : 12 * s.amountCents;
}

/** Segments of one subscription from its states in time order (the first is its start). */
export function segmentsFromStates(subscription: number, states: RefState[]): RefSegment[] {
  const out: RefSegment[] = [];
  states.forEach((s, i) => {
    const next = states[i + 1]?.at ?? null;
    const v = stateTwelfths(s);
    if (v === 0) return;
    let to = next;
    if (s.status === 'cancelled' && s.endsAt != null)
      to = to == null ? s.endsAt : Math.min(to, s.endsAt);
    if (to != null && to <= s.at) return;
    const seg: RefSegment = {
      subscription,
      customer: s.customer,
      provider: s.provider,
      plan: s.plan,
      cadence: s.cadence,
      currency: s.currency,
      twelfths: v,
      from: s.at,
      to,
    };
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.to === seg.from &&
      prev.customer === seg.customer &&
      prev.provider === seg.provider &&
      prev.plan === seg.plan &&
      prev.cadence === seg.cadence &&
      prev.currency === seg.currency &&
      prev.twelfths === seg.twelfths
    ) {
      prev.to = seg.to;
    } else {
      out.push(seg);
    }
  });
  return out;
}

export type Kind = 'new' | 'expansion' | 'reactivation' | 'contraction' | 'churn';
export const KINDS: Kind[] = ['new', 'expansion', 'reactivation', 'contraction', 'churn'];

/** One signed piece of a change of one subscription (docs/metrics.md "Movements"). */
export interface RefPiece {
  subscription: number;
  customer: number;
  at: number;
  provider: string;
  plan: string;
  cadence: string;
  currency: string;
  twelfths: number;
  alone: Kind;
  net: Kind;
  /** The key of the other half of a plan/cadence change; null when the halves never join. */
  other: { plan: string; cadence: string } | null;
}

const covers = (s: RefSegment, t: number) => s.from <= t && (s.to == null || t < s.to);
const coversBefore = (s: RefSegment, t: number) => s.from < t && (s.to == null || t <= s.to);

/** Every movement piece of a set of segments. */
export function piecesOf(segments: RefSegment[]): RefPiece[] {
  const out: RefPiece[] = [];
  const groups = new Map<string, RefSegment[]>();
  for (const s of segments) {
    const g = `${s.subscription}|${s.customer}`;
    groups.set(g, [...(groups.get(g) ?? []), s]);
  }
  for (const mine of groups.values()) {
    const first = mine[0];
    if (!first) continue;
    const instants = new Set<number>();
    for (const s of mine) {
      instants.add(s.from);
      if (s.to != null) instants.add(s.to);
    }
    for (const t of instants) {
      const a = mine.find((s) => s.from === t) ?? null;
      const b = mine.find((s) => s.to === t) ?? null;
      const others = segments.filter(
        (s) => s.customer === first.customer && s.subscription !== first.subscription,
      );
      const othersBefore = others.some((s) => coversBefore(s, t));
      const othersAfter = others.some((s) => covers(s, t));
      const everBefore = segments.some((s) => s.customer === first.customer && s.from < t);
      const base = { subscription: first.subscription, customer: first.customer, at: t };
      if (!b && a) {
        const k: Kind = othersBefore ? 'expansion' : everBefore ? 'reactivation' : 'new';
        out.push({
          ...base,
          ...keyOf(a),
          twelfths: a.twelfths,
          alone: k,
          net: k,
          other: keyPlan(a),
        });
      } else if (b && !a) {
        const k: Kind = othersAfter ? 'contraction' : 'churn';
        out.push({
          ...base,
          ...keyOf(b),
          twelfths: -b.twelfths,
          alone: k,
          net: k,
          other: keyPlan(b),
        });
      } else if (a && b) {
        const sameKey =
          a.provider === b.provider &&
          a.plan === b.plan &&
          a.cadence === b.cadence &&
          a.currency === b.currency;
        if (sameKey && a.twelfths === b.twelfths) continue;
        const k: Kind = a.twelfths >= b.twelfths ? 'expansion' : 'contraction';
        if (sameKey) {
          out.push({
            ...base,
            ...keyOf(a),
            twelfths: a.twelfths - b.twelfths,
            alone: k,
            net: k,
            other: keyPlan(a),
          });
        } else {
          const joins = a.provider === b.provider && a.currency === b.currency;
          out.push({
            ...base,
            ...keyOf(b),
            twelfths: -b.twelfths,
            alone: 'contraction',
            net: joins ? k : 'contraction',
            other: joins ? keyPlan(a) : null,
          });
          out.push({
            ...base,
            ...keyOf(a),
            twelfths: a.twelfths,
            alone: 'expansion',
            net: joins ? k : 'expansion',
            other: joins ? keyPlan(b) : null,
          });
        }
      }
    }
  }
  return out;
}

const keyOf = (s: RefSegment) => ({
  provider: s.provider,
  plan: s.plan,
  cadence: s.cadence,
  currency: s.currency,
});
const keyPlan = (s: RefSegment) => ({ plan: s.plan, cadence: s.cadence });

/** Filters of the revenue endpoints. */
export interface RefFilters {
  provider?: string;
  plan?: string;
  cadence?: string;
}

const passes = (f: RefFilters, k: { provider: string; plan: string; cadence: string }) =>
  (!f.provider || k.provider === f.provider) &&
  (!f.plan || k.plan.toLowerCase() === f.plan.toLowerCase()) &&
  (!f.cadence || k.cadence === f.cadence);

/** The kind of a piece under filters: net when its other half passes them too. */
export function kindUnder(p: RefPiece, f: RefFilters): Kind {
  if (p.other == null) return p.alone;
  const otherPasses =
    (!f.plan || p.other.plan.toLowerCase() === f.plan.toLowerCase()) &&
    (!f.cadence || p.other.cadence === f.cadence);
  return otherPasses ? p.net : p.alone;
}

/** Rates into the reporting currency (a missing currency is left out). */
export type Rates = Record<string, number>;

/** Exact reporting cents of twelfths per currency, summed in the dashboard's order (currency, cadence). */
function exact(byKey: Map<string, number>, rates: Rates): number {
  let total = 0;
  for (const k of [...byKey.keys()].sort()) {
    const [currency = '', cadence = ''] = k.split('|');
    const rate = rates[currency];
    if (rate == null) continue;
    const t = byKey.get(k) ?? 0;
    total += rate * (cadence === 'yearly' ? t / 12 : t / 12);
  }
  return total;
}

/** What GET /metrics/revenue reports, computed plainly. */
export interface RefRevenue {
  mrrStart: number;
  mrrEnd: number;
  movements: Array<{
    date: string;
    new: number;
    expansion: number;
    reactivation: number;
    contraction: number;
    churn: number;
  }>;
  customersStart: number;
  customersEnd: number;
  customersChurned: number;
  nrrNumerator: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthOf = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/**
 * GET /metrics/revenue from segments: range [fromMs, endMs) with buckets of `interval`, whose first
 * days are `dates`; money rounded by docs/metrics.md's rule (running totals, the last on mrr_end
 * rounded as the dashboard rounds).
 */
export function refRevenue(
  segments: RefSegment[],
  opts: {
    fromMs: number;
    endMs: number;
    interval: 'day' | 'month';
    dates: string[];
    rates: Rates;
    filters: RefFilters;
  },
): RefRevenue {
  const f = opts.filters;
  const segs = segments.filter((s) => passes(f, s));
  const round = (byKey: Map<string, number>) => {
    // The dashboard: Σ rate × (monthly cents, or yearly cents / 12), rounded once.
    let total = 0;
    for (const k of [...byKey.keys()].sort()) {
      const [currency = '', cadence = ''] = k.split('|');
      const rate = opts.rates[currency];
      if (rate == null) continue;
      const t = byKey.get(k) ?? 0;
      total += rate * (cadence === 'yearly' ? t / 12 : t / 12);
    }
    return Math.round(total);
  };
  const pieces = piecesOf(segments).filter((p) => passes(f, p));
  const inRange = pieces.filter((p) => p.at >= opts.fromMs && p.at < opts.endMs);
  // MRR at the start counts changes strictly before it: a segment starting at fromMs is a movement.
  const start = new Map<string, number>();
  for (const s of segs)
    if (coversBefore(s, opts.fromMs))
      start.set(
        `${s.currency}|${s.cadence}`,
        (start.get(`${s.currency}|${s.cadence}`) ?? 0) + s.twelfths,
      );
  const end = new Map<string, number>();
  for (const s of segs)
    if (coversBefore(s, opts.endMs))
      end.set(
        `${s.currency}|${s.cadence}`,
        (end.get(`${s.currency}|${s.cadence}`) ?? 0) + s.twelfths,
      );
  const mrrStart = round(start);
  const mrrEnd = round(end);
  const bucket = (t: number) => (opts.interval === 'day' ? day(t) : day(monthOf(t)));
  const steps: Array<{ date: string; kind: Kind; byKey: Map<string, number> }> = [];
  for (const date of opts.dates) {
    for (const kind of KINDS) {
      const mine = inRange.filter((p) => bucket(p.at) === date && kindUnder(p, f) === kind);
      if (mine.length === 0) continue;
      const byKey = new Map<string, number>();
      for (const p of mine)
        byKey.set(
          `${p.currency}|${p.cadence}`,
          (byKey.get(`${p.currency}|${p.cadence}`) ?? 0) + p.twelfths,
        );
      steps.push({ date, kind, byKey });
    }
  }
  const rows = opts.dates.map((date) => ({
    date,
    new: 0,
    expansion: 0,
    reactivation: 0,
    contraction: 0,
    churn: 0,
  }));
  let running = exact(start, opts.rates);
  let shown = mrrStart;
  steps.forEach((s, i) => {
    running += exact(s.byKey, opts.rates);
    const next = i === steps.length - 1 ? mrrEnd : Math.round(running);
    const row = rows.find((r) => r.date === s.date);
    if (row)
      row[s.kind] += s.kind === 'contraction' || s.kind === 'churn' ? shown - next : next - shown;
    shown = next;
  });
  const customersAt = (t: number) =>
    new Set(segs.filter((s) => covers(s, t)).map((s) => s.customer));
  const atStart = customersAt(opts.fromMs);
  const churned = new Set(
    inRange.filter((p) => p.alone === 'churn' && atStart.has(p.customer)).map((p) => p.customer),
  );
  const nrrPieces = inRange.filter(
    (p) =>
      atStart.has(p.customer) && ['expansion', 'contraction', 'churn'].includes(kindUnder(p, f)),
  );
  const nrrKeys = new Map<string, number>();
  for (const p of nrrPieces)
    nrrKeys.set(`${p.currency}|monthly`, (nrrKeys.get(`${p.currency}|monthly`) ?? 0) + p.twelfths);
  return {
    mrrStart,
    mrrEnd,
    movements: rows,
    customersStart: atStart.size,
    customersEnd: opts.endMs === opts.fromMs ? atStart.size : customersAt(opts.endMs).size,
    customersChurned: churned.size,
    nrrNumerator: Math.round(exact(start, opts.rates) + exact(nrrKeys, opts.rates)),
  };
}

/** GET /metrics/cohorts from segments: per cohort month, customers, start MRR and the cells. */
export function refCohorts(
  segments: RefSegment[],
  opts: { now: number; rates: Rates; provider?: string },
): Array<{
  cohort: string;
  customers: number;
  mrrCents: number;
  logo: number[];
  revenue: Array<number | null>;
}> {
  const customers = new Map<number, { first: number; provider: string }>();
  for (const s of [...segments].sort(
    (a, b) => a.from - b.from || a.subscription - b.subscription,
  )) {
    if (!customers.has(s.customer))
      customers.set(s.customer, { first: s.from, provider: s.provider });
  }
  const cents = (segs: RefSegment[]) => {
    const m = new Map<string, number>();
    for (const s of segs)
      m.set(`${s.currency}|monthly`, (m.get(`${s.currency}|monthly`) ?? 0) + s.twelfths);
    return exact(m, opts.rates);
  };
  const byCohort = new Map<number, number[]>();
  for (const [c, info] of customers) {
    if (info.first >= opts.now) continue;
    if (opts.provider && info.provider !== opts.provider) continue;
    const m = monthOf(info.first);
    byCohort.set(m, [...(byCohort.get(m) ?? []), c]);
  }
  const pct = (a: number, b: number) => Math.round((a / b) * 1000) / 10;
  const current = monthOf(opts.now);
  return [...byCohort.entries()]
    .sort(([a], [b]) => a - b)
    .map(([m, members]) => {
      const set = new Set(members);
      const mine = segments.filter((s) => set.has(s.customer));
      const startCents = cents(mine.filter((s) => s.from === customers.get(s.customer)?.first));
      const logo: number[] = [];
      const revenue: Array<number | null> = [];
      const d = new Date(m);
      for (let k = 0; Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1) <= current; k++) {
        const monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k + 1, 1);
        const at = Math.min(monthEnd, opts.now);
        const live = mine.filter((s) => coversBefore(s, at));
        logo.push(pct(new Set(live.map((s) => s.customer)).size, members.length));
        revenue.push(startCents > 0 ? pct(cents(live), startCents) : null);
      }
      return {
        cohort: day(m).slice(0, 7),
        customers: members.length,
        mrrCents: Math.round(startCents),
        logo,
        revenue,
      };
    });
}
