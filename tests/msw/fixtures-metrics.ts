/**
 * Deterministic wire fixtures for the Metrics and Integrated Tracking screens (§3 shapes, exactly
 * as docs/api.md / CONTRACT.md): GET /metrics/overview, /isr-metrics/summary, /daily,
 * /affiliates and /isr-events. No randomness: every figure derives from the day index, and days
 * end at FIXTURE_NOW's UTC day (2026-11-20).
 */
import { FIXTURE_NOW } from './fixtures';

const DAY_MS = 86_400_000;
const END_MS = Date.parse(`${FIXTURE_NOW.slice(0, 10)}T00:00:00Z`);

/** The UTC day `back` days before FIXTURE_NOW's day, 'YYYY-MM-DD'. */
export function dayBack(back: number): string {
  return new Date(END_MS - back * DAY_MS).toISOString().slice(0, 10);
}

/** A smooth, deterministic wave in [lo, hi] for day index i (weekly and monthly cycles). */
function wave(i: number, lo: number, hi: number, phase = 0): number {
  const t = (Math.sin((i + phase) / 1.1) + Math.sin((i + phase) / 4.7) + 2) / 4;
  return Math.round(lo + t * (hi - lo));
}

/** Options of {@link makeMetricsWire}. */
export interface MetricsWireOptions {
  /** Days of data ending at FIXTURE_NOW's day (default 28). */
  days?: number;
  /** Provider keys as the backend spells them (default the two providers). */
  providers?: readonly string[];
  /** Under which §3 name the amount series is sent; null = none (default byProviderDailyAmountCents). */
  amountSeriesName?: string | null;
}

/** A §3 Metrics response for a range of `days` days; totals agree with the series. */
export function makeMetricsWire({
  days = 28,
  providers = ['lemonsqueezy', 'clickbank'],
  amountSeriesName = 'byProviderDailyAmountCents',
}: MetricsWireOptions = {}) {
  const lineDaily: { date: string; new: number; renewals: number; cancellations: number }[] = [];
  const byProviderDaily: Record<string, string | number>[] = [];
  const amounts: Record<string, string | number>[] = [];
  for (let back = days - 1; back >= 0; back -= 1) {
    const i = days - 1 - back;
    const date = dayBack(back);
    const perProvider = providers.map((_, p) => wave(i, 0, p === 0 ? 5 : 3, p * 3));
    const news = perProvider.reduce((s, n) => s + n, 0);
    const renewals = wave(i, 4, 12, 2);
    const cancellations = wave(i, 0, 3, 5);
    lineDaily.push({ date, new: news, renewals, cancellations });
    byProviderDaily.push({
      date,
      ...Object.fromEntries(providers.map((p, k) => [p, perProvider[k]!])),
    });
    const cents = providers.map(
      (_, p) => (perProvider[p]! + (p === 0 ? renewals : 1)) * (p === 0 ? 1900 : 4700),
    );
    amounts.push({
      date,
      ...Object.fromEntries(providers.map((p, k) => [p, cents[k]!])),
      total_cents: cents.reduce((s, c) => s + c, 0),
    });
  }
  const sum = (key: 'new' | 'renewals' | 'cancellations') =>
    lineDaily.reduce((s, r) => s + r[key], 0);
  const estimatedRevenueCents = amounts.reduce((s, r) => s + Number(r.total_cents), 0);
  const totalActive = 812;
  const startActive = totalActive - sum('new') + sum('cancellations');
  const series: Record<string, unknown> = { lineDaily, byProviderDaily };
  if (amountSeriesName) series[amountSeriesName] = amounts;
  const activeSplit =
    providers.length === 2 ? [512, 300] : providers.map((_, p) => Math.max(1, 120 - p * 11));
  return {
    range: { from: dayBack(days - 1), to: dayBack(0) },
    totals: {
      totalActive,
      totalNewInRange: sum('new'),
      totalRenewalsInRange: sum('renewals'),
      totalCancellationsInRange: sum('cancellations'),
      churnRate: startActive > 0 ? sum('cancellations') / startActive : 0,
      estimatedRevenueCents,
    },
    series,
    pies: {
      activeByProvider: providers.map((provider, p) => ({ provider, cnt: activeSplit[p] ?? 1 })),
      activeByPlan: [
        { plan: 'monthly', cnt: 640 },
        { plan: 'yearly', cnt: 172 },
      ],
    },
  };
}

/** The default Metrics answer: 28 days, both providers, amounts in cents. */
export const METRICS_WIRE = makeMetricsWire();

/** Ten providers, the backend's own spellings included ('cb', 'LS'), for legend/colour stories. */
export const TEN_PROVIDERS = [
  'LS',
  'cb',
  'stripe',
  'paddle',
  'gumroad',
  'paypal',
  'shopify',
  'digistore',
  'jvzoo',
  'warriorplus',
] as const;

/** An empty range: zeros and empty series (reference server behaviour for a day without data). */
export const METRICS_EMPTY_WIRE = {
  range: { from: dayBack(27), to: dayBack(0) },
  totals: {
    totalActive: 812,
    totalNewInRange: 0,
    totalRenewalsInRange: 0,
    totalCancellationsInRange: 0,
    churnRate: 0,
    estimatedRevenueCents: 0,
  },
  series: { lineDaily: [], byProviderDaily: [], byProviderDailyAmountCents: [] },
  pies: { activeByProvider: [], activeByPlan: [] },
};

/* ------------------------------------------------------------------------------------------ */
/* ISR                                                                                          */
/* ------------------------------------------------------------------------------------------ */

/** §3 ISR daily rows for `days` days ending at FIXTURE_NOW's day, one per day and source. */
export function makeIsrDailyWire(days = 14) {
  const rows: { day: string; source: string; events: number; amount_cents: number }[] = [];
  for (let back = days - 1; back >= 0; back -= 1) {
    const i = days - 1 - back;
    const day = dayBack(back);
    const cb = wave(i, 2, 9, 1);
    const ls = wave(i, 1, 6, 4);
    rows.push({ day, source: 'clickbank', events: cb, amount_cents: cb * 4700 });
    rows.push({ day, source: 'lemonsqueezy', events: ls, amount_cents: ls * 1900 });
    if (i % 5 === 0) rows.push({ day, source: 'custom', events: 1, amount_cents: 2500 });
  }
  return rows;
}

/** The ISR summary agreeing with {@link makeIsrDailyWire}(days). */
export function makeIsrSummaryWire(days = 14) {
  const rows = makeIsrDailyWire(days);
  const by = (source?: string) => rows.filter((r) => !source || r.source === source);
  const amount = (rs: typeof rows) => rs.reduce((s, r) => s + r.amount_cents, 0);
  const events = (rs: typeof rows) => rs.reduce((s, r) => s + r.events, 0);
  return {
    total_amount_cents: amount(by()),
    total_events: events(by()),
    clickbank_amount_cents: amount(by('clickbank')),
    clickbank_events: events(by('clickbank')),
    lemonsqueezy_amount_cents: amount(by('lemonsqueezy')),
    lemonsqueezy_events: events(by('lemonsqueezy')),
  };
}

/** The default ISR summary (14 days). */
export const ISR_SUMMARY_WIRE = makeIsrSummaryWire(14);

/** §3 top affiliates, ordered by revenue, limit 12 (a long tail). */
export const ISR_AFFILIATES_WIRE = [
  'superaff',
  'clicksmith',
  'growthlab',
  'nichequeen',
  'mailmaven',
  'tubepro',
  'dealhound',
  'blogbaron',
  'adwizard',
  'socialsam',
  'pennyperks',
  'linklord',
].map((affiliate, i) => ({
  affiliate,
  amount_cents: Math.round(2_480_000 / (i + 1) ** 1.1),
  events: Math.max(1, Math.round(53 / (i + 1))),
}));

/** One §3 ISR event row as sent. */
export interface IsrEventWire {
  id: number;
  created_at: string;
  source: string;
  order_id: string;
  receipt: string;
  product_id: string;
  amount_cents: number;
  currency: string;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customer_email: string;
  referrer: string | null;
}

/** `n` ISR events, newest first, every 3 hours back from FIXTURE_NOW; a refund every 17th. */
export function makeIsrEvents(n: number): IsrEventWire[] {
  const now = Date.parse(FIXTURE_NOW);
  const affiliates = ISR_AFFILIATES_WIRE.map((a) => a.affiliate);
  return Array.from({ length: n }, (_, i) => {
    const source = i % 3 === 2 ? 'lemonsqueezy' : 'clickbank';
    const refund = i % 17 === 16;
    return {
      id: 10_000 - i,
      created_at: new Date(now - (i + 1) * 3 * 3_600_000).toISOString().replace('.000Z', 'Z'),
      source,
      order_id: source === 'clickbank' ? `CB${String(880_000 + i)}` : `LS-${String(4_200 + i)}`,
      receipt:
        source === 'clickbank' ? `RCPT${String(9_000 + i).padStart(6, '0')}` : `ls_${4_200 + i}`,
      product_id: source === 'clickbank' ? 'mg-monthly' : 'mg-yearly',
      amount_cents: (refund ? -1 : 1) * (source === 'clickbank' ? 4700 : 19_900),
      currency: 'USD',
      affiliate: source === 'clickbank' ? affiliates[i % affiliates.length]! : null,
      subid: source === 'clickbank' ? `tid-${(i * 7) % 31}` : null,
      campaign: i % 4 === 0 ? 'black-friday' : i % 4 === 1 ? 'newsletter' : null,
      customer_email: `buyer${i + 1}@example.com`,
      referrer:
        i % 2 === 0
          ? `https://reviews.example.com/best-membership-sites-2026/mg-review?utm_source=aff&utm_campaign=${i}`
          : null,
    };
  });
}

/** 120 events: three pages of 50. */
export const ISR_EVENTS = makeIsrEvents(120);
