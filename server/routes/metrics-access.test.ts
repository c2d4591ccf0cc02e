/**
 * The access figures of GET /metrics/overview (totals.totalActive, totals.activeAtStart and the
 * pies) are read from the month and day roll-ups of migrations 021 and 032 plus a few index entries.
 * They must equal, for every range start and filter, what one plain scan of every subscription
 * counts (`direct` below, the definition in the module doc of ./metrics.ts): after the seed, around
 * month boundaries and midnights, for subscriptions that end at or before they start, after writes,
 * inside and after a transaction, after a rebuild and after a truncate.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db';
import type { Db } from '../db/types';
import { seedDemoData } from '../seed';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { insertCustomer, insertSubscription } from '../testing/fixtures';
import { NOW } from '../testing/scenario';
import { ACCESS_STATUSES } from '../vocabulary';
import { metricsRoutes, type MetricsOverviewJson } from './metrics';

let db: Db;
beforeAll(async () => {
  db = await freshDb();
  await resetDb(db);
  await seedDemoData(db, { customers: 300, seed: 11, now: NOW });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

interface Filter {
  provider?: 'lemonsqueezy' | 'clickbank';
  status?: 'active' | 'cancelled' | 'expired';
  plan?: string;
  source?: string;
}
const STATUSES: Record<NonNullable<Filter['status']>, readonly string[]> = {
  active: ACCESS_STATUSES,
  cancelled: ['cancelled'],
  expired: ['expired'],
};

const app = (now = NOW) => testApp(testDeps(db, now), [metricsRoutes]);

async function overview(
  from: string,
  to: string,
  f: Filter,
  now = NOW,
): Promise<MetricsOverviewJson> {
  const qs = new URLSearchParams({ from, to, ...f }).toString();
  const res = await call(app(now), 'GET', `/metrics/overview?${qs}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MetricsOverviewJson;
}

/** The figures counted row by row at `now`: every subscription read, no roll-up. */
async function direct(from: string, f: Filter, now = NOW) {
  const params: unknown[] = [now.toISOString(), `${from}T00:00:00Z`];
  const where: string[] = [];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.provider) add('provider = ?', f.provider);
  if (f.status) add('status = ANY(?::text[])', STATUSES[f.status]);
  if (f.plan) add('lower(plan) = ?', f.plan.toLowerCase());
  if (f.source) add(`lower(COALESCE(source, '')) = ?`, f.source.toLowerCase());
  const r = await db.query<{ provider: string; plan: string; active: number; start: number }>(
    `SELECT provider, plan,
            count(*) FILTER (WHERE status IN ('active', 'trialing', 'past_due')
                                OR (status = 'cancelled' AND ends_at > $1::timestamptz))::int AS active,
            count(*) FILTER (WHERE start_date < $2::timestamptz
                               AND (ends_at IS NULL OR ends_at > $2::timestamptz)
                               AND status <> 'paused')::int AS start
       FROM subscriptions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      GROUP BY provider, plan`,
    params,
  );
  const byProvider = new Map<string, number>();
  const byPlan = new Map<string, number>();
  let active = 0;
  let start = 0;
  for (const row of r.rows) {
    active += row.active;
    start += row.start;
    if (row.active > 0) {
      byProvider.set(row.provider, (byProvider.get(row.provider) ?? 0) + row.active);
      byPlan.set(row.plan, (byPlan.get(row.plan) ?? 0) + row.active);
    }
  }
  return { active, start, byProvider, byPlan };
}

/** The overview from `from` at `now` answers exactly the direct count, pies included. */
async function expectExact(
  from: string,
  f: Filter = {},
  to = '2026-11-20',
  now = NOW,
): Promise<number> {
  const body = await overview(from, to, f, now);
  const want = await direct(body.range.from, f, now);
  const label = `${from} ${JSON.stringify(f)} at ${now.toISOString()}`;
  expect(body.totals.totalActive, label).toBe(want.active);
  expect(body.totals.activeAtStart, label).toBe(want.start);
  expect(new Map(body.pies.activeByProvider.map((p) => [p.provider, p.cnt])), label).toEqual(
    want.byProvider,
  );
  expect(new Map(body.pies.activeByPlan.map((p) => [p.plan, p.cnt])), label).toEqual(want.byPlan);
  return want.start;
}

/**
 * Rows of subscription_months and of subscription_days (migration 032) that differ from a direct
 * count of the subscriptions.
 */
async function monthsDiff(): Promise<number> {
  let differ = 0;
  for (const [table, bucket, grain] of [
    ['subscription_months', 'month', `date_trunc('month', %s AT TIME ZONE 'UTC')::date`],
    ['subscription_days', 'day', `(%s AT TIME ZONE 'UTC')::date`],
  ] as const) {
    const r = await db.query<{ n: number }>(
      `WITH direct AS (
         SELECT 'start' AS kind, ${grain.replace('%s', 'start_date')} AS b, provider, plan,
                status, COALESCE(source, '') AS source, count(*)::bigint AS n
           FROM subscriptions GROUP BY 2, 3, 4, 5, 6
         UNION ALL
         SELECT 'end', ${grain.replace('%s', 'ends_at')}, provider, plan, status,
                COALESCE(source, ''), count(*)::bigint
           FROM subscriptions WHERE ends_at > start_date GROUP BY 2, 3, 4, 5, 6),
            m AS (SELECT kind, ${bucket}, provider, plan, status, source, n FROM ${table})
       SELECT count(*)::int AS n FROM ((SELECT * FROM direct EXCEPT SELECT * FROM m)
                                       UNION ALL (SELECT * FROM m EXCEPT SELECT * FROM direct)) d`,
    );
    differ += r.rows[0]?.n ?? 1;
  }
  return differ;
}

const FILTERS: Filter[] = [
  {},
  { provider: 'clickbank' },
  { provider: 'lemonsqueezy' },
  { status: 'active' },
  { status: 'cancelled' },
  { status: 'expired' },
  { plan: 'pro' },
  { source: 'google' },
  { provider: 'lemonsqueezy', plan: 'Premium', status: 'active' },
];
/** Range starts: month boundaries, mid-month, the first and last day of a month, long ago, today. */
const FROMS = [
  '2025-11-21',
  '2026-11-01',
  '2026-10-31',
  '2026-02-15',
  '2026-03-01',
  '2024-01-01',
  '2026-11-20',
];

describe('overview access figures from the month roll-up (migration 021)', () => {
  it('equal a scan of every subscription after the seed, for every range start and filter', async () => {
    expect(await monthsDiff()).toBe(0);
    let nonZero = 0;
    for (const from of FROMS)
      for (const f of FILTERS) nonZero += (await expectExact(from, f)) > 0 ? 1 : 0;
    expect(nonZero).toBeGreaterThan(FROMS.length * 3);
    // "All time": from resolved against the data.
    const all = await call(app(), 'GET', '/metrics/overview?to=2026-11-20');
    expect(all.status).toBe(200);
    await expectExact((all.body as MetricsOverviewJson).range.from);
  }, 120_000);

  it('count subscriptions on the edges: midnights, month starts, ends at or before their start', async () => {
    const customer = await insertCustomer(db, 'edges@example.com');
    const rows: Array<[string, string, string | null]> = [
      // [status, start_date, ends_at]
      ['expired', '2026-09-10T08:00:00Z', '2026-10-01T00:00:00Z'], // ends exactly at a month start
      ['expired', '2026-09-10T08:00:00Z', '2026-10-15T00:00:00Z'], // ends exactly at a range start
      ['cancelled', '2026-10-15T00:00:00Z', '2026-12-01T00:00:00Z'], // starts exactly at it, ends later
      ['expired', '2026-10-20T00:00:00Z', '2026-10-20T00:00:00Z'], // ends the instant it starts
      ['expired', '2026-10-20T00:00:00Z', '2026-10-02T00:00:00Z'], // ends before it starts
      ['expired', '2026-08-31T23:59:59.999999Z', '2026-09-01T00:00:00Z'], // a microsecond long
      ['paused', '2026-01-01T00:00:00Z', null],
      ['active', '2026-10-14T23:59:59Z', null],
      ['cancelled', '2026-05-05T05:05:05Z', '2026-10-14T12:00:00Z'],
      // Around now (2026-11-20T12:00Z): cancelled, paid until later today, until earlier today,
      // until the next midnight; and paid beyond now but ending before a future start.
      ['cancelled', '2026-11-02T00:00:00Z', '2026-11-20T12:00:01Z'],
      ['cancelled', '2026-11-02T00:00:00Z', '2026-11-20T11:59:59Z'],
      ['cancelled', '2026-11-02T00:00:00Z', '2026-11-21T00:00:00Z'],
      ['cancelled', '2026-11-25T00:00:00Z', '2026-11-22T00:00:00Z'],
      // Paid until the last day of now's month, and until the last instant before the next one.
      ['cancelled', '2026-11-02T00:00:00Z', '2026-11-30T12:00:00Z'],
      ['cancelled', '2026-11-02T00:00:00Z', '2026-11-30T23:59:59.999999Z'],
      // Around the turn of the year, for the instants below.
      ['cancelled', '2026-11-02T00:00:00Z', '2026-12-31T23:59:59.999999Z'],
      ['cancelled', '2026-11-02T00:00:00Z', '2027-01-01T00:00:00Z'],
      ['cancelled', '2026-11-02T00:00:00Z', '2027-01-15T00:00:00Z'],
    ];
    let i = 0;
    for (const [status, startDate, endsAt] of rows) {
      await insertSubscription(db, {
        customerId: customer,
        providerId: `edge-${i++}`,
        plan: 'EdgePlan',
        status,
        startDate,
        endsAt,
      });
    }
    expect(await monthsDiff()).toBe(0);
    for (const from of [
      '2026-10-01',
      '2026-10-15',
      '2026-10-20',
      '2026-10-21',
      '2026-09-01',
      '2026-09-02',
      '2026-11-01',
    ]) {
      await expectExact(from);
      await expectExact(from, { plan: 'edgeplan' });
    }
    // Other instants: the last day of a year (the next month is in the next year), its last
    // millisecond, the first instant of the next year, the last day of a 30-day month.
    for (const at of [
      '2026-12-31T12:00:00Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00Z',
      '2026-11-30T18:00:00Z',
    ]) {
      const now = new Date(at);
      await expectExact('2026-12-01', {}, '2026-12-31', now);
      await expectExact('2026-11-15', { plan: 'edgeplan' }, '2026-11-30', now);
    }
  }, 60_000);

  it('follow inserts, updates and deletes, folded at commit, and a rebuild gives the same table', async () => {
    const ids = (
      await db.query<{ id: number }>(`SELECT id FROM subscriptions ORDER BY id LIMIT 40`)
    ).rows.map((r) => Number(r.id));
    const statuses = ['active', 'cancelled', 'expired', 'paused', 'trialing', 'past_due', 'unpaid'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.nat({ max: ids.length - 1 }),
            status: fc.constantFrom(...statuses),
            plan: fc.constantFrom('pro', 'Basic', 'Premium'),
            startDay: fc.integer({ min: 0, max: 700 }),
            endDays: fc.option(fc.integer({ min: -40, max: 400 })),
            hour: fc.integer({ min: 0, max: 23 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.constantFrom(...FROMS),
        async (changes, from) => {
          await db.transaction(async (tx) => {
            for (const c of changes) {
              const start = Date.UTC(2025, 0, 1) + c.startDay * 86_400_000 + c.hour * 3_600_000;
              const ends = c.endDays === null ? null : start + c.endDays * 86_400_000;
              await tx.query(
                `UPDATE subscriptions SET status = $2, plan = $3, start_date = $4, ends_at = $5 WHERE id = $1`,
                [
                  ids[c.at],
                  c.status,
                  c.plan,
                  new Date(start).toISOString(),
                  ends === null ? null : new Date(ends).toISOString(),
                ],
              );
            }
          });
          expect((await db.query('SELECT 1 FROM subscription_months_pending')).rows).toHaveLength(
            0,
          );
          expect(await monthsDiff()).toBe(0);
          await expectExact(from);
          await expectExact(from, { plan: 'premium' });
        },
      ),
      { numRuns: 25, seed: 2101 },
    );
    // A delete and a rolled-back transaction.
    await db.query(`DELETE FROM subscriptions WHERE id = (SELECT max(id) FROM subscriptions s
                     WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.subscription_id = s.id)
                       AND NOT EXISTS (SELECT 1 FROM subscription_events e WHERE e.subscription_id = s.id)
                       AND NOT EXISTS (SELECT 1 FROM clickbank_orders o WHERE o.subscription_id = s.id)
                       AND NOT EXISTS (SELECT 1 FROM revenue_movements v WHERE v.subscription_id = s.id)
                       AND NOT EXISTS (SELECT 1 FROM revenue_spans v WHERE v.subscription_id = s.id))`);
    await db
      .transaction(async (tx) => {
        await tx.query(`UPDATE subscriptions SET status = 'expired' WHERE id = $1`, [ids[0]]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await db.query('SELECT 1 FROM subscription_months_pending')).rows).toHaveLength(0);
    expect(await monthsDiff()).toBe(0);

    const snapshot = async () => [
      (
        await db.query(
          `SELECT kind, month::text, provider, plan, status, source, n::text FROM subscription_months
            ORDER BY 1, 2, 3, 4, 5, 6`,
        )
      ).rows,
      (
        await db.query(
          `SELECT kind, day::text, provider, plan, status, source, n::text FROM subscription_days
            ORDER BY 1, 2, 3, 4, 5, 6`,
        )
      ).rows,
    ];
    const incremental = await snapshot();
    await db.query('SELECT subscription_months_rebuild()');
    expect(await snapshot()).toEqual(incremental);
    // The database as it was before 032: the migration fills the day roll-up from the
    // subscriptions already stored, and the figures still equal the scan.
    await db.exec(`
      DROP TABLE subscription_days;
      DROP INDEX subscription_months_zero_idx;
      ALTER TABLE subscription_months_pending DROP COLUMN day;
      DELETE FROM schema_migrations WHERE version = '032_subscription_days';`);
    expect(await migrate(db)).toEqual(['032_subscription_days']);
    expect(await snapshot()).toEqual(incremental);
    expect(incremental[1]?.length).toBeGreaterThan(0);
    await expectExact(FROMS[0]!);
  }, 120_000);

  it('are emptied with the subscriptions (truncate)', async () => {
    await db.exec('TRUNCATE subscriptions CASCADE');
    expect((await db.query('SELECT 1 FROM subscription_months')).rows).toHaveLength(0);
    expect((await db.query('SELECT 1 FROM subscription_days')).rows).toHaveLength(0);
    const body = await overview('2026-10-01', '2026-11-20', {});
    expect(body.totals.totalActive).toBe(0);
    expect(body.totals.activeAtStart).toBe(0);
  });
});
