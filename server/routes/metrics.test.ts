import type { Db } from '../db/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { insertEvent } from '../testing/fixtures';
import { NOW, seedScenario } from '../testing/scenario';
import { createStatsRouter } from './stats';
import { metricsRoutes, type MetricsOverviewJson } from './metrics';

let db: Db;
beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const FX = { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } };
const app = () => testApp(testDeps(db, NOW, FX), [metricsRoutes, createStatsRouter]);
const overview = async (qs = ''): Promise<MetricsOverviewJson> => {
  const res = await call(app(), 'GET', `/metrics/overview${qs}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MetricsOverviewJson;
};
const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((s, r) => s + f(r), 0);

/** Every invariant the §3 response promises, whatever the filters. */
function expectConsistent(body: MetricsOverviewJson): void {
  const { totals, series, pies } = body;
  const days = (Date.parse(body.range.to) - Date.parse(body.range.from)) / 86_400_000 + 1;
  expect(series.lineDaily).toHaveLength(days);
  expect(series.lineDaily[0]?.date).toBe(body.range.from);
  expect(series.lineDaily.at(-1)?.date).toBe(body.range.to);
  expect(sum(series.lineDaily, (r) => r.new)).toBe(totals.totalNewInRange);
  expect(sum(series.lineDaily, (r) => r.renewals)).toBe(totals.totalRenewalsInRange);
  expect(sum(series.lineDaily, (r) => r.cancellations)).toBe(totals.totalCancellationsInRange);
  expect(sum(series.byProviderDaily, (r) => r.total)).toBe(
    totals.totalNewInRange + totals.totalRenewalsInRange,
  );
  expect(sum(series.byProviderDailyAmountCents, (r) => r.total)).toBe(totals.estimatedRevenueCents);
  for (const r of [...series.byProviderDaily, ...series.byProviderDailyAmountCents]) {
    expect(r.total).toBe(r.lemonsqueezy + r.clickbank);
  }
  expect(sum(pies.activeByProvider, (p) => p.cnt)).toBe(totals.totalActive);
  expect(sum(pies.activeByPlan, (p) => p.cnt)).toBe(totals.totalActive);
  expect(totals.churnRate).toBeCloseTo(
    totals.activeAtStart > 0 ? totals.totalCancellationsInRange / totals.activeAtStart : 0,
    5,
  );
}

describe('GET /metrics/overview on a small scenario', () => {
  beforeEach(async () => {
    await resetDb(db);
    await seedScenario(db);
    // Subscriptions (scenario): 1 LS active monthly USD, 2 CB active yearly USD, 3 LS on_trial
    // (no access), 4 LS past_due yearly EUR. Plans are all 'pro'.
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'renewal',
      occurredAt: '2026-09-05T10:00:00Z',
      amountCents: 1000,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 3,
      type: 'new',
      occurredAt: '2026-11-01T08:00:00Z',
      amountCents: 0,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'new',
      occurredAt: '2026-11-05T10:00:00Z',
      amountCents: 1000,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'new',
      occurredAt: '2026-11-10T00:00:00Z',
      amountCents: 4900,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'renewal',
      occurredAt: '2026-11-18T23:59:59Z',
      amountCents: 1000,
    });
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'cancellation',
      occurredAt: '2026-11-19T09:00:00Z',
    });
    await insertEvent(db, {
      subscriptionId: 4,
      type: 'renewal',
      occurredAt: '2026-11-19T10:00:00Z',
      amountCents: 9900,
      currency: 'EUR',
    });
    await insertEvent(db, {
      subscriptionId: 4,
      type: 'refund',
      occurredAt: '2026-11-19T11:00:00Z',
      amountCents: 9900,
      currency: 'EUR',
    });
  });

  it('answers the default last 28 UTC days with exact totals, series and pies', async () => {
    const body = await overview();
    expect(body.range).toEqual({ from: '2026-10-24', to: '2026-11-20' });
    expect(body.currency).toBe('USD');
    expect(body.totals).toEqual({
      totalActive: 3,
      totalNewInRange: 3,
      totalRenewalsInRange: 2,
      totalCancellationsInRange: 1,
      activeAtStart: 3,
      churnRate: 0.333333,
      estimatedRevenueCents: 1000 + 4900 + 1000 + 10692,
    });
    expect(body.series.lineDaily).toHaveLength(28);
    expect(body.series.lineDaily.filter((r) => r.new + r.renewals + r.cancellations > 0)).toEqual([
      { date: '2026-11-01', new: 1, renewals: 0, cancellations: 0 },
      { date: '2026-11-05', new: 1, renewals: 0, cancellations: 0 },
      { date: '2026-11-10', new: 1, renewals: 0, cancellations: 0 },
      { date: '2026-11-18', new: 0, renewals: 1, cancellations: 0 },
      { date: '2026-11-19', new: 0, renewals: 1, cancellations: 1 },
    ]);
    expect(body.series.byProviderDaily.find((r) => r.date === '2026-11-10')).toEqual({
      date: '2026-11-10',
      lemonsqueezy: 0,
      clickbank: 1,
      total: 1,
    });
    expect(body.series.byProviderDailyAmountCents.find((r) => r.date === '2026-11-19')).toEqual({
      date: '2026-11-19',
      lemonsqueezy: 10692,
      clickbank: 0,
      total: 10692,
    });
    expect(body.pies).toEqual({
      activeByProvider: [
        { provider: 'lemonsqueezy', cnt: 2 },
        { provider: 'clickbank', cnt: 1 },
      ],
      activeByPlan: [{ plan: 'pro', cnt: 3 }],
    });
    expectConsistent(body);
  });

  it('leaves a currency without an FX rate out of money, not out of counts', async () => {
    const noEur = testApp(testDeps(db, NOW, { fxRates: { USD: 1 } }), [metricsRoutes]);
    const res = await call(noEur, 'GET', '/metrics/overview');
    expect(res.status).toBe(200);
    const body = res.body as MetricsOverviewJson;
    expect(body.totals.totalRenewalsInRange).toBe(2);
    expect(body.totals.estimatedRevenueCents).toBe(1000 + 4900 + 1000);
    expectConsistent(body);
  });

  it('agrees with the dashboard: totalActive equals /stats activeSubscribers', async () => {
    const stats = await call(app(), 'GET', '/stats');
    expect(stats.status).toBe(200);
    expect((await overview()).totals.totalActive).toBe(stats.body.activeSubscribers);
  });

  it('narrows every part by provider', async () => {
    const cb = await overview('?provider=clickbank');
    expect(cb.totals).toMatchObject({
      totalActive: 1,
      totalNewInRange: 1,
      totalRenewalsInRange: 0,
      totalCancellationsInRange: 1,
      activeAtStart: 1,
      churnRate: 1,
      estimatedRevenueCents: 4900,
    });
    expect(cb.pies.activeByProvider).toEqual([{ provider: 'clickbank', cnt: 1 }]);
    expect(cb.series.byProviderDaily.every((r) => r.lemonsqueezy === 0)).toBe(true);
    expectConsistent(cb);
    const ls = await overview('?provider=LemonSqueezy');
    expect(ls.totals).toMatchObject({
      totalActive: 2,
      totalNewInRange: 2,
      totalRenewalsInRange: 2,
      totalCancellationsInRange: 0,
    });
    expectConsistent(ls);
    expect(await overview('?provider=all')).toEqual(await overview());
  });

  it('narrows by status (the subscription status now), plan and source, case-insensitively', async () => {
    const active = await overview('?status=active');
    // Subscription 3 is on_trial (not one of active, trialing, past_due): its new event drops out.
    expect(active.totals).toMatchObject({
      totalActive: 3,
      totalNewInRange: 2,
      totalRenewalsInRange: 2,
    });
    expectConsistent(active);
    const expired = await overview('?status=expired');
    expect(expired.totals).toMatchObject({
      totalActive: 0,
      totalNewInRange: 0,
      totalRenewalsInRange: 0,
      totalCancellationsInRange: 0,
      estimatedRevenueCents: 0,
    });
    expect(expired.series.byProviderDaily).toEqual([]);
    expect(expired.series.byProviderDailyAmountCents).toEqual([]);
    expect(expired.pies).toEqual({ activeByProvider: [], activeByPlan: [] });
    expect(expired.series.lineDaily).toHaveLength(28);
    expect((await overview('?plan=PRO')).totals).toEqual((await overview()).totals);
    expect((await overview('?plan=basic')).totals.totalActive).toBe(0);

    await db.query("UPDATE subscriptions SET source = 'superaff' WHERE id = 2");
    const src = await overview('?source=SuperAff');
    expect(src.totals).toMatchObject({
      totalActive: 1,
      totalNewInRange: 1,
      totalCancellationsInRange: 1,
      estimatedRevenueCents: 4900,
    });
    expectConsistent(src);
  });

  it('type narrows the payment figures to new or renewal events', async () => {
    const news = await overview('?type=new');
    expect(news.totals).toMatchObject({
      totalNewInRange: 3,
      totalRenewalsInRange: 0,
      totalCancellationsInRange: 1,
      estimatedRevenueCents: 5900,
      totalActive: 3,
    });
    expectConsistent(news);
    const renewals = await overview('?type=renewal');
    expect(renewals.totals).toMatchObject({
      totalNewInRange: 0,
      totalRenewalsInRange: 2,
      estimatedRevenueCents: 1000 + 10692,
    });
    expectConsistent(renewals);
  });

  it('follows later writes: new events and status changes move through the roll-ups', async () => {
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'cancellation',
      occurredAt: '2026-11-20T08:00:00Z',
    });
    await db.query(
      "UPDATE subscriptions SET status = 'cancelled', ends_at = '2026-12-05T10:00:00Z' WHERE id = 1",
    );
    const all = await overview();
    expect(all.totals.totalCancellationsInRange).toBe(2);
    expect(all.totals.totalActive).toBe(3); // cancelled, but paid until December
    const cancelled = await overview('?status=cancelled');
    expect(cancelled.totals).toMatchObject({
      totalActive: 1,
      totalNewInRange: 1,
      totalRenewalsInRange: 1,
      totalCancellationsInRange: 1,
    });
    expectConsistent(cancelled);
    await db.query("DELETE FROM subscription_events WHERE subscription_id = 1 AND type = 'new'");
    expect((await overview()).totals.totalNewInRange).toBe(2);
  });

  it('answers explicit, one-day, all-time and empty ranges', async () => {
    const day = await overview('?from=2026-11-19&to=2026-11-19');
    expect(day.series.lineDaily).toEqual([
      { date: '2026-11-19', new: 0, renewals: 1, cancellations: 1 },
    ]);
    // Churn: 1 cancellation ÷ 3 active at 2026-11-19 00:00 (subscription 3's trial had ended).
    expect(day.totals.activeAtStart).toBe(3);
    const all = await overview('?to=2026-11-20');
    expect(all.range).toEqual({ from: '2026-09-05', to: '2026-11-20' });
    expect(all.totals.totalRenewalsInRange).toBe(3);
    expectConsistent(all);
    const fromOnly = await overview('?from=2026-11-18');
    expect(fromOnly.range).toEqual({ from: '2026-11-18', to: '2026-11-20' });
    const empty = await overview('?from=2020-01-01&to=2020-01-31');
    expect(empty.totals).toMatchObject({
      totalNewInRange: 0,
      totalRenewalsInRange: 0,
      totalCancellationsInRange: 0,
      activeAtStart: 0,
      churnRate: 0,
      estimatedRevenueCents: 0,
    });
    expect(empty.series.lineDaily).toHaveLength(31);
    expect(
      empty.series.lineDaily.every((r) => r.new === 0 && r.renewals === 0 && r.cancellations === 0),
    ).toBe(true);
    expect(empty.series.byProviderDaily).toEqual([]);
    expect(empty.series.byProviderDailyAmountCents).toEqual([]);
  });

  it('answers zeros and zero days on an empty database', async () => {
    await resetDb(db);
    const body = await overview();
    expect(body.totals).toEqual({
      totalActive: 0,
      totalNewInRange: 0,
      totalRenewalsInRange: 0,
      totalCancellationsInRange: 0,
      activeAtStart: 0,
      churnRate: 0,
      estimatedRevenueCents: 0,
    });
    expect(body.series.lineDaily).toHaveLength(28);
    expect(body.pies).toEqual({ activeByProvider: [], activeByPlan: [] });
    expect((await overview('?to=2026-11-20')).range).toEqual({
      from: '2026-11-20',
      to: '2026-11-20',
    });
  });

  it.each([
    ['from=2026-13-01', /from must be a UTC day/],
    ['from=2026-02-30', /from must be a UTC day/],
    ['to=yesterday', /to must be a UTC day/],
    ['from=2026-11-01%2010:00:00', /from must be a UTC day/],
    ['from=2026-11-10&to=2026-11-01', /after/],
    ['from=2000-01-01&to=2026-01-01', /at most 3660 days/],
    ['provider=paypal', /provider must be one of/],
    ['status=paused', /status must be one of/],
    ['type=refund', /type must be one of/],
    [`plan=${'x'.repeat(101)}`, /plan must be at most 100/],
  ])('answers 400 JSON for %s', async (qs, message) => {
    const res = await call(app(), 'GET', `/metrics/overview?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /metrics/overview on seeded demo data', () => {
  beforeAll(async () => {
    await resetDb(db);
    await seedDemoData(db, { customers: 300, seed: 11, now: NOW });
  }, 60_000);

  it('keeps every invariant over 365 days and matches the raw events and /stats', async () => {
    const body = await overview('?from=2025-11-21&to=2026-11-20');
    expect(body.series.lineDaily).toHaveLength(365);
    expectConsistent(body);
    const stats = await call(app(), 'GET', '/stats');
    expect(body.totals.totalActive).toBe(stats.body.activeSubscribers);
    const raw = await db.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM subscription_events
        WHERE occurred_at >= '2025-11-21T00:00:00Z' AND occurred_at < '2026-11-21T00:00:00Z' GROUP BY type`,
    );
    const n = (t: string) => raw.rows.find((r) => r.type === t)?.n ?? 0;
    expect(body.totals.totalNewInRange).toBe(n('new'));
    expect(body.totals.totalRenewalsInRange).toBe(n('renewal'));
    expect(body.totals.totalCancellationsInRange).toBe(n('cancellation'));
    expect(body.totals.totalNewInRange).toBeGreaterThan(50);
    expect(body.totals.estimatedRevenueCents).toBeGreaterThan(0);
  });

  it('partitions by provider and by plan, and status filters narrow', async () => {
    const qs = '?from=2026-05-01&to=2026-11-20';
    const all = await overview(qs);
    const parts = await Promise.all(
      ['lemonsqueezy', 'clickbank'].map((p) => overview(`${qs}&provider=${p}`)),
    );
    const plans = await Promise.all(
      ['Basic', 'Pro', 'Premium'].map((p) => overview(`${qs}&plan=${p}`)),
    );
    for (const split of [parts, plans]) {
      for (const key of [
        'totalActive',
        'totalNewInRange',
        'totalRenewalsInRange',
        'totalCancellationsInRange',
        'activeAtStart',
      ] as const) {
        expect(sum(split, (b) => b.totals[key])).toBe(all.totals[key]);
      }
      expect(
        Math.abs(
          sum(split, (b) => b.totals.estimatedRevenueCents) - all.totals.estimatedRevenueCents,
        ),
      ).toBeLessThanOrEqual(400);
      for (const b of split) expectConsistent(b);
    }
    for (const status of ['active', 'cancelled', 'expired']) {
      const b = await overview(`${qs}&status=${status}`);
      expectConsistent(b);
      expect(b.totals.totalNewInRange).toBeLessThan(all.totals.totalNewInRange);
    }
    const source = await overview(`${qs}&source=google`);
    expectConsistent(source);
    expect(source.totals.totalActive).toBeGreaterThan(0);
    expect(source.totals.totalActive).toBeLessThan(all.totals.totalActive);
    expect(source.pies.activeByProvider.map((p) => p.provider)).toEqual(['lemonsqueezy']);
  });
});
