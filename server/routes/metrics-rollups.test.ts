/**
 * The narrow roll-ups of migrations 007 and 030 (metrics_daily_plan, metrics_daily_status,
 * metrics_daily_source) that GET /metrics/overview reads for plan-only, status-only and
 * source-only filters: they must always equal the
 * GROUP BY of metrics_daily over their key, and the overview must answer exactly what the raw
 * subscription_events say — after seeding (rebuild), after event writes, after a subscription's
 * plan/status changes, after metrics_rollup_rebuild() and after a truncate.
 */
import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db';
import { seedDemoData } from '../seed';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { insertEvent } from '../testing/fixtures';
import { NOW } from '../testing/scenario';
import { ACCESS_STATUSES } from '../vocabulary';
import { metricsRoutes, rollupTable, type MetricsOverviewJson } from './metrics';

let db: Db;
beforeAll(async () => {
  db = await freshDb();
  await resetDb(db);
  await seedDemoData(db, { customers: 300, seed: 7, now: NOW });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const FX: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27 };
const app = () => testApp(testDeps(db, NOW, { fxRates: FX }), [metricsRoutes]);
const overview = async (qs: string): Promise<MetricsOverviewJson> => {
  const res = await call(app(), 'GET', `/metrics/overview${qs}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MetricsOverviewJson;
};

const FROM = '2025-11-21';
const TO = '2026-11-20';

/** Rows of `narrow` that differ from metrics_daily grouped by `key` (both directions). */
async function rollupDiff(narrow: string, key: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    `WITH g AS (SELECT day, type, provider, ${key}, currency, sum(events)::int AS events,
                       sum(amount_cents)::bigint AS amount_cents
                  FROM metrics_daily GROUP BY day, type, provider, ${key}, currency),
          t AS (SELECT day, type, provider, ${key}, currency, events, amount_cents FROM ${narrow})
     SELECT count(*)::int AS n FROM ((SELECT * FROM g EXCEPT SELECT * FROM t)
                                     UNION ALL (SELECT * FROM t EXCEPT SELECT * FROM g)) d`,
  );
  return r.rows[0]?.n ?? -1;
}

/** Rows of metrics_daily that differ from a direct aggregate of the events (both directions). */
async function dailyDiff(on: Db = db): Promise<number> {
  const r = await on.query<{ n: number }>(
    `WITH direct AS (
       SELECT (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.type, s.provider, s.plan,
              COALESCE(s.source, '') AS source, s.status, COALESCE(e.currency, s.currency) AS currency,
              count(*)::int AS events, COALESCE(sum(e.amount_cents), 0)::bigint AS amount_cents
         FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
        WHERE e.type IN ('new', 'renewal', 'cancellation') GROUP BY 1, 2, 3, 4, 5, 6, 7),
          m AS (SELECT day, type, provider, plan, source, status, currency, events, amount_cents
                  FROM metrics_daily WHERE events <> 0 OR amount_cents <> 0)
     SELECT count(*)::int AS n FROM ((SELECT * FROM direct EXCEPT SELECT * FROM m)
                                     UNION ALL (SELECT * FROM m EXCEPT SELECT * FROM direct)) d`,
  );
  return r.rows[0]?.n ?? -1;
}

/** Every roll-up agrees with the events and with each other. */
async function expectRollupsExact(): Promise<void> {
  expect(await dailyDiff()).toBe(0);
  expect(await rollupDiff('metrics_daily_plan', 'plan')).toBe(0);
  expect(await rollupDiff('metrics_daily_status', 'status')).toBe(0);
  expect(await rollupDiff('metrics_daily_source', 'source')).toBe(0);
}

interface Filter {
  plan?: string;
  status?: 'active' | 'cancelled' | 'expired';
  source?: string;
}
const STATUSES: Record<NonNullable<Filter['status']>, readonly string[]> = {
  active: ACCESS_STATUSES,
  cancelled: ['cancelled'],
  expired: ['expired'],
};

/** lineDaily, byProviderDaily and byProviderDailyAmountCents computed from the raw events. */
async function expectedSeries(f: Filter) {
  const params: unknown[] = [`${FROM}T00:00:00Z`, `${TO}T00:00:00Z`];
  const where: string[] = [];
  if (f.plan) {
    params.push(f.plan.toLowerCase());
    where.push(`lower(s.plan) = $${params.length}`);
  }
  if (f.status) {
    params.push(STATUSES[f.status]);
    where.push(`s.status = ANY($${params.length}::text[])`);
  }
  if (f.source) {
    params.push(f.source.toLowerCase());
    where.push(`lower(COALESCE(s.source, '')) = $${params.length}`);
  }
  const rows = await db.query<{
    day: string;
    type: string;
    provider: string;
    currency: string;
    n: number;
    cents: number;
  }>(
    `SELECT to_char((e.occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, e.type, s.provider,
            COALESCE(e.currency, s.currency) AS currency, count(*)::int AS n,
            COALESCE(sum(e.amount_cents), 0)::float8 AS cents
       FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
      WHERE e.type IN ('new', 'renewal', 'cancellation')
        AND e.occurred_at >= $1::timestamptz AND e.occurred_at < $2::timestamptz + interval '1 day'
        ${where.map((w) => `AND ${w}`).join(' ')}
      GROUP BY 1, 2, 3, 4`,
    params,
  );
  const line = new Map<string, { new: number; renewals: number; cancellations: number }>();
  const counts = new Map<string, Record<string, number>>();
  const amounts = new Map<string, Record<string, number>>();
  for (const r of rows.rows) {
    const l = line.get(r.day) ?? { new: 0, renewals: 0, cancellations: 0 };
    line.set(r.day, l);
    if (r.type === 'cancellation') {
      l.cancellations += r.n;
      continue;
    }
    if (r.type === 'new') l.new += r.n;
    else l.renewals += r.n;
    const c = counts.get(r.day) ?? { lemonsqueezy: 0, clickbank: 0 };
    counts.set(r.day, c);
    c[r.provider] = (c[r.provider] ?? 0) + r.n;
    const rate = FX[r.currency];
    if (rate !== undefined) {
      const a = amounts.get(r.day) ?? { lemonsqueezy: 0, clickbank: 0 };
      amounts.set(r.day, a);
      a[r.provider] = (a[r.provider] ?? 0) + r.cents * rate;
    }
  }
  return { line, counts, amounts };
}

/** The overview for `f` over FROM..TO equals the raw events, day by day. */
async function expectOverviewMatchesEvents(f: Filter): Promise<MetricsOverviewJson> {
  const qs = new URLSearchParams({ from: FROM, to: TO, ...f }).toString();
  const body = await overview(`?${qs}`);
  const want = await expectedSeries(f);
  for (const r of body.series.lineDaily) {
    const w = want.line.get(r.date) ?? { new: 0, renewals: 0, cancellations: 0 };
    expect({
      date: r.date,
      new: r.new,
      renewals: r.renewals,
      cancellations: r.cancellations,
    }).toEqual({ date: r.date, ...w });
  }
  for (const r of body.series.byProviderDaily) {
    const w = want.counts.get(r.date) ?? { lemonsqueezy: 0, clickbank: 0 };
    expect([r.date, r.lemonsqueezy, r.clickbank]).toEqual([r.date, w.lemonsqueezy, w.clickbank]);
  }
  for (const r of body.series.byProviderDailyAmountCents) {
    const w = want.amounts.get(r.date) ?? { lemonsqueezy: 0, clickbank: 0 };
    expect([r.date, r.lemonsqueezy, r.clickbank]).toEqual([
      r.date,
      Math.round(w.lemonsqueezy ?? 0),
      Math.round(w.clickbank ?? 0),
    ]);
  }
  return body;
}

const FILTERS: Filter[] = [
  { plan: 'Pro' },
  { plan: 'basic' },
  { status: 'active' },
  { status: 'cancelled' },
  { status: 'expired' },
  { plan: 'Premium', status: 'active' },
  { plan: 'pro', source: 'google' },
  { status: 'expired', source: 'google' },
  { source: 'google' },
  { source: 'NEWSLETTER' },
];

/**
 * Every filter answers what the events say; the plan-only, status-only and source-only ones read
 * the tables of 007 and 030.
 */
async function expectAllFilters(): Promise<void> {
  for (const f of FILTERS) await expectOverviewMatchesEvents(f);
}

describe('metrics roll-ups of migrations 007 and 030', () => {
  it('picks the narrowest table covering the filters', () => {
    expect(rollupTable({})).toBe('metrics_daily_provider');
    expect(rollupTable({ plan: 'Pro' })).toBe('metrics_daily_plan');
    expect(rollupTable({ status: 'active' })).toBe('metrics_daily_status');
    expect(rollupTable({ source: 'google' })).toBe('metrics_daily_source');
    expect(rollupTable({ plan: 'Pro', status: 'active' })).toBe('metrics_daily');
    expect(rollupTable({ plan: 'Pro', source: 'google' })).toBe('metrics_daily');
    expect(rollupTable({ status: 'expired', source: 'x' })).toBe('metrics_daily');
  });

  it('equal metrics_daily and the raw events after the seed (rebuild)', async () => {
    expect((await db.query('SELECT 1 FROM metrics_daily_plan')).rows.length).toBeGreaterThan(0);
    expect((await db.query('SELECT 1 FROM metrics_daily_status')).rows.length).toBeGreaterThan(0);
    expect((await db.query('SELECT 1 FROM metrics_daily_source')).rows.length).toBeGreaterThan(0);
    await expectRollupsExact();
    const pro = await expectOverviewMatchesEvents({ plan: 'Pro' });
    expect(pro.totals.totalNewInRange).toBeGreaterThan(0);
    const active = await expectOverviewMatchesEvents({ status: 'active' });
    expect(active.totals.totalRenewalsInRange).toBeGreaterThan(0);
    await expectAllFilters();
  }, 60_000);

  it('are filled by migration 030 on a database that holds events', async () => {
    await db.exec(`
      DROP TABLE metrics_daily_source;
      DELETE FROM schema_migrations WHERE version = '030_metrics_source_rollup';`);
    expect(await migrate(db)).toEqual(['030_metrics_source_rollup']);
    expect((await db.query('SELECT 1 FROM metrics_daily_source')).rows.length).toBeGreaterThan(0);
    await expectRollupsExact();
    await expectOverviewMatchesEvents({ source: 'google' });
  });

  it('follow event writes and subscriptions changing plan and status', async () => {
    const subs = await db.query<{ id: number; plan: string; status: string }>(
      `SELECT s.id, s.plan, s.status FROM subscriptions s
        WHERE EXISTS (SELECT 1 FROM subscription_events e WHERE e.subscription_id = s.id
                       AND e.type IN ('new', 'renewal') AND e.occurred_at >= '${FROM}')
        ORDER BY s.id LIMIT 3`,
    );
    expect(subs.rows).toHaveLength(3);
    const [a, b, c] = subs.rows as [
      (typeof subs.rows)[0],
      (typeof subs.rows)[0],
      (typeof subs.rows)[0],
    ];
    const before = await overview(`?from=${FROM}&to=${TO}&plan=Enterprise-X`);
    expect(before.totals.totalNewInRange + before.totals.totalRenewalsInRange).toBe(0);

    await db.query(
      `UPDATE subscriptions SET plan = 'Enterprise-X', source = 'Partner-Z' WHERE id = $1`,
      [a.id],
    );
    await db.query(`UPDATE subscriptions SET status = 'expired' WHERE id = $1`, [b.id]);
    await db.query(`UPDATE subscriptions SET plan = 'Basic', status = 'cancelled' WHERE id = $1`, [
      c.id,
    ]);
    await insertEvent(db, {
      subscriptionId: a.id,
      type: 'renewal',
      occurredAt: '2026-11-19T09:00:00Z',
      amountCents: 4200,
      currency: 'EUR',
    });
    await db.query(
      `DELETE FROM subscription_events WHERE id = (SELECT min(id) FROM subscription_events
         WHERE subscription_id = $1 AND type IN ('new', 'renewal'))`,
      [c.id],
    );
    await db.query(
      `UPDATE subscription_events SET occurred_at = occurred_at + interval '1 day'
        WHERE id = (SELECT max(id) FROM subscription_events WHERE subscription_id = $1)`,
      [b.id],
    );

    await expectRollupsExact();
    const moved = await expectOverviewMatchesEvents({ plan: 'enterprise-x' });
    expect(moved.totals.totalRenewalsInRange).toBeGreaterThan(0);
    const partner = await expectOverviewMatchesEvents({ source: 'partner-z' });
    expect(partner.totals.totalRenewalsInRange).toBeGreaterThan(0);
    await expectAllFilters();

    // Rebuilding from scratch gives the same tables and the same answers.
    const snapshot = async () =>
      (
        await db.query(
          `SELECT 'p' AS t, day::text, type, provider, plan AS k, currency, events, amount_cents::text
             FROM metrics_daily_plan WHERE events <> 0 OR amount_cents <> 0
           UNION ALL
           SELECT 's', day::text, type, provider, status, currency, events, amount_cents::text
             FROM metrics_daily_status WHERE events <> 0 OR amount_cents <> 0
           UNION ALL
           SELECT 'o', day::text, type, provider, source, currency, events, amount_cents::text
             FROM metrics_daily_source WHERE events <> 0 OR amount_cents <> 0
           ORDER BY 1, 2, 3, 4, 5, 6`,
        )
      ).rows;
    const incremental = await snapshot();
    await db.query('SELECT metrics_rollup_rebuild()');
    expect(await snapshot()).toEqual(incremental);
    await expectRollupsExact();
    await expectAllFilters();
  }, 60_000);

  it("fold a transaction's changes at its commit: events written, moved and re-keyed in one transaction", async () => {
    const sub = await db.query<{ id: number }>(
      `SELECT s.id FROM subscriptions s WHERE s.status = 'active' ORDER BY s.id DESC LIMIT 1`,
    );
    const id = sub.rows[0]?.id ?? 0;
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
         VALUES ($1, 'renewal', '2026-11-19T10:00:00Z', 3100, 'USD')`,
        [id],
      );
      // The pending delta is not in the roll-up before the commit …
      const inside = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM metrics_pending`,
      );
      expect(inside.rows[0]?.n).toBeGreaterThan(0);
      // … and a later key change in the same transaction moves the new event with the others.
      await tx.query(
        `UPDATE subscriptions SET plan = 'Gold-Y', status = 'past_due' WHERE id = $1`,
        [id],
      );
      await tx.query(
        `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
         VALUES ($1, 'renewal', '2026-11-20T08:00:00Z', 3100, 'USD')`,
        [id],
      );
    });
    expect((await db.query('SELECT 1 FROM metrics_pending')).rows).toHaveLength(0);
    await expectRollupsExact();
    await expectOverviewMatchesEvents({ plan: 'gold-y' });
    // A transaction that rolls back leaves nothing behind.
    await db
      .transaction(async (tx) => {
        await tx.query(
          `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
           VALUES ($1, 'renewal', '2026-11-20T09:00:00Z', 999, 'USD')`,
          [id],
        );
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await db.query('SELECT 1 FROM metrics_pending')).rows).toHaveLength(0);
    await expectRollupsExact();
  });

  it('are emptied with the events (truncate)', async () => {
    await db.exec('TRUNCATE subscription_events');
    for (const t of ['metrics_daily_plan', 'metrics_daily_status', 'metrics_daily_source']) {
      expect((await db.query(`SELECT 1 FROM ${t}`)).rows).toHaveLength(0);
    }
    const body = await overview(`?from=${FROM}&to=${TO}&plan=Pro`);
    expect(body.totals.totalNewInRange).toBe(0);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'roll-up rows under concurrent writers (PostgreSQL only)',
  () => {
    let pg: Db;
    beforeAll(async () => {
      pg = await freshDb();
      await resetDb(pg);
      await seedDemoData(pg, { customers: 50, seed: 3, now: NOW });
    }, 60_000);
    afterAll(async () => {
      await pg?.close();
    });

    it('a renewal commits while another transaction holding a renewal of the same day and key is still open', async () => {
      const subs = await pg.query<{ id: number }>(
        `SELECT id FROM subscriptions WHERE provider = 'lemonsqueezy' AND status = 'active'
        ORDER BY id LIMIT 2`,
      );
      const [first, second] = subs.rows.map((r) => r.id);
      await pg.query(`UPDATE subscriptions SET plan = 'Pro', currency = 'USD' WHERE id = ANY($1)`, [
        [first, second],
      ]);
      const renew = (q: Pick<Db, 'query'>, id: number | undefined) =>
        q.query(
          `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
         VALUES ($1, 'renewal', '2026-11-20T10:00:00Z', 1900, 'USD')`,
          [id],
        );
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted: () => void = () => undefined;
      const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
      // The first transaction writes its renewal and stays open …
      const open = pg.transaction(async (tx) => {
        await renew(tx, first);
        inserted();
        await held;
      });
      await firstInserted;
      // … while the second, same day and key, commits without waiting for it.
      const committed = await Promise.race([
        renew(pg, second).then(() => 'committed'),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 3000)),
      ]);
      release();
      await open;
      expect(committed).toBe('committed');
      expect(await dailyDiff(pg)).toBe(0);
    });
  },
);
