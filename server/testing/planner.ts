/**
 * Tests of what a route asks of the planner (server/db/list.ts, indexOnlyScans): which settings
 * the transactions of each request carried. Tests only (it asserts with vitest).
 */
import { expect } from 'vitest';
import type { Db } from '../db/types';
import type { RouteFactory } from '../routes/registry';
import { call, spyDb, testApp, testDeps } from './app';

/** One list request and what it must answer: its query string, total, first row ids ([]: any) and transaction settings. */
export type SteeringCase = [qs: string, total: number, first: number[], settings: string[]];

/**
 * GETs `path?qs` for each case on an app over `db` mounting `factories` and expects a 200 list
 * answer (`{rows: {row_id}[], total}`) with the case's total and first row ids, and the settings
 * of each transaction the request opened, as JSON ('{}' for a transaction without any).
 */
export async function expectTransactionSettings(
  db: Db,
  now: Date,
  factories: RouteFactory[],
  path: string,
  cases: SteeringCase[],
): Promise<void> {
  let seen: string[] = [];
  const app = testApp(
    testDeps(spyDb(db, { transaction: (o) => seen.push(JSON.stringify(o?.settings ?? {})) }), now),
    factories,
  );
  for (const [qs, total, first, settings] of cases) {
    seen = [];
    const res = await call(app, 'GET', `${path}?${qs}`);
    expect(res.status, qs).toBe(200);
    const page = res.body as { rows: { row_id: number }[]; total: number };
    expect(page.total, qs).toBe(total);
    if (first.length > 0)
      expect(
        page.rows.map((r) => r.row_id),
        qs,
      ).toEqual(first);
    expect(seen, qs).toEqual(settings);
  }
}

/**
 * GETs `path` on an app over `db` mounting `factories` and expects the list answer (`{rows:
 * {row_id}[], total}`) that plain SQL gives: `total` rows, and on the page the ids `plain.sql`
 * selects in order (with `plain.params`). Expects too that no statement of the request gathered
 * every match (the MATERIALIZED CTE of server/db/list.ts's module doc, 4) or computed an
 * address's joined text (email_trigram_text, migration 047) outside the planner's estimate: how
 * a list reads an email fragment found in most of its rows (addEmailFilter).
 */
export async function expectBroadEmailRead(
  db: Db,
  now: Date,
  factories: RouteFactory[],
  path: string,
  total: number,
  plain: { sql: string; params: unknown[] },
): Promise<void> {
  const ids = (await db.query<{ id: number }>(plain.sql, plain.params)).rows.map((r) =>
    Number(r.id),
  );
  const statements: string[] = [];
  const app = testApp(
    testDeps(spyDb(db, { query: (sql) => statements.push(sql) }), now),
    factories,
  );
  const res = await call(app, 'GET', path);
  expect(res.status, path).toBe(200);
  const page = res.body as { rows: { row_id: number }[]; total: number };
  expect({ total: page.total, ids: page.rows.map((r) => r.row_id) }, path).toEqual({ total, ids });
  const listed = statements.filter((sql) => !sql.startsWith('EXPLAIN'));
  expect(
    listed.filter((sql) => sql.startsWith('WITH f AS MATERIALIZED')),
    path,
  ).toEqual([]);
  expect(
    listed.filter((sql) => sql.includes('email_trigram_text')),
    path,
  ).toEqual([]);
}
