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
 * GETs `path` on an app over `db` mounting `factories` and expects a 200 list answer
 * (`{rows: {row_id}[], total}`) equal to `expected` (the total, and the ids of the page's rows in
 * order) → the SQL of every statement the request ran, in order, for tests of the statement shape
 * a list chose.
 */
export async function listStatements(
  db: Db,
  now: Date,
  factories: RouteFactory[],
  path: string,
  expected: { total: number; ids: number[] },
): Promise<string[]> {
  const statements: string[] = [];
  const app = testApp(
    testDeps(spyDb(db, { query: (sql) => statements.push(sql) }), now),
    factories,
  );
  const res = await call(app, 'GET', path);
  expect(res.status, path).toBe(200);
  const page = res.body as { rows: { row_id: number }[]; total: number };
  expect({ total: page.total, ids: page.rows.map((r) => r.row_id) }, path).toEqual(expected);
  return statements;
}
