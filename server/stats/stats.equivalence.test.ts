/**
 * The dashboard figures computed from roll-ups (migrations 005, 023 and 042) and small index
 * ranges (./aggregate.ts) equal, field for field, what one statement per figure over whole tables
 * answers (server/testing/statsReference.ts), at several instants and in two reporting
 * currencies; and they still do after random writes to subscriptions and members, a rollback, a
 * delete, a rebuild and a truncate.
 *
 * The dataset is the demo seed plus rows that stress the roll-ups' remainders: ids far apart, two
 * members overriding one subscription's end, a member's expiry giving an end to a subscription
 * without one, a member's expiry on a cancelled subscription, an end later on the day of the
 * instant (a cancelled subscription's too), members expiring at their subscription's own end beside
 * others expiring later or earlier, null amounts, a refund without a currency, a currency without a
 * rate, a subscription whose currency changes after its events (the roll-up must follow), and
 * deleted events.
 */
import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { freshDb, testConfig } from '../testing/app';
import { referenceAdminStatus, referenceDashboardStats } from '../testing/statsReference';
import fc from 'fast-check';
import { activeAccessFigures, secondsToMicros } from './aggregate';
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
      (150002, 'far.three@example.com'), (150003, 'far.four@example.com'), (150004, 'far.five@example.com'),
      (150005, 'far.six@example.com'), (150006, 'far.seven@example.com'), (150007, 'far.eight@example.com'),
      (150008, 'far.nine@example.com'), (150009, 'far.ten@example.com'),
      (150010, 'far.eleven@example.com'), (150011, 'far.twelve@example.com');
    INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end, ends_at)
    VALUES
      (45000, 61000, 'lemonsqueezy', 'far-1', 'active', 'monthly', 'Pro', NULL, 'EUR', '2026-01-01T00:00:00Z', '2026-12-01T00:00:00Z', NULL),
      (45001, 61000, 'clickbank', 'FAR-2', 'cancelled', 'yearly', 'Pro', 9900, 'GBP', '2025-12-01T00:00:00Z', '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z'),
      (123456, 150001, 'lemonsqueezy', 'far-3', 'past_due', 'monthly', 'Basic', 1500, 'JPY', '2026-02-01T00:00:00Z', '2026-11-01T00:00:00Z', NULL),
      (123457, 150002, 'lemonsqueezy', 'far-4', 'trialing', 'yearly', 'Basic', 24000, 'USD', '2026-11-01T00:00:00Z', NULL, NULL),
      (123458, 150005, 'lemonsqueezy', 'far-5', 'active', 'monthly', 'Pro', 1900, 'USD', '2026-10-22T18:00:00Z', '2026-11-22T18:00:00Z', NULL),
      -- Access that ends before its period does (a revocation on a date): its own end is ends_at.
      (123459, 150006, 'lemonsqueezy', 'far-6', 'active', 'monthly', 'Pro', 1900, 'USD', '2026-11-01T00:00:00Z', '2026-12-20T00:00:00Z', '2026-12-05T00:00:00Z'),
      -- Cancelled, paid until later on the instant's day, without an amount.
      (123460, 150007, 'clickbank', 'FAR-7', 'cancelled', 'monthly', 'Basic', NULL, 'EUR', '2026-10-22T20:00:00.5Z', '2026-11-22T20:00:00.5Z', '2026-11-22T20:00:00.5Z'),
      -- Members expiring at the own end beside a later and an earlier expiry (migration 043).
      (123461, 150008, 'lemonsqueezy', 'far-8', 'active', 'monthly', 'Pro', 1900, 'USD', '2026-11-18T00:00:00Z', '2026-12-18T00:00:00Z', NULL),
      (123462, 150009, 'lemonsqueezy', 'far-9', 'active', 'yearly', 'Pro', 19000, 'USD', '2026-03-01T00:00:00Z', '2027-03-01T00:00:00Z', NULL);
    -- Two active members with scheduled expiries on one subscription (the earliest counts).
    INSERT INTO members (customer_id, subscription_id, mg_status, expires_at)
    VALUES (61000, 45000, 'active', '2026-12-24T00:00:00Z'), (150001, 45000, 'active', '2026-12-10T06:30:00.123456Z'),
      (150002, 123457, 'active', NULL),
      -- An end for a trial without one, and an earlier end for a cancelled subscription.
      (150003, 123457, 'active', '2026-12-01T00:00:00Z'), (150004, 45001, 'active', '2026-11-25T00:00:00Z'),
      -- A member's expiry overriding an own end that is not the period's end.
      (150006, 123459, 'active', '2026-12-15T00:00:00Z'),
      -- At the own end and later: the own end stays; at the own end and earlier: the earlier wins.
      (150008, 123461, 'active', '2026-12-18T00:00:00Z'), (150009, 123461, 'active', '2026-12-28T00:00:00Z'),
      (150010, 123462, 'active', '2027-03-01T00:00:00Z'), (150011, 123462, 'active', '2026-12-02T00:00:00Z');
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

describe('dashboard figures from roll-ups', () => {
  it('has every remainder the roll-ups leave to indexes (the dataset exercises them)', async () => {
    const r = await db.query<{
      today: number;
      member_only: number;
      cancelled_override: number;
      ends_before_period: number;
      cancelled_today: number;
      own_end_and_later: number;
    }>(
      `SELECT
         (SELECT count(*) FROM subscriptions WHERE status = 'active' AND current_period_end > $1::timestamptz
            AND current_period_end < $1::timestamptz + interval '12 hours')::int AS today,
         (SELECT count(*) FROM members m JOIN subscriptions s ON s.id = m.subscription_id
           WHERE m.mg_status = 'active' AND m.expires_at IS NOT NULL AND s.ends_at IS NULL
             AND s.current_period_end IS NULL)::int AS member_only,
         (SELECT count(*) FROM members m JOIN subscriptions s ON s.id = m.subscription_id
           WHERE m.mg_status = 'active' AND m.expires_at IS NOT NULL AND s.status = 'cancelled'
             AND s.ends_at > $1::timestamptz)::int AS cancelled_override,
         (SELECT count(*) FROM members m JOIN subscriptions s ON s.id = m.subscription_id
           WHERE m.mg_status = 'active' AND m.expires_at IS NOT NULL
             AND s.ends_at <> s.current_period_end)::int AS ends_before_period,
         (SELECT count(*) FROM subscriptions WHERE status = 'cancelled' AND ends_at > $1::timestamptz
            AND ends_at < $1::timestamptz + interval '12 hours')::int AS cancelled_today,
         (SELECT count(*) FROM members m JOIN subscriptions s ON s.id = m.subscription_id
           WHERE m.mg_status = 'active' AND m.expires_at = COALESCE(s.ends_at, s.current_period_end)
             AND EXISTS (SELECT 1 FROM members l WHERE l.subscription_id = s.id AND l.mg_status = 'active'
                          AND l.expires_at > m.expires_at))::int AS own_end_and_later`,
      [NOW.toISOString()],
    );
    expect(r.rows[0]!.today).toBeGreaterThan(0);
    expect(r.rows[0]!.member_only).toBeGreaterThan(0);
    expect(r.rows[0]!.cancelled_override).toBeGreaterThan(0);
    expect(r.rows[0]!.ends_before_period).toBeGreaterThan(0);
    expect(r.rows[0]!.cancelled_today).toBeGreaterThan(0);
    expect(r.rows[0]!.own_end_and_later).toBeGreaterThan(0);
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

describe('seconds', () => {
  it('reads numeric seconds exactly as microseconds', () => {
    expect(secondsToMicros(null)).toBe(0n);
    expect(secondsToMicros('0')).toBe(0n);
    expect(secondsToMicros('12.5')).toBe(12_500_000n);
    expect(secondsToMicros('98765432101.000001')).toBe(98_765_432_101_000_001n);
    expect(() => secondsToMicros('-1')).toThrow(/cannot read/);
    expect(() => secondsToMicros('1.0000001')).toThrow(/finer than a microsecond/);
  });
});

describe('roll-ups after writes (migration 023)', () => {
  const config = testConfig({ fxRates: { USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067 } });
  /** Days left summed exactly over every subscription with access, as one plain statement. */
  const directDaysLeft = async (at: Date) => {
    const r = await db.query<{ dated: number; secs: string | null }>(
      `SELECT count(e.end_at)::int AS dated,
              extract(epoch FROM sum(e.end_at - $1::timestamptz) FILTER (WHERE e.end_at > $1::timestamptz))::text AS secs
         FROM subscriptions s
         LEFT JOIN (SELECT subscription_id, min(expires_at) AS expires_at FROM members
                     WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
                     GROUP BY subscription_id) m ON m.subscription_id = s.id
        CROSS JOIN LATERAL (SELECT COALESCE(m.expires_at, s.ends_at, s.current_period_end) AS end_at) e
        WHERE ${activeAccessCondition('s', '$1')}`,
      [at.toISOString()],
    );
    return { dated: r.rows[0]!.dated, remainingMicros: secondsToMicros(r.rows[0]!.secs) };
  };
  const expectExact = async (at: Date) => {
    expect(await computeDashboardStats(db, config, at)).toEqual(
      await referenceDashboardStats(db, config, at),
    );
    // The rounded average can hide a few hours; the sums behind it cannot.
    const f = await activeAccessFigures(db, at);
    expect({ dated: f.dated, remainingMicros: f.remainingMicros }).toEqual(
      await directDaysLeft(at),
    );
  };
  /** The roll-ups as stored (rows that came to nothing left out) and as rebuilt from scratch. */
  const snapshot = async () => ({
    groups: (
      await db.query(
        `SELECT status, currency, cadence, n::text, amount_cents::text, dated::text FROM stats_access_groups
          WHERE n <> 0 ORDER BY 1, 2, 3`,
      )
    ).rows,
    days: (
      await db.query(
        `SELECT status, end_day::text, n::text, end_micros::text FROM stats_access_days
          WHERE n <> 0 ORDER BY 1, 2`,
      )
    ).rows,
    cancelled: (
      await db.query(
        `SELECT end_day::text, currency, cadence, n::text, amount_cents::text, end_micros::text
           FROM stats_cancelled_days WHERE n <> 0 ORDER BY 1, 2, 3`,
      )
    ).rows,
    customers: (
      await db.query(
        `SELECT customer_id::text, subscriptions FROM stats_subscribed_customers
          WHERE subscriptions <> 0 ORDER BY 1`,
      )
    ).rows,
    total: (await db.query(`SELECT n::text FROM stats_totals`)).rows,
  });

  it('follow random changes to subscriptions and members, folded at commit', async () => {
    const subs = (
      await db.query<{ id: number }>(`SELECT id FROM subscriptions ORDER BY id LIMIT 30`)
    ).rows.map((r) => Number(r.id));
    const customers = (
      await db.query<{ id: number }>(`SELECT id FROM customers ORDER BY id LIMIT 8`)
    ).rows.map((r) => Number(r.id));
    const members = (
      await db.query<{ id: number }>(
        `SELECT id FROM members WHERE subscription_id IS NOT NULL ORDER BY id LIMIT 12`,
      )
    ).rows.map((r) => Number(r.id));
    const at = (hours: number | null) =>
      hours === null ? null : new Date(NOW.getTime() + hours * 3_600_000).toISOString();
    const change = fc.oneof(
      fc.record({
        kind: fc.constant('subscription' as const),
        id: fc.constantFrom(...subs),
        status: fc.constantFrom('active', 'trialing', 'past_due', 'cancelled', 'expired', 'paused'),
        currency: fc.constantFrom('USD', 'EUR', 'GBP'),
        cadence: fc.constantFrom('monthly', 'yearly'),
        amount: fc.option(fc.integer({ min: 0, max: 50_000 })),
        endsAt: fc.option(fc.integer({ min: -900, max: 900 })),
        periodEnd: fc.option(fc.integer({ min: -900, max: 900 })),
        customer: fc.constantFrom(...customers),
      }),
      // A renewal moves the period end alone.
      fc.record({
        kind: fc.constant('renewal' as const),
        id: fc.constantFrom(...subs),
        periodEnd: fc.option(fc.integer({ min: -900, max: 900 })),
      }),
      fc.record({
        kind: fc.constant('member' as const),
        id: fc.constantFrom(...members),
        subscription: fc.option(fc.constantFrom(...subs)),
        active: fc.boolean(),
        expiresAt: fc.option(fc.integer({ min: -900, max: 900 })),
        // Or its subscription's own end exactly, as a revocation at the period's end sets it.
        atOwnEnd: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        await db.transaction(async (tx) => {
          for (const c of changes) {
            if (c.kind === 'subscription') {
              await tx.query(
                `UPDATE subscriptions SET status = $2, currency = $3, cadence = $4, amount_cents = $5,
                        ends_at = $6, current_period_end = $7, customer_id = $8 WHERE id = $1`,
                [
                  c.id,
                  c.status,
                  c.currency,
                  c.cadence,
                  c.amount,
                  at(c.endsAt),
                  at(c.periodEnd),
                  c.customer,
                ],
              );
            } else if (c.kind === 'renewal') {
              await tx.query(`UPDATE subscriptions SET current_period_end = $2 WHERE id = $1`, [
                c.id,
                at(c.periodEnd),
              ]);
            } else {
              await tx.query(
                `UPDATE members SET subscription_id = $2, mg_status = $3, expires_at = $4 WHERE id = $1`,
                [c.id, c.subscription, c.active ? 'active' : 'cancelled', at(c.expiresAt)],
              );
              if (c.atOwnEnd) {
                await tx.query(
                  `UPDATE members m SET expires_at = COALESCE(s.ends_at, s.current_period_end)
                     FROM subscriptions s WHERE m.id = $1 AND s.id = m.subscription_id`,
                  [c.id],
                );
              }
            }
          }
        });
        expect((await db.query('SELECT 1 FROM stats_pending')).rows).toHaveLength(0);
        await expectExact(NOW);
        await expectExact(new Date(NOW.getTime() + 5 * 3_600_000 + 17));
      }),
      { numRuns: 30, seed: 2301 },
    );
  }, 120_000);

  it('follow inserts, deletes and a rollback, and a rebuild gives the same roll-ups', async () => {
    const customer = (
      await db.query<{ id: number }>(
        `INSERT INTO customers (email) VALUES ('stats.new@example.com') RETURNING id`,
      )
    ).rows[0]!.id;
    const inserted = (
      await db.query<{ id: number }>(
        `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end)
         VALUES ($1, 'lemonsqueezy', 'stats-new-1', 'active', 'yearly', 'Pro', 9900, 'GBP', $2, $3),
                ($1, 'lemonsqueezy', 'stats-new-2', 'trialing', 'monthly', 'Pro', NULL, 'USD', $2, NULL)
         RETURNING id`,
        [customer, '2026-11-01T00:00:00Z', '2027-11-01T00:00:00Z'],
      )
    ).rows.map((r) => Number(r.id));
    await expectExact(NOW);
    // The customer subscribed once however many subscriptions it has, until the last is gone.
    const before = (await computeDashboardStats(db, config, NOW)).totalSubscribers;
    const remove = (id: number | undefined) =>
      db.transaction(async (tx) => {
        // The MRR history the revenue triggers wrote for it (migration 015) goes first.
        await tx.query(`DELETE FROM revenue_movements WHERE subscription_id = $1`, [id]);
        await tx.query(`DELETE FROM revenue_spans WHERE subscription_id = $1`, [id]);
        await tx.query(`DELETE FROM subscriptions WHERE id = $1`, [id]);
      });
    await remove(inserted[0]);
    expect((await computeDashboardStats(db, config, NOW)).totalSubscribers).toBe(before);
    await remove(inserted[1]);
    expect((await computeDashboardStats(db, config, NOW)).totalSubscribers).toBe(before - 1);
    await expectExact(NOW);
    await db
      .transaction(async (tx) => {
        await tx.query(`UPDATE subscriptions SET status = 'expired' WHERE status = 'active'`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await db.query('SELECT 1 FROM stats_pending')).rows).toHaveLength(0);
    await expectExact(NOW);

    // A renewal that moves a period end by an hour within its day.
    const sameDay = (
      await db.query<{ id: number }>(
        `SELECT id FROM subscriptions WHERE status = 'active' AND ends_at IS NULL
            AND current_period_end > $1::timestamptz + interval '2 days'
            AND extract(hour FROM current_period_end AT TIME ZONE 'UTC') < 20
          ORDER BY id LIMIT 1`,
        [NOW.toISOString()],
      )
    ).rows[0]!.id;
    await db.query(
      `UPDATE subscriptions SET current_period_end = current_period_end + interval '1 hour' WHERE id = $1`,
      [sameDay],
    );
    await expectExact(NOW);

    const incremental = await snapshot();
    await db.query('SELECT stats_rebuild()');
    expect(await snapshot()).toEqual(incremental);
  }, 60_000);

  it('are emptied with the subscriptions (truncate)', async () => {
    await db.exec('TRUNCATE subscriptions CASCADE');
    const stats = await computeDashboardStats(db, config, NOW);
    expect(stats.activeSubscribers).toBe(0);
    expect(stats.totalSubscribers).toBe(0);
    expect(stats.avgDaysRemaining).toBeNull();
    expect(await snapshot()).toEqual({
      groups: [],
      days: [],
      cancelled: [],
      customers: [],
      total: [{ n: '0' }],
    });
  });
});
