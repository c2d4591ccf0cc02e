import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { ServerConfig } from '../context';
import { openTestDatabase } from '../testing/database';
import { downDatabase, makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';
import { computeAdminStatus, utcDayBounds } from '.';
import { invalidateStatsCache } from './cache';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY_MS = 86_400_000;

/** The hand-built dataset: one subscription per line (customer 12 has none, customer 13 has two). */
interface Sub {
  id: number;
  customer: number;
  provider: 'lemonsqueezy' | 'clickbank';
  status: string;
  cadence: 'monthly' | 'yearly';
  amount: number | null;
  currency: string;
  periodEnd: string | null;
  endsAt: string | null;
}
const SUBS: Sub[] = [
  {
    id: 1,
    customer: 1,
    provider: 'lemonsqueezy',
    status: 'active',
    cadence: 'monthly',
    amount: 1900,
    currency: 'USD',
    periodEnd: '2026-12-05T12:00:00Z',
    endsAt: null,
  },
  {
    id: 2,
    customer: 2,
    provider: 'lemonsqueezy',
    status: 'trialing',
    cadence: 'monthly',
    amount: 999,
    currency: 'EUR',
    periodEnd: '2026-11-25T12:00:00Z',
    endsAt: null,
  },
  {
    id: 3,
    customer: 3,
    provider: 'lemonsqueezy',
    status: 'past_due',
    cadence: 'yearly',
    amount: 19000,
    currency: 'GBP',
    periodEnd: '2026-11-18T12:00:00Z',
    endsAt: null,
  },
  {
    id: 4,
    customer: 4,
    provider: 'clickbank',
    status: 'cancelled',
    cadence: 'monthly',
    amount: 2900,
    currency: 'USD',
    periodEnd: '2026-11-30T12:00:00Z',
    endsAt: '2026-11-30T12:00:00Z',
  },
  {
    id: 5,
    customer: 5,
    provider: 'lemonsqueezy',
    status: 'cancelled',
    cadence: 'yearly',
    amount: 9900,
    currency: 'EUR',
    periodEnd: '2026-11-19T12:00:00Z',
    endsAt: '2026-11-19T12:00:00Z',
  },
  {
    id: 6,
    customer: 6,
    provider: 'lemonsqueezy',
    status: 'expired',
    cadence: 'monthly',
    amount: 999,
    currency: 'USD',
    periodEnd: '2026-11-18T00:00:00Z',
    endsAt: '2026-11-18T00:00:00Z',
  },
  {
    id: 7,
    customer: 7,
    provider: 'lemonsqueezy',
    status: 'paused',
    cadence: 'monthly',
    amount: 1900,
    currency: 'USD',
    periodEnd: '2026-12-01T00:00:00Z',
    endsAt: null,
  },
  {
    id: 8,
    customer: 8,
    provider: 'clickbank',
    status: 'active',
    cadence: 'yearly',
    amount: 29000,
    currency: 'USD',
    periodEnd: '2027-06-01T12:00:00Z',
    endsAt: null,
  },
  {
    id: 9,
    customer: 9,
    provider: 'lemonsqueezy',
    status: 'unpaid',
    cadence: 'monthly',
    amount: 2900,
    currency: 'USD',
    periodEnd: '2026-10-01T00:00:00Z',
    endsAt: '2026-10-01T00:00:00Z',
  },
  {
    id: 10,
    customer: 10,
    provider: 'clickbank',
    status: 'active',
    cadence: 'monthly',
    amount: null,
    currency: 'USD',
    periodEnd: '2026-12-01T12:00:00Z',
    endsAt: null,
  },
  {
    id: 11,
    customer: 11,
    provider: 'lemonsqueezy',
    status: 'active',
    cadence: 'monthly',
    amount: 1900,
    currency: 'JPY',
    periodEnd: '2026-12-10T12:00:00Z',
    endsAt: null,
  },
  {
    id: 12,
    customer: 13,
    provider: 'lemonsqueezy',
    status: 'expired',
    cadence: 'monthly',
    amount: 999,
    currency: 'USD',
    periodEnd: '2026-06-01T00:00:00Z',
    endsAt: '2026-06-01T00:00:00Z',
  },
  {
    id: 13,
    customer: 13,
    provider: 'lemonsqueezy',
    status: 'active',
    cadence: 'monthly',
    amount: 999,
    currency: 'USD',
    periodEnd: '2026-12-15T12:00:00Z',
    endsAt: null,
  },
];
/** Members: [customer, subscription id or null, mg_status, expires_at]. */
const MEMBERS: Array<[number, number | null, 'active' | 'cancelled', string | null]> = [
  [1, 1, 'active', null],
  [2, 2, 'active', null],
  [3, 3, 'active', null],
  [4, 4, 'active', '2026-11-30T12:00:00Z'], // scheduled cancellation
  [5, 5, 'cancelled', '2026-11-19T12:00:00Z'],
  [6, 6, 'active', '2026-11-18T00:00:00Z'], // waiting for the expiration job
  [7, 7, 'cancelled', null],
  [8, 8, 'active', null],
  [10, 10, 'active', null],
  [12, null, 'active', '2026-12-24T09:00:00Z'], // granted until a date, no subscription
  [13, 13, 'active', null],
];
/** Events: [subscription, type, occurred_at, amount, currency]. */
const EVENTS: Array<[number, string, string, number | null, string | null]> = [
  [1, 'new', '2026-10-05T12:00:00Z', 1900, 'USD'],
  [1, 'renewal', '2026-11-20T00:00:00Z', 1900, 'USD'], // first instant of today
  [2, 'new', '2026-11-20T08:00:00Z', 0, 'EUR'],
  [13, 'new', '2026-11-20T11:59:59Z', 999, 'USD'],
  [13, 'new', '2026-11-20T23:59:59Z', 999, 'USD'], // later today: still today
  [4, 'cancellation', '2026-11-20T10:00:00Z', null, null],
  [3, 'new', '2025-11-18T12:00:00Z', 19000, 'GBP'],
  [5, 'new', '2025-11-19T12:00:00Z', 9900, 'EUR'],
  [5, 'cancellation', '2026-11-19T09:00:00Z', null, null], // yesterday
  [5, 'refund', '2026-11-19T09:00:00Z', 9900, 'EUR'],
  [8, 'new', '2026-06-01T12:00:00Z', 29000, 'USD'],
  [10, 'new', '2026-11-19T23:59:59Z', 4700, null], // yesterday; currency from the subscription
  [4, 'renewal', '2026-10-30T12:00:00Z', 2900, 'USD'],
  [11, 'new', '2026-11-10T12:00:00Z', 1900, 'JPY'], // no FX rate: left out
  [6, 'expiration', '2026-11-18T00:00:00Z', null, null],
  [1, 'renewal', '2026-11-21T00:00:00Z', 1900, 'USD'], // tomorrow: not today (still revenue)
];

const RATES: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27 };

let db: Db;
let config: ServerConfig;
let token: string;

beforeAll(async () => {
  db = await openTestDatabase();
  config = await makeTestConfig({ fxRates: RATES });
  token = await testSessionToken(db, config, NOW);
  for (let c = 1; c <= 13; c++) {
    await db.query('INSERT INTO customers (id, email, name) VALUES ($1, $2, $3)', [
      c,
      `customer${c}@example.com`,
      `Customer ${c}`,
    ]);
  }
  for (const s of SUBS) {
    await db.query(
      `INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end, ends_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'Pro', $7, $8, '2025-01-01T00:00:00Z', $9, $10)`,
      [
        s.id,
        s.customer,
        s.provider,
        `p-${s.id}`,
        s.status,
        s.cadence,
        s.amount,
        s.currency,
        s.periodEnd,
        s.endsAt,
      ],
    );
  }
  for (const [customer, sub, status, expires] of MEMBERS) {
    await db.query(
      'INSERT INTO members (customer_id, subscription_id, mg_status, expires_at) VALUES ($1, $2, $3, $4)',
      [customer, sub, status, expires],
    );
  }
  for (const [sub, type, at, amount, currency] of EVENTS) {
    await db.query(
      'INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency) VALUES ($1, $2, $3, $4, $5)',
      [sub, type, at, amount, currency],
    );
  }
  await db.query(
    "INSERT INTO webhook_dedup (id, provider) VALUES ('evt-1', 'lemonsqueezy'), ('evt-2', 'clickbank')",
  );
}, 120_000);
afterAll(async () => {
  await db?.close();
});

/** Independent JS model of the brief's rules over the literal dataset. */
function expected() {
  const now = NOW.getTime();
  const access = SUBS.filter(
    (s) =>
      ['active', 'trialing', 'past_due'].includes(s.status) ||
      (s.status === 'cancelled' && s.endsAt != null && Date.parse(s.endsAt) > now),
  );
  const mrr = access.reduce((sum, s) => {
    const rate = RATES[s.currency];
    if (rate == null || s.amount == null || s.status === 'trialing') return sum;
    return sum + rate * (s.cadence === 'yearly' ? s.amount / 12 : s.amount);
  }, 0);
  const ends = access.map((s) => {
    const member = MEMBERS.find((m) => m[1] === s.id && m[2] === 'active' && m[3] != null);
    return Date.parse(member?.[3] ?? s.endsAt ?? s.periodEnd ?? '');
  });
  const days = ends.map((e) => Math.max(0, (e - now) / DAY_MS));
  const { start, end } = {
    start: Date.parse('2026-11-20T00:00:00Z'),
    end: Date.parse('2026-11-21T00:00:00Z'),
  };
  const today = (type: string) =>
    EVENTS.filter((e) => e[1] === type && Date.parse(e[2]) >= start && Date.parse(e[2]) < end)
      .length;
  const revenue = EVENTS.reduce((sum, [sub, type, , amount, currency]) => {
    const cur = currency ?? SUBS.find((s) => s.id === sub)?.currency ?? '';
    const rate = RATES[cur];
    if (rate == null || amount == null) return sum;
    if (type === 'new' || type === 'renewal') return sum + rate * amount;
    if (type === 'refund') return sum - rate * amount;
    return sum;
  }, 0);
  return {
    mrr: Math.round(mrr),
    monthly: access.filter((s) => s.cadence === 'monthly').length,
    yearly: access.filter((s) => s.cadence === 'yearly').length,
    avgDays: Math.round((days.reduce((a, b) => a + b, 0) / days.length) * 10) / 10,
    scheduled: MEMBERS.filter((m) => m[2] === 'active' && m[3] != null && Date.parse(m[3]) > now)
      .length,
    pending: MEMBERS.filter((m) => m[2] === 'active' && m[3] != null && Date.parse(m[3]) <= now)
      .length,
    today: { new: today('new'), renewal: today('renewal'), cancellation: today('cancellation') },
    subscribers: new Set(SUBS.map((s) => s.customer)).size,
    revenue: Math.round(revenue),
  };
}

const get = (path: string, now = NOW) =>
  createApp(makeTestDeps(db, config, { now })).request(path, {
    headers: { authorization: `Bearer ${token}` },
  });

describe('GET /stats', () => {
  it('equals the figures computed independently from the dataset', async () => {
    const e = expected();
    const res = await get('/api/admin/stats');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      currency: 'USD',
      mrr_cents: e.mrr,
      arr_cents: 12 * e.mrr,
      activeSubscribers: e.monthly + e.yearly,
      activeMonthly: e.monthly,
      activeYearly: e.yearly,
      scheduledCancellations: e.scheduled,
      avgDaysRemaining: e.avgDays,
      newToday: e.today.new,
      renewalsToday: e.today.renewal,
      cancellationsToday: e.today.cancellation,
      totalSubscribers: e.subscribers,
      totalRevenueCents: e.revenue,
    });
  });

  it('matches hand-computed figures (guards the JS model too)', async () => {
    const body = (await (await get('/api/admin/stats')).json()) as Record<string, unknown>;
    // MRR: 1900 + 19000/12·1.27 + 2900 + 29000/12 + 999 (the EUR trial, a null amount and JPY left out) = 10226.5
    expect(body).toMatchObject({
      mrr_cents: 10227,
      arr_cents: 122724,
      activeSubscribers: 8,
      activeMonthly: 6,
      activeYearly: 2,
      scheduledCancellations: 2,
      // days left 15, 5, 0, 10, 193, 11, 20, 25 → 279 / 8 = 34.875
      avgDaysRemaining: 34.9,
      newToday: 3,
      renewalsToday: 1,
      cancellationsToday: 1,
      totalSubscribers: 12,
      // USD 1900·3 + 999·2 + 29000 + 4700 + 2900 = 44298; GBP 19000·1.27 = 24130; EUR (0 + 9900 − 9900)·1.08 = 0
      totalRevenueCents: 68428,
    });
  });

  it('counts "today" by the UTC day of the clock', async () => {
    const res = await get('/api/admin/stats', new Date('2026-11-19T06:00:00.000Z'));
    const body = (await res.json()) as Record<string, number>;
    expect(body).toMatchObject({ newToday: 1, renewalsToday: 0, cancellationsToday: 1 });
    expect(utcDayBounds(new Date('2026-11-19T23:59:59.999Z')).start.toISOString()).toBe(
      '2026-11-19T00:00:00.000Z',
    );
  });

  it('converts into another reporting currency with its own rates', async () => {
    const eurConfig = await makeTestConfig({
      reportingCurrency: 'EUR',
      fxRates: { EUR: 1, USD: 0.5 },
    });
    const res = await createApp(makeTestDeps(db, eurConfig, { now: NOW })).request(
      '/api/admin/stats',
      {
        headers: {
          authorization: `Bearer ${await testSessionToken(db, eurConfig, NOW)}`,
        },
      },
    );
    const body = (await res.json()) as Record<string, unknown>;
    // USD (1900 + 2900 + 29000/12 + 999)·0.5 (the EUR trial left out; GBP and JPY have no rate here)
    expect(body.currency).toBe('EUR');
    expect(body.mrr_cents).toBe(Math.round((1900 + 2900 + 29000 / 12 + 999) * 0.5));
  });

  it('needs a session', async () => {
    const res = await createApp(makeTestDeps(db, config, { now: NOW })).request('/api/admin/stats');
    expect(res.status).toBe(401);
  });
});

describe('GET /status', () => {
  it('answers the §3 admin stats from the same data', async () => {
    const e = expected();
    const res = await get('/api/admin/status');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      db_ok: true,
      active_total: e.monthly + e.yearly,
      active_monthly: e.monthly,
      active_yearly: e.yearly,
      scheduled_cancellations: e.scheduled,
      avg_days_remaining: e.avgDays,
      mrr: e.mrr,
      arr: 12 * e.mrr,
      pending_expire: 1,
      webhook_dedup_rows: 2,
      // No forum jobs here; server/outbox/outbox.test.ts covers a backlog and failures.
      forum_pending: 0,
      forum_oldest_pending_s: null,
      forum_failed: 0,
      forum_last_error: null,
      forum_last_error_at: null,
    });
    expect(e.pending).toBe(1);
  });

  it('reports db_ok false with null figures when the database is down', async () => {
    expect(await computeAdminStatus(downDatabase(), config, NOW)).toEqual({
      db_ok: false,
      active_total: null,
      active_monthly: null,
      active_yearly: null,
      scheduled_cancellations: null,
      avg_days_remaining: null,
      mrr: null,
      arr: null,
      pending_expire: null,
      webhook_dedup_rows: null,
      forum_pending: null,
      forum_oldest_pending_s: null,
      forum_failed: null,
      forum_last_error: null,
      forum_last_error_at: null,
    });
  });
});

describe('GET /stats on an empty database', () => {
  it('answers zeros and a null average', async () => {
    // Last test of the file: empties the shared database.
    await db.exec(
      'TRUNCATE subscription_events, members, subscriptions, customers, webhook_dedup RESTART IDENTITY CASCADE',
    );
    // A change without a live event: drop the cached figures, as such writers must (./cache.ts).
    await invalidateStatsCache({ db });
    const res = await get('/api/admin/stats');
    expect(await res.json()).toEqual({
      currency: 'USD',
      mrr_cents: 0,
      arr_cents: 0,
      activeSubscribers: 0,
      activeMonthly: 0,
      activeYearly: 0,
      scheduledCancellations: 0,
      avgDaysRemaining: null,
      newToday: 0,
      renewalsToday: 0,
      cancellationsToday: 0,
      totalSubscribers: 0,
      totalRevenueCents: 0,
    });
    const status = await (await get('/api/admin/status')).json();
    expect(status).toMatchObject({
      db_ok: true,
      active_total: 0,
      pending_expire: 0,
      webhook_dedup_rows: 0,
      avg_days_remaining: null,
    });
  });
});
