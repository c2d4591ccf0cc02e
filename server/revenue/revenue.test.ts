import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/types';
import { seedDemoData } from '../seed';
import { computeDashboardStats } from '../stats';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { insertCustomer, insertEvent, insertSubscription } from '../testing/fixtures';
import {
  refCohorts,
  refRevenue,
  segmentsFromStates,
  type RefFilters,
  type RefRevenue,
  type RefSegment,
  type RefState,
} from '../testing/revenueReference';
import type { CohortsJson } from './cohorts';
import { bucketDates, movementSource, parseRevenueQuery } from './query';
import type { RevenueJson } from './revenue';
import { revenueRoutes } from './routes';

let db: Db;
beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const NOW = new Date('2026-11-20T12:00:00.500Z');
const RATES = { USD: 1, EUR: 1.08, GBP: 1.27 };
const deps = (now = NOW) => testDeps(db, now, { fxRates: RATES });
const get = async <T>(path: string, now = NOW): Promise<T> => {
  const res = await call(testApp(deps(now), [revenueRoutes]), 'GET', path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const revenue = (qs: string, now = NOW) => get<RevenueJson>(`/metrics/revenue?${qs}`, now);

/** The identity of docs/metrics.md, exactly in cents. */
function expectIdentity(b: RevenueJson): void {
  let net = 0;
  for (const m of b.movements) {
    for (const v of [
      m.new_cents,
      m.expansion_cents,
      m.contraction_cents,
      m.churn_cents,
      m.reactivation_cents,
    ]) {
      expect(v).toBeGreaterThanOrEqual(0);
    }
    net +=
      m.new_cents + m.expansion_cents + m.reactivation_cents - m.contraction_cents - m.churn_cents;
  }
  expect(b.mrr_end_cents - b.mrr_start_cents).toBe(net);
  expect(b.mrr_series.at(-1)?.mrr_cents ?? b.mrr_start_cents).toBe(b.mrr_end_cents);
}

/** The history as stored (revenue_spans) → reference segments. */
async function storedSegments(): Promise<RefSegment[]> {
  const r = await db.query<{
    subscription_id: string;
    customer_id: string;
    provider: string;
    plan: string;
    cadence: string;
    currency: string;
    mrr_twelfths: string;
    valid_from: Date;
    valid_to: Date | null;
  }>('SELECT * FROM revenue_spans');
  return r.rows.map((s) => ({
    subscription: Number(s.subscription_id),
    customer: Number(s.customer_id),
    provider: s.provider,
    plan: s.plan,
    cadence: s.cadence,
    currency: s.currency,
    twelfths: Number(s.mrr_twelfths),
    from: new Date(s.valid_from).getTime(),
    to: s.valid_to == null ? null : new Date(s.valid_to).getTime(),
  }));
}

/** Compares GET /metrics/revenue with the reference over `segments` for one query. */
async function expectMatchesReference(
  segments: RefSegment[],
  q: Record<string, string>,
  now = NOW,
): Promise<RevenueJson> {
  const qs = new URLSearchParams(q).toString();
  const body = await revenue(qs, now);
  expectIdentity(body);
  const r = parseRevenueQuery(q, now);
  const filters: RefFilters = { provider: q.provider, plan: q.plan, cadence: q.cadence };
  const ref = refRevenue(segments, {
    fromMs: r.fromMs,
    endMs: r.endMs,
    interval: r.interval,
    dates: bucketDates(r),
    rates: RATES,
    filters,
  });
  expect(body.mrr_start_cents).toBe(ref.mrrStart);
  expect(body.mrr_end_cents).toBe(ref.mrrEnd);
  expect(
    body.movements.map((m) => [
      m.date,
      m.new_cents,
      m.expansion_cents,
      m.reactivation_cents,
      m.contraction_cents,
      m.churn_cents,
    ]),
  ).toEqual(
    ref.movements.map((m) => [m.date, m.new, m.expansion, m.reactivation, m.contraction, m.churn]),
  );
  expect(body.customers_start).toBe(ref.customersStart);
  expect(body.customers_end).toBe(ref.customersEnd);
  expect(body.customers_churned).toBe(ref.customersChurned);
  if (ref.mrrStart !== 0) {
    expect(body.nrr).toBeCloseTo(ref.nrrNumerator / ref.mrrStart, 5);
  }
  expectRates(body, ref, (r.endMs - r.fromMs) / 86_400_000 / (365.25 / 12));
  return body;
}

/**
 * The rates of docs/metrics.md "Rates", from the reference's movements and customers: customer
 * churn, MRR churn, quick ratio, ARPA and LTV (ARPA ÷ the monthly customer churn rate; null when
 * no customer churned). Fractions carry 6 decimals; `months` is the range's length in months.
 */
function expectRates(body: RevenueJson, ref: RefRevenue, months: number): void {
  const total = (k: 'new' | 'expansion' | 'reactivation' | 'contraction' | 'churn') =>
    ref.movements.reduce((s, m) => s + m[k], 0);
  const lost = total('contraction') + total('churn');
  const gained = total('new') + total('expansion') + total('reactivation');
  const fraction = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1e6) / 1e6);
  expect(body.customer_churn_rate).toBe(fraction(ref.customersChurned, ref.customersStart));
  expect(body.mrr_churn_rate).toBe(fraction(lost, ref.mrrStart));
  expect(body.quick_ratio).toBe(fraction(gained, lost));
  const arpa = ref.customersEnd === 0 ? null : Math.round(ref.mrrEnd / ref.customersEnd);
  expect(body.arpa_cents).toBe(arpa);
  const monthlyChurn =
    ref.customersStart === 0 ? 0 : ref.customersChurned / ref.customersStart / months;
  expect(body.ltv_cents).toBe(
    arpa == null || monthlyChurn === 0 ? null : Math.round(arpa / monthlyChurn),
  );
}

/** Compares GET /metrics/cohorts with the reference. */
async function expectCohortsMatch(segments: RefSegment[], qs: string, provider?: string) {
  const body = await get<CohortsJson>(`/metrics/cohorts?${qs}`);
  const months = new Set(body.cohorts.map((c) => c.cohort));
  const ref = refCohorts(segments, { now: NOW.getTime(), rates: RATES, provider });
  const from = new URLSearchParams(qs).get('from')?.slice(0, 7) ?? '0000-00';
  const expected = ref.filter((c) => c.cohort >= from);
  expect(body.cohorts.map((c) => c.cohort)).toEqual(expected.map((c) => c.cohort));
  for (const c of expected) {
    const got = body.cohorts.find((b) => b.cohort === c.cohort);
    expect(months.has(c.cohort)).toBe(true);
    expect(got).toEqual({
      cohort: c.cohort,
      customers: c.customers,
      mrr_cents: c.mrrCents,
      logo: c.logo,
      revenue: c.revenue,
    });
  }
  return body;
}

async function dashboardMrr(now = NOW): Promise<number> {
  return (await computeDashboardStats(db, deps(now).config, now)).mrr_cents;
}

describe('movementSource', () => {
  it('reads whole days from the narrow roll-up only without filters', () => {
    const w = { lo: Date.UTC(2026, 9, 1), hi: Date.UTC(2026, 9, 10, 6), closed: false };
    const narrowDays = { select: () => 'd.kind', groupBy: '1' };
    const sql = movementSource({ ...w, bucket: 'day' }, [], {
      select: () => 'd.kind_alone',
      where: '',
      groupBy: '1',
      narrowDays,
    });
    expect(sql).toContain('FROM revenue_daily_kinds d');
    expect(sql).not.toContain('FROM revenue_daily d');
    expect(sql).toContain('FROM revenue_movements d');
    expect(() =>
      movementSource({ ...w, bucket: 'day' }, [], {
        select: () => 'd.kind_alone',
        where: `AND d.provider = 'clickbank'`,
        groupBy: '1',
        narrowDays,
      }),
    ).toThrow(/narrowDays reads no filter/);
  });
});

describe('hand-built histories', () => {
  /** Applies a change the way the writers do: the new state, effective at updated_at. */
  const change = (id: number, set: string, at: string) =>
    db.query(`UPDATE subscriptions SET ${set}, updated_at = $2 WHERE id = $1`, [id, at]);

  beforeEach(async () => {
    await resetDb(db);
    const customer = (n: string) => insertCustomer(db, `${n}@example.com`, n);
    const sub = async (
      customerId: number,
      id: string,
      startDate: string,
      extra: Partial<Parameters<typeof insertSubscription>[1]> = {},
    ) =>
      insertSubscription(db, {
        customerId,
        providerId: id,
        startDate,
        updatedAt: startDate,
        ...extra,
      });
    // Upgrade: Basic 9.99 → Pro 19.00 on 5 March.
    const a = await sub(await customer('upgrade'), 'up', '2026-01-10T10:00:00Z', {
      plan: 'Basic',
      amountCents: 999,
    });
    await change(a, `plan = 'Pro', amount_cents = 1900`, '2026-03-05T10:00:00Z');
    // Downgrade: Pro 19.00 → Basic 9.99 on 10 April.
    const b = await sub(await customer('downgrade'), 'down', '2026-01-15T10:00:00Z', {
      plan: 'Pro',
      amountCents: 1900,
    });
    await change(b, `plan = 'Basic', amount_cents = 999`, '2026-04-10T10:00:00Z');
    // Cancel (paid until 20 May), then a new subscription on 3 July: churn, then reactivation.
    const cId = await customer('comeback');
    const c = await sub(cId, 'cb1', '2026-02-01T10:00:00Z', { plan: 'Pro', amountCents: 1000 });
    await change(
      c,
      `status = 'cancelled', ends_at = '2026-05-20T10:00:00Z'`,
      '2026-05-01T10:00:00Z',
    );
    await sub(cId, 'cb2', '2026-07-03T10:00:00Z', { plan: 'Pro', amountCents: 1000 });
    // A yearly plan: 120.00 a year = 10.00 a month.
    await sub(await customer('yearly'), 'yr', '2026-02-10T10:00:00Z', {
      cadence: 'yearly',
      plan: 'Pro',
      amountCents: 12000,
    });
    // Another currency: EUR 10.00 = USD 10.80.
    await sub(await customer('euro'), 'eur', '2026-03-01T10:00:00Z', {
      plan: 'Pro',
      amountCents: 1000,
      currency: 'EUR',
    });
    // A refund: money back, no movement.
    const f = await sub(await customer('refund'), 'rf', '2026-06-01T10:00:00Z', {
      plan: 'Basic',
      amountCents: 500,
    });
    await insertEvent(db, {
      subscriptionId: f,
      type: 'refund',
      occurredAt: '2026-06-02T10:00:00Z',
      amountCents: 500,
      currency: 'USD',
    });
    // Starts and ends in August.
    const g = await sub(await customer('brief'), 'br', '2026-08-03T10:00:00Z', {
      plan: 'Basic',
      amountCents: 700,
    });
    await change(
      g,
      `status = 'cancelled', ends_at = '2026-08-25T10:00:00Z'`,
      '2026-08-05T10:00:00Z',
    );
    // A trial recurs at 0.
    await sub(await customer('trial'), 'tr', '2026-11-10T10:00:00Z', {
      status: 'trialing',
      amountCents: 1900,
    });
  });

  it('shows each movement in its month, and the identity holds', async () => {
    const body = await revenue('from=2026-01-01&to=2026-11-20&interval=month');
    expectIdentity(body);
    const row = (date: string) => body.movements.find((m) => m.date === date);
    expect(row('2026-01-01')).toMatchObject({ new_cents: 999 + 1900 });
    expect(row('2026-02-01')).toMatchObject({ new_cents: 1000 + 1000 });
    expect(row('2026-03-01')).toMatchObject({ new_cents: 1080, expansion_cents: 901 });
    expect(row('2026-04-01')).toMatchObject({ contraction_cents: 901 });
    expect(row('2026-05-01')).toMatchObject({ churn_cents: 1000 });
    expect(row('2026-06-01')).toEqual({
      date: '2026-06-01',
      new_cents: 500,
      expansion_cents: 0,
      contraction_cents: 0,
      churn_cents: 0,
      reactivation_cents: 0,
    });
    expect(row('2026-07-01')).toMatchObject({ reactivation_cents: 1000, new_cents: 0 });
    expect(row('2026-08-01')).toMatchObject({ new_cents: 700, churn_cents: 700 });
    expect(body.mrr_start_cents).toBe(0);
    expect(body.mrr_end_cents).toBe(1900 + 999 + 1000 + 1000 + 1080 + 500);
    expect(body.mrr_end_cents).toBe(await dashboardMrr());
    expect(body.mrr_by_plan).toEqual([
      { plan: 'Pro', mrr_cents: 1900 + 1000 + 1000 + 1080 },
      { plan: 'Basic', mrr_cents: 999 + 500 },
    ]);
    await expectMatchesReference(await storedSegments(), {
      from: '2026-01-01',
      to: '2026-11-20',
      interval: 'month',
    });
  });

  it('reads a plan change alone under a plan filter', async () => {
    const body = await revenue('from=2026-01-01&interval=month&plan=basic');
    expectIdentity(body);
    const row = (date: string) => body.movements.find((m) => m.date === date);
    expect(row('2026-03-01')).toMatchObject({ contraction_cents: 999, expansion_cents: 0 });
    expect(row('2026-04-01')).toMatchObject({ expansion_cents: 999, contraction_cents: 0 });
    await expectMatchesReference(await storedSegments(), {
      from: '2026-01-01',
      interval: 'month',
      plan: 'basic',
    });
  });

  it('counts churned customers of the start only, and rates over the range', async () => {
    const body = await revenue('from=2026-08-01&to=2026-08-31');
    // Active on 1 August: upgrade, downgrade, comeback (2nd), yearly, euro, refund = 6; the
    // August customer joined and churned inside the range and is not counted.
    expect(body.customers_start).toBe(6);
    expect(body.customers_churned).toBe(0);
    expect(body.customer_churn_rate).toBe(0);
    expect(body.ltv_cents).toBeNull();
    expect(body.quick_ratio).toBeCloseTo(1, 6);
    expect(body.nrr).toBe(1);
    const may = await revenue('from=2026-05-01&to=2026-05-31');
    expect(may.customers_start).toBe(5);
    expect(may.customers_churned).toBe(1);
    expect(may.nrr).toBeCloseTo((may.mrr_start_cents - 1000) / may.mrr_start_cents, 6);
    expect(may.ltv_cents).toBeGreaterThan(0);
  });

  it('follows a customer of the start through a churn and a comeback, and not one churning at the start', async () => {
    const sub = (customerId: number, providerId: string, at: string, amountCents: number) =>
      insertSubscription(db, { customerId, providerId, startDate: at, updatedAt: at, amountCents });
    const expire = (id: number, at: string) =>
      change(id, `status = 'expired', ends_at = '${at}'`, at);
    // Recurring on 1 February, churned on 10 February, back on 20 February, raised on 10 March:
    // a customer of the start whose last streak began after it.
    const again = await insertCustomer(db, 'again@example.com', 'again');
    await expire(await sub(again, 'ag1', '2026-01-05T10:00:00Z', 800), '2026-02-10T10:00:00Z');
    const second = await sub(again, 'ag2', '2026-02-20T10:00:00Z', 1000);
    await change(second, 'amount_cents = 1500', '2026-03-10T10:00:00Z');
    // And churned again on 20 March: still one customer of the start churned.
    await expire(second, '2026-03-20T10:00:00Z');
    // Churned at the very start of the range from 1 February (a streak of an earlier month), of
    // one from 10 February (a streak of the start's month) and of one from today (the range's
    // only, partial day): not customers of the start.
    for (const [name, start, end] of [
      ['edge', '2026-01-03T10:00:00Z', '2026-02-01T00:00:00Z'],
      ['edge2', '2026-02-03T10:00:00Z', '2026-02-10T00:00:00Z'],
      ['today', '2026-10-01T10:00:00Z', '2026-11-20T00:00:00Z'],
    ] as const) {
      const customer = await insertCustomer(db, `${name}@example.com`, name);
      await expire(await sub(customer, name, start, name === 'edge' ? 600 : 700), end);
    }

    const segments = await storedSegments();
    await expectMatchesReference(segments, {
      from: '2026-02-10',
      to: '2026-03-31',
      interval: 'day',
    });
    await expectMatchesReference(segments, { from: '2026-11-20', interval: 'day' });
    const q = { from: '2026-02-01', to: '2026-03-31', interval: 'day' };
    const body = await expectMatchesReference(segments, q);
    // Upgrade, downgrade and again; edge churned at the start's instant.
    expect(body.customers_start).toBe(3);
    expect(body.customers_churned).toBe(1);
    await expectMatchesReference(segments, { ...q, plan: 'pro' });
  });

  it('counts a customer of the start who churned once under a filter, whichever piece carries the churn', async () => {
    const sub = (
      customerId: number,
      providerId: string,
      at: string,
      cadence: 'monthly' | 'yearly' = 'monthly',
    ) =>
      insertSubscription(db, {
        customerId,
        providerId,
        cadence,
        startDate: at,
        updatedAt: at,
        amountCents: cadence === 'yearly' ? 12000 : 1000,
      });
    const expire = (id: number, at: string) =>
      change(id, `status = 'expired', ends_at = '${at}'`, at);
    const start = '2026-01-05T10:00:00Z';
    // A yearly and a monthly subscription ending at one instant: one churn, marked on the
    // yearly piece (the lower subscription id), which a monthly filter does not keep.
    const pair = await insertCustomer(db, 'pair@example.com', 'pair');
    const pairYearly = await sub(pair, 'pair-y', start, 'yearly');
    const pairMonthly = await sub(pair, 'pair-m', start);
    await expire(pairYearly, '2026-02-15T10:00:00Z');
    await expire(pairMonthly, '2026-02-15T10:00:00Z');
    // Two monthly subscriptions ending at one instant: one customer churned, not two.
    const twins = await insertCustomer(db, 'twins@example.com', 'twins');
    const twin1 = await sub(twins, 'tw1', start);
    const twin2 = await sub(twins, 'tw2', start);
    await expire(twin1, '2026-02-15T10:00:00Z');
    await expire(twin2, '2026-02-15T10:00:00Z');
    // Monthly and yearly at the start; the monthly ends first, the yearly then churns the
    // customer; back on a monthly plan, churned again in March. Under a monthly filter the only
    // churn kept is the later one.
    const mixed = await insertCustomer(db, 'mixed@example.com', 'mixed');
    const mixedMonthly = await sub(mixed, 'mx-m', start);
    const mixedYearly = await sub(mixed, 'mx-y', start, 'yearly');
    await expire(mixedMonthly, '2026-02-05T10:00:00Z');
    await expire(mixedYearly, '2026-02-10T10:00:00Z');
    await expire(await sub(mixed, 'mx-m2', '2026-02-20T10:00:00Z'), '2026-03-20T10:00:00Z');

    const segments = await storedSegments();
    const q = { from: '2026-02-01', to: '2026-03-31', interval: 'day' };
    // Customers of the start and churned, without a filter and under each filter, which the
    // reference computes too. Upgrade (Basic until March) and downgrade (Pro) recur monthly at the
    // start and stay; the three above churn under a filter that keeps a span of theirs at the
    // start: all but twins under the yearly filter.
    const counts: Array<[Record<string, string>, number, number]> = [
      [{}, 5, 3],
      [{ cadence: 'monthly' }, 5, 3],
      [{ cadence: 'yearly' }, 2, 2],
      [{ provider: 'lemonsqueezy' }, 5, 3],
      [{ plan: 'pro' }, 4, 3],
      [{ provider: 'lemonsqueezy', cadence: 'monthly' }, 5, 3],
    ];
    for (const [filters, customersStart, churned] of counts) {
      const body = await expectMatchesReference(segments, { ...q, ...filters });
      expect([body.customers_start, body.customers_churned], JSON.stringify(filters)).toEqual([
        customersStart,
        churned,
      ]);
    }
  });

  it('lists the subscriptions behind a bar', async () => {
    const list = await get<{ rows: Array<{ email: string; kind: string; delta_cents: number }> }>(
      '/metrics/revenue/movements/2026-03-01?interval=month&kind=expansion',
    );
    expect(list.rows).toEqual([
      expect.objectContaining({
        email: 'upgrade@example.com',
        kind: 'expansion',
        delta_cents: 1900,
      }),
      expect.objectContaining({
        email: 'upgrade@example.com',
        kind: 'expansion',
        delta_cents: -999,
      }),
    ]);
    const all = await get<{ total: number }>(
      '/metrics/revenue/movements/2026-08-01?interval=month',
    );
    expect(all.total).toBe(2);
  });

  it('builds cohorts as the reference does', async () => {
    const body = await expectCohortsMatch(await storedSegments(), 'from=2026-01-01');
    const jan = body.cohorts.find((c) => c.cohort === '2026-01');
    expect(jan).toMatchObject({ customers: 2, mrr_cents: 999 + 1900 });
    // March: the upgrade makes revenue retention exceed 100 %, the downgrade lowers it in April.
    expect(jan?.revenue[2]).toBe(Math.round(((1900 + 1900) / 2899) * 1000) / 10);
  });

  it('answers 400 for a bad query', async () => {
    for (const qs of [
      'from=2026-13-01',
      'interval=week',
      'provider=stripe',
      'from=2026-05-01&to=2026-04-01',
    ]) {
      const res = await call(testApp(deps(), [revenueRoutes]), 'GET', `/metrics/revenue?${qs}`);
      expect(res.status, qs).toBe(400);
    }
    const res = await call(testApp(deps(), [revenueRoutes]), 'GET', '/metrics/revenue/movements/x');
    expect(res.status).toBe(400);
  });
});

describe('on the seed', () => {
  let segments: RefSegment[];
  beforeAll(async () => {
    await resetDb(db);
    await seedDemoData(db, { customers: 600, seed: 7, now: NOW });
    segments = await storedSegments();
  }, 120_000);

  it('has every movement', async () => {
    const body = await revenue('from=2024-11-01&interval=month');
    const sum = (f: (m: RevenueJson['movements'][number]) => number) =>
      body.movements.reduce((s, m) => s + f(m), 0);
    expect(sum((m) => m.new_cents)).toBeGreaterThan(0);
    expect(sum((m) => m.expansion_cents)).toBeGreaterThan(0);
    expect(sum((m) => m.contraction_cents)).toBeGreaterThan(0);
    expect(sum((m) => m.churn_cents)).toBeGreaterThan(0);
    expect(sum((m) => m.reactivation_cents)).toBeGreaterThan(0);
  });

  it.each<Record<string, string>>([
    { from: '2024-11-01', interval: 'month' },
    { from: '2026-10-24', interval: 'day' },
    { from: '2025-06-01', to: '2026-02-28', interval: 'month', plan: 'pro' },
    { from: '2025-11-01', interval: 'month', provider: 'clickbank', cadence: 'monthly' },
  ])('matches the reference for %o', async (q) => {
    await expectMatchesReference(segments, q);
  });

  it('ends on the dashboard MRR', async () => {
    const body = await revenue('from=2026-01-01');
    expect(body.mrr_end_cents).toBe(await dashboardMrr());
  });

  it('matches the reference cohorts', async () => {
    await expectCohortsMatch(segments, 'from=2024-11-01');
    await expectCohortsMatch(segments, 'from=2025-11-01&provider=lemonsqueezy', 'lemonsqueezy');
  });
});

describe('generated histories', () => {
  const DAY = 86_400_000;
  const T0 = Date.parse('2026-01-01T00:00:00Z');
  type Op =
    | { kind: 'amount'; cents: number }
    | { kind: 'plan'; plan: 'Basic' | 'Pro'; cents: number }
    | { kind: 'cancel'; days: number }
    | { kind: 'resume' }
    | { kind: 'expire' }
    | { kind: 'again'; cents: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('amount' as const), cents: fc.integer({ min: 100, max: 5000 }) }),
    fc.record({
      kind: fc.constant('plan' as const),
      plan: fc.constantFrom('Basic' as const, 'Pro' as const),
      cents: fc.integer({ min: 100, max: 5000 }),
    }),
    fc.record({ kind: fc.constant('cancel' as const), days: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ kind: fc.constant('resume' as const) }),
    fc.record({ kind: fc.constant('expire' as const) }),
    fc.record({ kind: fc.constant('again' as const), cents: fc.integer({ min: 100, max: 5000 }) }),
  );
  const customer = fc.record({
    startDay: fc.integer({ min: 0, max: 300 }),
    cadence: fc.constantFrom('monthly' as const, 'yearly' as const),
    currency: fc.constantFrom('USD', 'EUR'),
    provider: fc.constantFrom('lemonsqueezy' as const, 'clickbank' as const),
    cents: fc.integer({ min: 100, max: 30000 }),
    ops: fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), op), { maxLength: 6 }),
  });

  it('match the reference: identity, movements, customers, cohorts, dashboard MRR', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(customer, { minLength: 1, maxLength: 5 }), async (customers) => {
        await resetDb(db);
        const segments: RefSegment[] = [];
        let n = 0;
        for (const c of customers) {
          n++;
          const customerId = await insertCustomer(db, `gen${n}@example.com`);
          let t = T0 + c.startDay * DAY;
          let states: RefState[] = [];
          let state: RefState = {
            at: t,
            customer: customerId,
            provider: c.provider,
            plan: 'Pro',
            cadence: c.cadence,
            currency: c.currency,
            status: 'active',
            amountCents: c.cents,
            endsAt: null,
          };
          const insert = async () => {
            const id = await insertSubscription(db, {
              customerId,
              provider: state.provider as 'lemonsqueezy' | 'clickbank',
              providerId: `g${n}-${t}`,
              status: state.status,
              cadence: state.cadence,
              plan: state.plan,
              amountCents: state.amountCents,
              currency: state.currency,
              startDate: new Date(t).toISOString(),
              updatedAt: new Date(t).toISOString(),
            });
            states = [state];
            return id;
          };
          let id = await insert();
          const flush = () => segments.push(...segmentsFromStates(id, states));
          for (const [gap, o] of c.ops) {
            t += gap * DAY + 1000 * gap;
            if (t >= NOW.getTime()) break;
            const at = new Date(t).toISOString();
            const set = async (sql: string, next: Partial<RefState>) => {
              await db.query(`UPDATE subscriptions SET ${sql}, updated_at = $2 WHERE id = $1`, [
                id,
                at,
              ]);
              state = { ...state, ...next, at: t };
              states.push(state);
            };
            const live = state.status === 'active' || state.status === 'cancelled';
            if (o.kind === 'amount' && live)
              await set(`amount_cents = ${o.cents}`, { amountCents: o.cents });
            if (o.kind === 'plan' && live) {
              await set(`plan = '${o.plan}', amount_cents = ${o.cents}`, {
                plan: o.plan,
                amountCents: o.cents,
              });
            }
            if (o.kind === 'cancel' && state.status === 'active') {
              const ends = t + o.days * DAY;
              await set(`status = 'cancelled', ends_at = '${new Date(ends).toISOString()}'`, {
                status: 'cancelled',
                endsAt: ends,
              });
            }
            if (o.kind === 'resume' && state.status === 'cancelled' && (state.endsAt ?? 0) > t) {
              await set(`status = 'active', ends_at = NULL`, { status: 'active', endsAt: null });
            }
            if (o.kind === 'expire' && state.status === 'active') {
              await set(`status = 'expired', ends_at = '${at}'`, { status: 'expired', endsAt: t });
            }
            if (
              o.kind === 'again' &&
              (state.status === 'expired' || state.status === 'cancelled')
            ) {
              flush();
              state = { ...state, status: 'active', amountCents: o.cents, endsAt: null, at: t };
              id = await insert();
            }
          }
          flush();
        }
        const queries: Array<Record<string, string>> = [
          { from: '2026-01-01', interval: 'month' },
          { from: '2026-03-01', to: '2026-09-30', interval: 'day' },
          { from: '2026-02-01', interval: 'month', plan: 'basic' },
          // A provider or a cadence alone is completed by every value of the other (migration
          // 039); both together read their own slice.
          { from: '2026-02-01', interval: 'month', provider: 'lemonsqueezy' },
          { from: '2026-03-01', interval: 'month', cadence: 'yearly' },
          { from: '2026-02-01', interval: 'month', provider: 'clickbank', cadence: 'monthly' },
        ];
        for (const q of queries) await expectMatchesReference(segments, q);
        const body = await revenue('from=2026-06-01');
        expect(body.mrr_end_cents).toBe(await dashboardMrr());
        await expectCohortsMatch(segments, 'from=2026-01-01');
      }),
      { numRuns: 25, seed: 26 },
    );
  }, 300_000);
});

describe('overlapping subscriptions', () => {
  const DAY = 86_400_000;
  const T0 = Date.parse('2026-01-01T00:00:00Z');
  // A coarse grid of instants, midnights every 5 days and the noons after them, so that ends and
  // starts of different subscriptions coincide often and churns fall on a range's start.
  const instant = (i: number) => T0 + Math.floor(i / 2) * 5 * DAY + (i % 2) * 12 * 3_600_000;
  const key = fc.record({
    provider: fc.constantFrom('lemonsqueezy', 'clickbank'),
    plan: fc.constantFrom('Basic', 'Pro'),
    cadence: fc.constantFrom('monthly', 'yearly'),
    currency: fc.constantFrom('USD', 'EUR'),
  });
  // A subscription: a start slot, then stretches (key, value, length in slots, gap after it: 0
  // is a change of key or value, as a plan or cadence change splits into two pieces).
  const subscription = fc.record({
    start: fc.integer({ min: 0, max: 14 }),
    stretches: fc.array(
      fc.record({
        key,
        cents: fc.constantFrom(1000, 2000),
        len: fc.integer({ min: 1, max: 6 }),
        gap: fc.constantFrom(0, 0, 1, 3),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    open: fc.boolean(),
  });
  const customer = fc.array(subscription, { minLength: 1, maxLength: 3 });
  const filters: Array<Record<string, string>> = [
    {},
    { cadence: 'monthly' },
    { cadence: 'yearly' },
    { provider: 'lemonsqueezy' },
    { provider: 'clickbank' },
    { plan: 'basic' },
    { plan: 'pro' },
    { provider: 'lemonsqueezy', cadence: 'monthly' },
    { plan: 'pro', cadence: 'yearly' },
  ];

  it('match the reference under every filter: movements, customers, churned customers, NRR', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(customer, { minLength: 1, maxLength: 5 }), async (customers) => {
        await resetDb(db);
        // The history is written as spans directly (several subscriptions of one customer ending
        // at one instant, churns at a range's start), and the movements rebuilt from it.
        const segments: RefSegment[] = [];
        let n = 0;
        for (const subs of customers) {
          n++;
          const customerId = await insertCustomer(db, `overlap${n}@example.com`);
          for (const s of subs) {
            const id = await insertSubscription(db, {
              customerId,
              providerId: `overlap${n}-${segments.length}`,
              status: 'expired',
              startDate: new Date(T0).toISOString(),
            });
            let slot = s.start;
            s.stretches.forEach((p, i) => {
              const from = instant(slot);
              slot += p.len;
              const to = i === s.stretches.length - 1 && s.open ? null : instant(slot);
              segments.push({
                subscription: id,
                customer: customerId,
                ...p.key,
                twelfths: p.cents * 12,
                from,
                to,
              });
              slot += p.gap;
            });
          }
        }
        await db.query('DELETE FROM revenue_spans');
        for (const s of segments) {
          await db.query(
            `INSERT INTO revenue_spans (subscription_id, customer_id, provider, plan, cadence, currency,
                                        mrr_twelfths, valid_from, valid_to)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              s.subscription,
              s.customer,
              s.provider,
              s.plan,
              s.cadence,
              s.currency,
              s.twelfths,
              new Date(s.from).toISOString(),
              s.to == null ? null : new Date(s.to).toISOString(),
            ],
          );
        }
        await db.query('SELECT revenue_rebuild()');
        for (const from of ['2026-01-11', '2026-01-16', '2026-01-21', '2026-01-26']) {
          for (const f of filters) {
            const to = from < '2026-01-20' ? '2026-02-14' : '2026-02-25';
            await expectMatchesReference(segments, { from, to, interval: 'day', ...f });
          }
        }
      }),
      { numRuns: 30, seed: 7 },
    );
  }, 300_000);
});
