import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { call, freshDb, testApp, testDeps } from '../testing/app';
import { NOW } from '../testing/scenario';
import { LOGS_SEARCH_COUNT_CAP, logsRoutes } from './logs';

/** GET /logs over the seeded demo logs (§2 Logs, §7, §9): level, q, paging, newest first, 400s. */
let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 60, seed: 7, now: NOW });
  app = testApp(testDeps(db, NOW), [logsRoutes]);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

async function sqlCount(where: string, params: unknown[] = []): Promise<number> {
  return (
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM logs ${where}`, params)).rows[0]
      ?.n ?? 0
  );
}

describe('GET /logs on the seeded rows', () => {
  it('answers the newest 50 first with the exact total and page count', async () => {
    const res = await call(app, 'GET', '/logs');
    expect(res.status).toBe(200);
    const total = await sqlCount('');
    expect(total).toBe(2000);
    expect(res.body).toMatchObject({
      total,
      totalPages: 40,
      page: 1,
      pageSize: 50,
      totalCapped: false,
    });
    expect(res.body.rows).toHaveLength(50);
    const ts = res.body.rows.map((r: { ts: string }) => r.ts);
    expect([...ts].sort().reverse()).toEqual(ts);
    expect(Object.keys(res.body.rows[0]).sort()).toEqual(['context', 'id', 'level', 'msg', 'ts']);
    expect(res.body.rows[0].ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('filters by level', async () => {
    const res = await call(app, 'GET', '/logs?level=warn&pageSize=200');
    const total = await sqlCount(`WHERE level = 'warn'`);
    expect(total).toBeGreaterThan(0);
    expect(res.body.total).toBe(total);
    expect(res.body.rows.every((r: { level: string }) => r.level === 'warn')).toBe(true);
  });

  it('searches the message and the context text, case-insensitively, combined with the level', async () => {
    const byMsg = await call(app, 'GET', '/logs?level=warn&q=SIGN-IN%20FAILED&pageSize=100');
    const expected = await sqlCount(`WHERE level = 'warn' AND msg = 'Admin sign-in failed'`);
    expect(expected).toBeGreaterThan(0);
    expect(byMsg.body.total).toBe(expected);
    expect(byMsg.body.rows.every((r: { msg: string }) => r.msg === 'Admin sign-in failed')).toBe(
      true,
    );

    // A value that only appears inside the context (an email of the seeded customers).
    const some = await db.query<{ e: string }>(
      `SELECT context->>'email' AS e FROM logs WHERE context ? 'email' AND msg LIKE 'Discourse%' LIMIT 1`,
    );
    const email = some.rows[0]?.e ?? '';
    expect(email).toContain('@');
    const byContext = await call(app, 'GET', `/logs?q=${encodeURIComponent(email)}&pageSize=200`);
    expect(byContext.body.total).toBe(
      await sqlCount(`WHERE context::text ILIKE $1 OR msg ILIKE $1`, [`%${email}%`]),
    );
    expect(
      byContext.body.rows.every((r: { context: unknown }) =>
        JSON.stringify(r.context).includes(email),
      ),
    ).toBe(true);
    expect(byContext.body.rows.length).toBeGreaterThan(1);
    const keys = byContext.body.rows.map(
      (r: { ts: string; id: number }) => `${r.ts}#${String(r.id).padStart(8, '0')}`,
    );
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it('matches LIKE wildcards literally and answers no rows for no match', async () => {
    const res = await call(app, 'GET', '/logs?q=%25_%25');
    expect(res.body).toMatchObject({ rows: [], total: 0, totalPages: 1 });
  });

  it('pages newest first without overlap, and a page past the end is empty', async () => {
    const p1 = await call(app, 'GET', '/logs?level=info&pageSize=50&page=1');
    const p2 = await call(app, 'GET', '/logs?level=info&pageSize=50&page=2');
    const ids1 = new Set(p1.body.rows.map((r: { id: number }) => r.id));
    expect(p2.body.rows.some((r: { id: number }) => ids1.has(r.id))).toBe(false);
    expect(p1.body.rows.at(-1).ts >= p2.body.rows[0].ts).toBe(true);
    const past = await call(app, 'GET', '/logs?page=999');
    expect(past.body.rows).toEqual([]);
  });

  it('caps a search total that passes the cap and says so', async () => {
    const res = await call(app, 'GET', '/logs?q=e&pageSize=50');
    expect(await sqlCount(`WHERE msg ILIKE '%e%' OR context::text ILIKE '%e%'`)).toBeGreaterThan(
      LOGS_SEARCH_COUNT_CAP,
    );
    expect(res.body).toMatchObject({
      total: LOGS_SEARCH_COUNT_CAP,
      totalCapped: true,
      totalPages: LOGS_SEARCH_COUNT_CAP / 50,
    });
    expect(res.body.rows).toHaveLength(50);
  });

  it.each([
    ['/logs?pageSize=201', /pageSize must be a whole number from 1 to 200/],
    ['/logs?pageSize=0', /pageSize/],
    ['/logs?page=-1', /page must be/],
    ['/logs?level=verbose', /level must be one of trace, debug, info, warn, error, fatal/],
    [`/logs?q=${'x'.repeat(201)}`, /q must be at most 200 characters/],
  ])('%s → 400 %s', async (path, message) => {
    const res = await call(app, 'GET', path);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('searchDriver', () => {
  it('drives the index with the rarest-looking window of an identifier, the whole text otherwise', async () => {
    const { searchDriver } = await import('./logs');
    expect(searchDriver('user4242@example.com')).toBe('r4242@');
    expect(searchDriver('Discourse')).toBe('Discourse');
    expect(searchDriver('rate limited')).toBe('rate limited');
    expect(searchDriver('C4CA42')).toBe('C4CA42');
    expect(searchDriver('receipt ABCD1234')).toBe('CD1234');
  });
});
