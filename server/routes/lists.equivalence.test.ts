/**
 * The optimised list queries (server/db/list.ts pagedList — page ids
 * first, MATERIALIZED filter CTE, row_counts totals, the Users union page for subscription sorts)
 * answer exactly what a straightforward reference query answers — rows, order, total and
 * totalPages — for every sort key in both directions, with and without filters, on the first,
 * second, last and past-the-last page.
 *
 * The dataset is the demo seed (server/seed) plus rows that stress the edge cases: members
 * without a subscription (null subscription columns), shared timestamps (ties broken by the ids)
 * and rows inserted and deleted after seeding (the row_counts triggers must follow).
 */
import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iso } from '../access/params';
import { seedDemoData } from '../seed';
import { call, freshDb, testApp, testDeps } from '../testing/app';
import { SUBSCRIPTION_SORT_KEYS, subscriptionsRoutes } from './subscriptions';
import { USER_SORT_KEYS, usersRoutes } from './users';

const NOW = new Date('2026-11-22T12:00:00.000Z');
/** An odd page size, so page boundaries fall inside groups of equal sort keys. */
const PAGE_SIZE = 7;

let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 240, seed: 11, now: NOW });
  // Members without a subscription (null provider, cadence, dates), one of them cancelled.
  await db.exec(`
    INSERT INTO customers (email, name) VALUES ('nosub.one@example.com', NULL), ('nosub.two@example.org', 'Two'),
      ('nosub.three@example.com', NULL);
    INSERT INTO members (customer_id, subscription_id, mg_status, expires_at, updated_at)
      SELECT id, NULL, CASE WHEN email LIKE 'nosub.two%' THEN 'cancelled' ELSE 'active' END,
             CASE WHEN email LIKE 'nosub.three%' THEN '2026-12-24T00:00:00Z'::timestamptz END, '2026-11-01T00:00:00Z'
        FROM customers WHERE email LIKE 'nosub.%';
    -- Ties: shared timestamps on every fifth row (the ids must break them).
    UPDATE members SET updated_at = '2026-11-01T00:00:00Z' WHERE id % 5 = 0;
    UPDATE subscriptions SET updated_at = '2026-10-15T08:00:00Z', start_date = '2025-06-01T00:00:00Z' WHERE id % 5 = 0;
    -- A row inserted and one deleted after seeding: row_counts must follow.
    INSERT INTO customers (email) VALUES ('late.one@example.com');
    INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end, updated_at)
      SELECT id, 'lemonsqueezy', 'late-1', 'on_trial', 'monthly', 'Basic', NULL, 'EUR', '2026-11-20T00:00:00Z', NULL, '2026-11-20T00:00:00Z'
        FROM customers WHERE email = 'late.one@example.com';
    INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, start_date)
      SELECT id, 'clickbank', 'late-2', 'active', 'yearly', 'Pro', '2026-11-21T00:00:00Z' FROM customers WHERE email = 'late.one@example.com';
    DELETE FROM subscriptions WHERE provider_id = 'late-2';
  `);
  app = testApp(testDeps(db, NOW), [usersRoutes, (d) => subscriptionsRoutes(d)]);
}, 180_000);
afterAll(async () => {
  await db?.close();
});

interface Page {
  rows: Record<string, unknown>[];
  total: number;
  totalPages?: number;
}

async function get(path: string): Promise<Page> {
  const res = await call(app, 'GET', path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Page;
}

/** A reference filter: plain SQL over the reference FROM clause, with its parameters. */
interface RefFilter {
  qs: string;
  sql: string;
  params: unknown[];
}

/** Runs the reference: count(*) and one page with LIMIT/OFFSET, ordered by `order`. */
async function reference(from: string, columns: string, f: RefFilter, order: string, page: number) {
  const where = f.sql ? `WHERE ${f.sql}` : '';
  const n = f.params.length;
  const count = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${from} ${where}`,
    f.params,
  );
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${columns} FROM ${from} ${where} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...f.params, PAGE_SIZE, (page - 1) * PAGE_SIZE],
  );
  return { total: count.rows[0]?.n ?? 0, rows: rows.rows };
}

/** Pages to compare for `total` rows: first, second, last and one past the last. */
function pagesFor(total: number): number[] {
  const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return [...new Set([1, 2, last, last + 1])];
}

const USERS_FROM = `members m JOIN customers c ON c.id = m.customer_id LEFT JOIN subscriptions s ON s.id = m.subscription_id`;
const USERS_COLUMNS = `m.id AS row_id, c.email, s.provider, s.provider_id, s.status AS provider_status, m.mg_status,
  s.cadence, s.start_date, m.expires_at, s.current_period_end, m.updated_at`;
const USERS_ORDER: Record<(typeof USER_SORT_KEYS)[number], string> = {
  row_id: 'm.id',
  email: 'c.email',
  provider: 's.provider',
  provider_id: 's.provider_id',
  provider_status: 's.status',
  mg_status: 'm.mg_status',
  cadence: 's.cadence',
  start_date: 's.start_date',
  expires_at: 'm.expires_at',
  current_period_end: 's.current_period_end',
  updated_at: 'm.updated_at',
};
const USERS_SUBSCRIPTION_KEYS = new Set([
  'provider',
  'provider_id',
  'provider_status',
  'cadence',
  'start_date',
  'current_period_end',
]);

const USERS_FILTERS: RefFilter[] = [
  { qs: '', sql: '', params: [] },
  { qs: 'email=MARIA', sql: `strpos(c.email, 'maria') > 0`, params: [] },
  { qs: 'email=.com', sql: `strpos(c.email, '.com') > 0`, params: [] },
  {
    qs: 'provider=lemonsqueezy&provider_status=trialing',
    sql: `s.provider = 'lemonsqueezy' AND s.status IN ('trialing', 'on_trial')`,
    params: [],
  },
  { qs: 'mg_status=scheduled', sql: `m.mg_status = 'active' AND m.expires_at > $1`, params: [NOW] },
  {
    qs: 'mg_status=active',
    sql: `m.mg_status = 'active' AND NOT coalesce(m.expires_at > $1, false)`,
    params: [NOW],
  },
  { qs: 'mg_status=cancelled', sql: `m.mg_status = 'cancelled'`, params: [] },
  {
    qs: 'cadence=yearly&start_from=2025-01-01&start_to=2026-06-30',
    sql: `s.cadence = 'yearly' AND s.start_date >= '2025-01-01T00:00:00Z' AND s.start_date < '2026-07-01T00:00:00Z'`,
    params: [],
  },
  {
    qs: 'exp_from=2026-11-01&exp_to=2027-01-31',
    sql: `m.expires_at >= '2026-11-01T00:00:00Z' AND m.expires_at < '2027-02-01T00:00:00Z'`,
    params: [],
  },
  { qs: 'row_id=17', sql: 'm.id = 17', params: [] },
];

const userRow = (r: Record<string, unknown>) => ({
  row_id: Number(r.row_id),
  email: r.email,
  provider: r.provider,
  provider_id: r.provider_id,
  provider_status: r.provider_status,
  mg_status: r.mg_status,
  mg_status_label: null,
  cadence: r.cadence,
  start_date: iso(r.start_date as Date | null),
  expires_at: iso(r.expires_at as Date | null),
  current_period_end: iso(r.current_period_end as Date | null),
  updated_at: iso(r.updated_at as Date | null),
});

describe('GET /users answers what the reference query answers', () => {
  it('the dataset has the edge cases this test relies on', async () => {
    const r = await db.query<{ nosub: number; ties: number; nulls: number }>(
      `SELECT (SELECT count(*)::int FROM members WHERE subscription_id IS NULL) AS nosub,
              (SELECT count(*)::int FROM members WHERE updated_at = '2026-11-01T00:00:00Z') AS ties,
              (SELECT count(*)::int FROM members WHERE expires_at IS NULL) AS nulls`,
    );
    expect(r.rows[0]?.nosub).toBe(3);
    expect(r.rows[0]?.ties).toBeGreaterThan(PAGE_SIZE);
    expect(r.rows[0]?.nulls).toBeGreaterThan(PAGE_SIZE);
  });

  for (const f of USERS_FILTERS) {
    it(`every sort key, both directions, first / second / last / past-last page: ?${f.qs || '(no filter)'}`, async () => {
      let compared = 0;
      expect(
        (await reference(USERS_FROM, USERS_COLUMNS, f, 'm.id', 1)).total,
        'the filter matches rows',
      ).toBeGreaterThan(0);
      for (const key of USER_SORT_KEYS) {
        for (const dir of ['ASC', 'DESC'] as const) {
          const tie = USERS_SUBSCRIPTION_KEYS.has(key) ? `, s.id ${dir}` : '';
          const order = `${USERS_ORDER[key]} ${dir}${tie}, m.id ${dir}`;
          const first = await reference(USERS_FROM, USERS_COLUMNS, f, order, 1);
          for (const page of pagesFor(first.total)) {
            const ref =
              page === 1 ? first : await reference(USERS_FROM, USERS_COLUMNS, f, order, page);
            const sort = `${dir === 'DESC' ? '-' : ''}${key}`;
            const got = await get(`/users?${f.qs}&sort=${sort}&page=${page}&pageSize=${PAGE_SIZE}`);
            const want = {
              rows: ref.rows.map(userRow),
              total: ref.total,
              totalPages: Math.max(1, Math.ceil(ref.total / PAGE_SIZE)),
            };
            expect(
              { rows: got.rows, total: got.total, totalPages: got.totalPages },
              `${f.qs} sort=${sort} page=${page}`,
            ).toEqual(want);
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThanOrEqual(USER_SORT_KEYS.length * 2);
    });
  }
});

const SUBS_FROM = `subscriptions s JOIN customers c ON c.id = s.customer_id`;
const SUBS_COLUMNS = `s.id AS row_id, c.email, c.name, s.provider, s.provider_id, s.status, s.cadence, s.start_date,
  s.current_period_end, s.ends_at AS expires_at, s.amount_cents AS amount, s.currency, s.updated_at`;
const SUBS_ORDER: Record<(typeof SUBSCRIPTION_SORT_KEYS)[number], string> = {
  row_id: 's.id',
  email: 'c.email',
  provider: 's.provider',
  provider_id: 's.provider_id',
  provider_status: 's.status',
  cadence: 's.cadence',
  start_date: 's.start_date',
  current_period_end: 's.current_period_end',
  expires_at: 's.ends_at',
  amount: 's.amount_cents',
  updated_at: 's.updated_at',
};

const SUBS_FILTERS: RefFilter[] = [
  { qs: '', sql: '', params: [] },
  { qs: 'email=example.org', sql: `strpos(c.email, 'example.org') > 0`, params: [] },
  {
    qs: 'provider=clickbank&provider_status=cancelled',
    sql: `s.provider = 'clickbank' AND s.status IN ('cancelled', 'canceled')`,
    params: [],
  },
  { qs: 'provider_status=trialing', sql: `s.status IN ('trialing', 'on_trial')`, params: [] },
  { qs: 'cadence=monthly', sql: `s.cadence = 'monthly'`, params: [] },
  {
    qs: 'renew_from=2026-11-22&renew_to=2026-12-31',
    sql: `s.current_period_end >= '2026-11-22T00:00:00Z' AND s.current_period_end < '2027-01-01T00:00:00Z'`,
    params: [],
  },
  { qs: 'expire_from=2026-01-01', sql: `s.ends_at >= '2026-01-01T00:00:00Z'`, params: [] },
  {
    qs: 'updated_to=2026-10-15 08:00:00',
    sql: `s.updated_at <= '2026-10-15T08:00:00Z'`,
    params: [],
  },
  { qs: 'provider_id=late-1', sql: `s.provider_id = 'late-1'`, params: [] },
];

const subRow = (r: Record<string, unknown>) => ({
  row_id: Number(r.row_id),
  email: r.email,
  name: r.name,
  provider: r.provider,
  provider_id: r.provider_id,
  status: r.status,
  cadence: r.cadence,
  start_date: iso(r.start_date as Date | null),
  current_period_end: iso(r.current_period_end as Date | null),
  expires_at: iso(r.expires_at as Date | null),
  amount: r.amount === null ? null : Number(r.amount),
  currency: r.currency,
  updated_at: iso(r.updated_at as Date | null),
});

describe('GET /subscriptions answers what the reference query answers', () => {
  for (const f of SUBS_FILTERS) {
    it(`every sort key, both directions, first / second / last / past-last page: ?${f.qs || '(no filter)'}`, async () => {
      let compared = 0;
      expect(
        (await reference(SUBS_FROM, SUBS_COLUMNS, f, 's.id', 1)).total,
        'the filter matches rows',
      ).toBeGreaterThan(0);
      for (const key of SUBSCRIPTION_SORT_KEYS) {
        for (const dir of ['asc', 'desc'] as const) {
          const order = `${SUBS_ORDER[key]} ${dir}, s.id ${dir}`;
          const first = await reference(SUBS_FROM, SUBS_COLUMNS, f, order, 1);
          for (const page of pagesFor(first.total)) {
            const ref =
              page === 1 ? first : await reference(SUBS_FROM, SUBS_COLUMNS, f, order, page);
            const got = await get(
              `/subscriptions?${f.qs}&sortKey=${key}&sortDir=${dir}&page=${page}&pageSize=${PAGE_SIZE}`,
            );
            expect(
              { rows: got.rows, total: got.total },
              `${f.qs} ${key} ${dir} page=${page}`,
            ).toEqual({ rows: ref.rows.map(subRow), total: ref.total });
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThanOrEqual(SUBSCRIPTION_SORT_KEYS.length * 2);
    });
  }

  it('the unfiltered total follows inserts, deletes and the seed COPY (row_counts triggers)', async () => {
    const counts = await db.query<{ table_name: string; n: number; actual: number }>(
      `SELECT table_name, sum(n)::int AS n,
              CASE table_name WHEN 'subscriptions' THEN (SELECT count(*) FROM subscriptions) ELSE (SELECT count(*) FROM members) END::int AS actual
         FROM row_counts GROUP BY table_name ORDER BY table_name`,
    );
    expect(counts.rows.map((r) => r.table_name)).toEqual(['members', 'subscriptions']);
    for (const r of counts.rows) expect(r.n, r.table_name).toBe(r.actual);
    expect((await get('/subscriptions')).total).toBe(241);
    expect((await get('/users')).total).toBe(243);
  });
});
