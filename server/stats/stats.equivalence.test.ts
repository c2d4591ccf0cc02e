/**
 * The dashboard figures computed in id slices over covering indexes and the metrics roll-up
 * (./aggregate.ts) equal, field for field, what one statement per figure over whole tables answers (server/testing/statsReference.ts), at several instants and
 * in two reporting currencies.
 *
 * The dataset is the demo seed plus rows that stress the new paths: ids far apart (many slices,
 * some empty, for subscriptions and for customers), two members overriding one subscription's
 * end, null amounts, a refund without a currency, a currency without a rate, a subscription whose
 * currency changes after its events (the roll-up must follow), and deleted events.
 */
import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { freshDb, testConfig } from '../testing/app';
import { referenceAdminStatus, referenceDashboardStats } from '../testing/statsReference';
import { activeAccessFigures, idSlices, secondsToMicros, STATS_SLICE_IDS } from './aggregate';
import { activeAccessCondition } from '../vocabulary';
import { computeAdminStatus, computeDashboardStats } from '.';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;

let db: Db;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 400, seed: 7, now: NOW });
  await db.exec(`
    -- Far-apart ids: subscription and customer slices past the seeded ones, some empty.
    INSERT INTO customers (id, email) VALUES (61000, 'far.one@example.com'), (150001, 'far.two@example.com'),
      (150002, 'far.three@example.com');
    INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end, ends_at)
    VALUES
      (45000, 61000, 'lemonsqueezy', 'far-1', 'active', 'monthly', 'Pro', NULL, 'EUR', '2026-01-01T00:00:00Z', '2026-12-01T00:00:00Z', NULL),
      (45001, 61000, 'clickbank', 'FAR-2', 'cancelled', 'yearly', 'Pro', 9900, 'GBP', '2025-12-01T00:00:00Z', '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z'),
      (123456, 150001, 'lemonsqueezy', 'far-3', 'past_due', 'monthly', 'Basic', 1500, 'JPY', '2026-02-01T00:00:00Z', '2026-11-01T00:00:00Z', NULL),
      (123457, 150002, 'lemonsqueezy', 'far-4', 'trialing', 'yearly', 'Basic', 24000, 'USD', '2026-11-01T00:00:00Z', NULL, NULL);
    -- Two active members with scheduled expiries on one subscription (the earliest counts).
    INSERT INTO members (customer_id, subscription_id, mg_status, expires_at)
    VALUES (61000, 45000, 'active', '2026-12-24T00:00:00Z'), (150001, 45000, 'active', '2026-12-10T06:30:00.123456Z'),
      (150002, 123457, 'active', NULL);
    INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
    VALUES
      (45000, 'new', '2026-01-01T00:00:00Z', NULL, NULL),
      (45001, 'new', '2025-12-01T00:00:00Z', 9900, 'GBP'),
      (45001, 'refund', '2026-02-01T00:00:00Z', 4950, NULL),
      (45001, 'cancellation', '2026-11-22T08:00:00Z', NULL, NULL),
      (123456, 'new', '2026-02-01T00:00:00Z', 1500, NULL),
      (123456, 'renewal', '2026-11-22T09:00:00Z', 1500, 'JPY'),
      (123457, 'new', '2026-11-22T10:00:00Z', 0, 'USD');
    -- The roll-up and the refunds must follow a currency change and deleted events.
    UPDATE subscriptions SET currency = 'USD' WHERE id = 45001;
    DELETE FROM subscription_events WHERE id IN (SELECT id FROM subscription_events WHERE type = 'renewal' ORDER BY id LIMIT 25);
  `);
}, 180_000);
afterAll(async () => {
  await db?.close();
});

const INSTANTS = [
  NOW,
  new Date(NOW.getTime() - 45 * DAY_MS),
  new Date(NOW.getTime() + 17 * DAY_MS + 3_600_000),
  new Date('2026-12-10T06:30:00.123456Z'),
];

describe('dashboard figures in slices and roll-ups', () => {
  it('has ids spread over several slices (the dataset exercises slicing)', async () => {
    const r = await db.query<{ lo: number; hi: number }>(
      'SELECT min(id)::int AS lo, max(id)::int AS hi FROM subscriptions',
    );
    expect(idSlices(r.rows[0]!.lo, r.rows[0]!.hi).length).toBeGreaterThanOrEqual(
      Math.ceil(123457 / STATS_SLICE_IDS),
    );
  });

  for (const at of INSTANTS) {
    for (const currency of ['USD', 'EUR'] as const) {
      it(`GET /stats equals the one-statement figures at ${at.toISOString()} in ${currency}`, async () => {
        const config = testConfig(
          currency === 'USD'
            ? { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } }
            : { reportingCurrency: 'EUR', fxRates: { EUR: 1, USD: 0.93, GBP: 1.18 } },
        );
        const expected = await referenceDashboardStats(db, config, at);
        expect(expected.activeSubscribers).toBeGreaterThan(0);
        expect(await computeDashboardStats(db, config, at)).toEqual(expected);
      });
    }
    it(`GET /status equals the one-statement figures at ${at.toISOString()}`, async () => {
      const config = testConfig({ fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } });
      const expected = await referenceAdminStatus(db, config, at);
      expect(expected.db_ok).toBe(true);
      expect(await computeAdminStatus(db, config, at)).toMatchObject(expected);
    });
  }
});

describe('access figures before rounding', () => {
  for (const at of INSTANTS) {
    it(`equal the one-statement groups and average days left at ${at.toISOString()}`, async () => {
      const groups = await db.query<{
        currency: string;
        cadence: string;
        n: number;
        sum_cents: number | null;
        recurring_cents: number | null;
      }>(
        `SELECT s.currency, s.cadence, count(*)::int AS n, sum(s.amount_cents)::float8 AS sum_cents,
                sum(s.amount_cents) FILTER (WHERE s.status <> 'trialing')::float8 AS recurring_cents
           FROM subscriptions s WHERE ${activeAccessCondition('s', '$1')}
          GROUP BY s.currency, s.cadence ORDER BY s.currency, s.cadence`,
        [at.toISOString()],
      );
      const avg = await db.query<{ avg_days: number | null; dated: number }>(
        `SELECT avg(GREATEST(0, extract(epoch FROM (COALESCE(m.expires_at, s.ends_at, s.current_period_end) - $1::timestamptz)) / 86400.0))::float8 AS avg_days,
                count(*)::int AS dated
           FROM subscriptions s
           LEFT JOIN (SELECT subscription_id, min(expires_at) AS expires_at FROM members
                       WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
                       GROUP BY subscription_id) m ON m.subscription_id = s.id
          WHERE ${activeAccessCondition('s', '$1')}
            AND COALESCE(m.expires_at, s.ends_at, s.current_period_end) IS NOT NULL`,
        [at.toISOString()],
      );
      const f = await activeAccessFigures(db, at);
      expect(f.groups).toEqual(
        groups.rows.map((g) => ({
          ...g,
          sum_cents: g.sum_cents ?? 0,
          recurring_cents: g.recurring_cents ?? 0,
        })),
      );
      expect(f.dated).toBe(avg.rows[0]!.dated);
      const days = Number(f.remainingMicros) / f.dated / 86_400_000_000;
      expect(days).toBeCloseTo(avg.rows[0]!.avg_days!, 9);
    });
  }
});

describe('slice helpers', () => {
  it('covers lo..hi with half-open slices and nothing for an empty table', () => {
    expect(idSlices(null, null)).toEqual([]);
    expect(idSlices(5, 4)).toEqual([]);
    expect(idSlices(1, 1, 10)).toEqual([[1, 11]]);
    expect(idSlices(1, 25, 10)).toEqual([
      [1, 11],
      [11, 21],
      [21, 31],
    ]);
  });

  it('reads numeric seconds exactly as microseconds', () => {
    expect(secondsToMicros(null)).toBe(0n);
    expect(secondsToMicros('0')).toBe(0n);
    expect(secondsToMicros('12.5')).toBe(12_500_000n);
    expect(secondsToMicros('98765432101.000001')).toBe(98_765_432_101_000_001n);
    expect(() => secondsToMicros('-1')).toThrow(/cannot read/);
    expect(() => secondsToMicros('1.0000001')).toThrow(/finer than a microsecond/);
  });
});
