/**
 * The roll-ups of migration 018 (revenue_monthly, revenue_customers_daily,
 * revenue_customers_monthly) against plain recomputations: after every kind of write the trigger
 * sees, after a truncate, after revenue_rebuild(), and when the migration runs on a database that
 * already holds a history; and the streak columns of revenue_movements (migration 028) against
 * the spans, and their roll-up revenue_retained_daily (029); and revenue_daily_kinds (031).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db';
import type { Db } from '../db/types';
import { freshDb, resetDb } from '../testing/app';
import { insertCustomer, insertSubscription } from '../testing/fixtures';

let db: Db;
beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const DAY = 86_400_000;

interface Span {
  customer: number;
  provider: string;
  plan: string;
  cadence: string;
  from: number;
  to: number | null;
}

/** 'YYYY-MM-DD' of a UTC day. */
const dayOf = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const sortRows = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort() as unknown as T[];

async function spans(): Promise<Span[]> {
  const r = await db.query<{
    customer_id: string;
    provider: string;
    plan: string;
    cadence: string;
    valid_from: Date;
    valid_to: Date | null;
  }>('SELECT customer_id, provider, plan, cadence, valid_from, valid_to FROM revenue_spans');
  return r.rows.map((s) => ({
    customer: Number(s.customer_id),
    provider: s.provider,
    plan: s.plan,
    cadence: s.cadence,
    from: new Date(s.valid_from).getTime(),
    to: s.valid_to == null ? null : new Date(s.valid_to).getTime(),
  }));
}

/**
 * The customer-count changes written plainly from the spans: for each filter shape and value and
 * each UTC day D where a span starts or ends, the customers recurring just before D + 1 day less
 * those recurring just before D (a span recurs just before X when it starts before X and has not
 * ended before X).
 */
function expectedCustomerChanges(all: Span[]) {
  const daily = new Map<string, number>();
  for (let g = 0; g < 8; g++) {
    const valueOf = (s: Span) =>
      [g & 1 ? s.provider : '', g & 2 ? s.plan.toLowerCase() : '', g & 4 ? s.cadence : ''] as const;
    const values = new Map(all.map((s) => [JSON.stringify(valueOf(s)), valueOf(s)]));
    const days = new Set<number>();
    for (const s of all) {
      days.add(Math.floor(s.from / DAY) * DAY);
      if (s.to !== null) days.add(Math.floor(s.to / DAY) * DAY);
    }
    for (const [k, v] of values) {
      const under = all.filter((s) => JSON.stringify(valueOf(s)) === k);
      const before = (x: number) =>
        new Set(
          under.filter((s) => s.from < x && (s.to === null || s.to >= x)).map((s) => s.customer),
        ).size;
      for (const d of days) {
        const change = before(d + DAY) - before(d);
        if (change !== 0) daily.set(JSON.stringify([g, ...v, dayOf(d)]), change);
      }
    }
  }
  const monthly = new Map<string, number>();
  for (const [k, n] of daily) {
    const [g, p, pl, c, day] = JSON.parse(k) as [number, string, string, string, string];
    const mk = JSON.stringify([g, p, pl, c, monthOf(day)]);
    monthly.set(mk, (monthly.get(mk) ?? 0) + n);
  }
  const rows = (m: Map<string, number>) =>
    sortRows(
      [...m]
        .filter(([, n]) => n !== 0)
        .map(([k, n]) => {
          const [g, provider, plan, cadence, at] = JSON.parse(k) as [
            number,
            string,
            string,
            string,
            string,
          ];
          return { g, provider, plan, cadence, at, customers: n };
        }),
    );
  return { daily: rows(daily), monthly: rows(monthly) };
}

/**
 * The streak columns of migration 028 against the spans: a customer's streaks are its spans
 * merged where one starts at or before another ends (it recurs throughout); a movement at t lies
 * in the streak that starts at or before t and ends at or after it (there is one: streaks do not
 * touch), first_from is the start of the first.
 */
async function expectStreaksInStep(): Promise<void> {
  const streaks = new Map<number, Array<[number, number | null]>>();
  // Migration 048's bits: the customer's spans share one provider (1), one cadence (2).
  const values = new Map<number, Array<Set<string>>>();
  for (const s of await spans()) {
    const v = values.get(s.customer) ?? [new Set(), new Set()];
    [s.provider, s.cadence].forEach((x, i) => v[i]?.add(x));
    values.set(s.customer, v);
  }
  for (const s of [...(await spans())].sort((a, b) => a.from - b.from)) {
    const list = streaks.get(s.customer) ?? [];
    const last = list.at(-1);
    if (last && (last[1] === null || s.from <= last[1])) {
      last[1] = last[1] === null || s.to === null ? null : Math.max(last[1], s.to);
    } else list.push([s.from, s.to]);
    streaks.set(s.customer, list);
  }
  const stored = await db.query<{
    customer_id: string;
    at: Date;
    first_from: Date;
    streak_from: Date;
    uniform: number;
  }>('SELECT customer_id, at, first_from, streak_from, uniform FROM revenue_movements');
  for (const m of stored.rows) {
    const list = streaks.get(Number(m.customer_id)) ?? [];
    const t = new Date(m.at).getTime();
    const streak = list.find(([from, to]) => from <= t && (to === null || t <= to));
    const uniform = (values.get(Number(m.customer_id)) ?? []).reduce(
      (bits, set, i) => bits | (set.size === 1 ? 1 << i : 0),
      0,
    );
    expect({
      first: new Date(m.first_from).getTime(),
      streak: new Date(m.streak_from).getTime(),
      uniform: m.uniform,
    }).toEqual({
      first: list[0]?.[0],
      streak: streak?.[0],
      uniform,
    });
  }
}

/**
 * Each roll-up as stored, and as recomputed plainly (movements by month; counts from spans), and
 * the streak columns of the movements.
 */
async function expectRollupsInStep(): Promise<void> {
  await expectStreaksInStep();
  const monthly = await db.query(
    `SELECT to_char(month, 'YYYY-MM-DD') AS month, provider, plan, cadence, currency, kind_alone, kind_net,
            paired, other_plan, other_cadence, delta_twelfths::text AS t, pieces
       FROM revenue_monthly`,
  );
  const fromMovements = await db.query(
    `SELECT to_char(date_trunc('month', at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month, provider, plan, cadence,
            currency, kind_alone, kind_net, paired, other_plan, other_cadence, sum(delta_twelfths)::text AS t,
            count(*)::int AS pieces
       FROM revenue_movements GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`,
  );
  expect(sortRows(monthly.rows)).toEqual(sortRows(fromMovements.rows));
  const retained = await db.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, to_char(streak_month, 'YYYY-MM-DD') AS streak_month, currency,
            delta_twelfths::text AS t, churn_flips, pieces
       FROM revenue_retained_daily`,
  );
  const retainedFromMovements = await db.query(
    `SELECT to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day,
            to_char(date_trunc('month', streak_from AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS streak_month, currency,
            sum(delta_twelfths)::text AS t,
            COALESCE(sum(flip) FILTER (WHERE kind_alone = 'churn'), 0)::int AS churn_flips, count(*)::int AS pieces
       FROM revenue_movements WHERE kind_alone IN ('expansion', 'contraction', 'churn') GROUP BY 1, 2, 3`,
  );
  expect(sortRows(retained.rows)).toEqual(sortRows(retainedFromMovements.rows));
  const kinds = await db.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, cadence, kind, delta_twelfths::text AS t, pieces
       FROM revenue_daily_kinds`,
  );
  const kindsFromMovements = await db.query(
    `SELECT to_char((at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, currency, cadence,
            CASE WHEN paired THEN kind_net ELSE kind_alone END AS kind, sum(delta_twelfths)::text AS t,
            count(*)::int AS pieces
       FROM revenue_movements GROUP BY 1, 2, 3, 4`,
  );
  expect(sortRows(kinds.rows)).toEqual(sortRows(kindsFromMovements.rows));
  const stored = async (table: string, col: string) =>
    sortRows(
      (
        await db.query(
          `SELECT g, provider, plan, cadence, to_char(${col}, 'YYYY-MM-DD') AS at, customers FROM ${table}`,
        )
      ).rows,
    );
  const expected = expectedCustomerChanges(await spans());
  expect(await stored('revenue_customers_daily', 'day')).toEqual(expected.daily);
  expect(await stored('revenue_customers_monthly', 'month')).toEqual(expected.monthly);
}

const change = (id: number, set: string, at: string) =>
  db.query(`UPDATE subscriptions SET ${set}, updated_at = $2 WHERE id = $1`, [id, at]);

/** A small history with every kind of change the trigger handles; returns the subscription ids. */
async function history(): Promise<number[]> {
  const a = await insertCustomer(db, 'a@example.com');
  const b = await insertCustomer(db, 'b@example.com');
  const c = await insertCustomer(db, 'c@example.com');
  const s1 = await insertSubscription(db, {
    customerId: a,
    providerId: 's1',
    plan: 'Basic',
    amountCents: 900,
    startDate: '2026-01-10T10:00:00Z',
  });
  const s2 = await insertSubscription(db, {
    customerId: a,
    provider: 'clickbank',
    providerId: 's2',
    plan: 'Pro',
    cadence: 'yearly',
    amountCents: 12000,
    startDate: '2026-02-03T00:00:00Z',
  });
  const s3 = await insertSubscription(db, {
    customerId: b,
    providerId: 's3',
    plan: 'pro',
    currency: 'EUR',
    startDate: '2026-01-31T23:59:59Z',
  });
  await expectRollupsInStep();
  await change(s1, `plan = 'Pro', amount_cents = 1900`, '2026-03-05T10:00:00Z');
  await change(s3, `amount_cents = 500`, '2026-03-05T12:00:00Z');
  await expectRollupsInStep();
  await change(
    s2,
    `status = 'cancelled', ends_at = '2026-04-01T00:00:00Z'`,
    '2026-03-20T00:00:00Z',
  );
  await change(s3, `status = 'expired', ends_at = '2026-04-02T00:00:00Z'`, '2026-04-02T00:00:00Z');
  await expectRollupsInStep();
  await change(s2, `status = 'active', ends_at = NULL`, '2026-03-25T00:00:00Z');
  await change(s1, `cadence = 'yearly', amount_cents = 20000`, '2026-05-01T00:00:00Z');
  await change(s1, `customer_id = ${c}`, '2026-06-01T00:00:00Z');
  await expectRollupsInStep();
  return [s1, s2, s3];
}

describe('revenue roll-ups of migrations 018 and 029 and the streaks of 028', () => {
  it('follow inserts, updates, a move to another customer and a truncate', async () => {
    await resetDb(db);
    await history();
    const counts = await db.query<{ m: number; d: number; cm: number }>(
      `SELECT (SELECT count(*) FROM revenue_monthly)::int AS m, (SELECT count(*) FROM revenue_customers_daily)::int AS d,
              (SELECT count(*) FROM revenue_customers_monthly)::int AS cm`,
    );
    expect(counts.rows[0]).toEqual({
      m: expect.any(Number),
      d: expect.any(Number),
      cm: expect.any(Number),
    });
    expect(Object.values(counts.rows[0] ?? {}).every((n) => n > 0)).toBe(true);
    await resetDb(db);
    await expectRollupsInStep();
    expect(
      (
        await db.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM revenue_monthly) + (SELECT count(*) FROM revenue_customers_daily)
                  + (SELECT count(*) FROM revenue_customers_monthly))::int AS n`,
        )
      ).rows[0]?.n,
    ).toBe(0);
  });

  it('are rebuilt by revenue_rebuild() and by the migration on a database with a history', async () => {
    await resetDb(db);
    await history();
    await db.exec(
      'DELETE FROM revenue_monthly; DELETE FROM revenue_customers_daily; DELETE FROM revenue_customers_monthly',
    );
    await db.query('SELECT revenue_rebuild()');
    await expectRollupsInStep();
    // The database as it was before 018 (its tables and function gone; the migration redefines
    // the recomputation that refers to them).
    await db.exec(`
      DROP TABLE revenue_monthly, revenue_customers_daily, revenue_customers_monthly;
      DROP FUNCTION revenue_customers_add(INTEGER, TEXT);
      DELETE FROM schema_migrations WHERE version = '018_revenue_rollups';`);
    expect(await migrate(db)).toEqual(['018_revenue_rollups']);
    await expectRollupsInStep();
    // And before 028: its columns filled from the movements already stored (048 runs again
    // after it: 028 redefines the recomputation without 048's column).
    await db.exec(`
      ALTER TABLE revenue_movements DROP COLUMN first_from, DROP COLUMN streak_from, DROP COLUMN uniform;
      DELETE FROM schema_migrations WHERE version IN ('028_revenue_streaks', '048_revenue_uniform_customers');`);
    expect(await migrate(db)).toEqual(['028_revenue_streaks', '048_revenue_uniform_customers']);
    await expectRollupsInStep();
    // 048 rewrites the table; the runner vacuums it after the commit (vacuumAfter).
    const vacuumed = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables
        WHERE relname = 'revenue_movements' AND last_vacuum > now() - interval '1 minute'`,
    );
    expect(vacuumed.rows[0]?.n).toBe(1);
    // And before 029: its roll-up filled from the movements already stored.
    await db.exec(`
      DROP TABLE revenue_retained_daily;
      DROP INDEX IF EXISTS revenue_movements_streak_idx, revenue_movements_restreak_idx;
      DELETE FROM schema_migrations WHERE version = '029_revenue_retained';`);
    expect(await migrate(db)).toEqual(['029_revenue_retained']);
    await expectRollupsInStep();
    expect(
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM revenue_retained_daily'))
        .rows[0]?.n,
    ).toBeGreaterThan(0);
    // And before 031 (029 ran again above: its recomputation no longer keeps the narrow roll-up
    // until 031 redefines it).
    await db.exec(`
      DROP TABLE revenue_daily_kinds;
      DELETE FROM schema_migrations WHERE version = '031_revenue_daily_kinds';`);
    expect(await migrate(db)).toEqual(['031_revenue_daily_kinds']);
    await expectRollupsInStep();
    expect(
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM revenue_daily_kinds')).rows[0]
        ?.n,
    ).toBeGreaterThan(0);
    expect(
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM revenue_customers_daily'))
        .rows[0]?.n,
    ).toBeGreaterThan(0);
  });

  it('stay in step with generated histories', async () => {
    type Op =
      | { kind: 'amount'; cents: number }
      | { kind: 'plan'; plan: 'Basic' | 'Pro' | 'pro' }
      | { kind: 'cadence' }
      | { kind: 'cancel'; days: number }
      | { kind: 'resume' }
      | { kind: 'expire' }
      | { kind: 'move' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('amount' as const), cents: fc.integer({ min: 0, max: 3000 }) }),
      fc.record({
        kind: fc.constant('plan' as const),
        plan: fc.constantFrom('Basic' as const, 'Pro' as const, 'pro' as const),
      }),
      fc.record({ kind: fc.constant('cadence' as const) }),
      fc.record({ kind: fc.constant('cancel' as const), days: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('resume' as const) }),
      fc.record({ kind: fc.constant('expire' as const) }),
      fc.record({ kind: fc.constant('move' as const) }),
    );
    const sub = fc.record({
      customer: fc.integer({ min: 0, max: 2 }),
      provider: fc.constantFrom('lemonsqueezy' as const, 'clickbank' as const),
      startDay: fc.integer({ min: 0, max: 90 }),
      // Whole days or instants inside one, so changes land on and off UTC midnights.
      startMs: fc.constantFrom(0, 1000, 43_200_000),
      ops: fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), op), { maxLength: 5 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sub, { minLength: 1, maxLength: 4 }), async (subs) => {
        await resetDb(db);
        const customers = [
          await insertCustomer(db, 'x@example.com'),
          await insertCustomer(db, 'y@example.com'),
          await insertCustomer(db, 'z@example.com'),
        ];
        const t0 = Date.parse('2026-01-01T00:00:00Z');
        let n = 0;
        for (const s of subs) {
          n++;
          let t = t0 + s.startDay * DAY + s.startMs;
          let customer = customers[s.customer] as number;
          const id = await insertSubscription(db, {
            customerId: customer,
            provider: s.provider,
            providerId: `p${n}`,
            startDate: new Date(t).toISOString(),
          });
          for (const [gap, o] of s.ops) {
            t += gap * DAY;
            const at = new Date(t).toISOString();
            if (o.kind === 'amount') await change(id, `amount_cents = ${o.cents}`, at);
            if (o.kind === 'plan') await change(id, `plan = '${o.plan}'`, at);
            if (o.kind === 'cadence') {
              await change(
                id,
                `cadence = CASE cadence WHEN 'monthly' THEN 'yearly' ELSE 'monthly' END`,
                at,
              );
            }
            if (o.kind === 'cancel') {
              const ends = new Date(t + o.days * DAY).toISOString();
              await change(id, `status = 'cancelled', ends_at = '${ends}'`, at);
            }
            if (o.kind === 'resume') await change(id, `status = 'active', ends_at = NULL`, at);
            if (o.kind === 'expire') await change(id, `status = 'expired', ends_at = '${at}'`, at);
            if (o.kind === 'move') {
              customer = customers[(customers.indexOf(customer) + 1) % 3] as number;
              await change(id, `customer_id = ${customer}`, at);
            }
          }
        }
        await expectRollupsInStep();
      }),
      { numRuns: 30, seed: 18 },
    );
  }, 300_000);
});
