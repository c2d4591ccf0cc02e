/**
 * Every list query and action body is validated by a zod schema before anything reaches the
 * database: bad input answers 400 `{error:'bad_request', message, issues:[{path, message}]}`
 * (docs/api.md "Errors") and writes nothing.
 */
import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshDb, testApp, testDeps } from '../testing/app';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import { clickbankRoutes } from './clickbank';
import { maintenanceRoutes } from './maintenance';
import { subscriptionsRoutes } from './subscriptions';
import { usersRoutes } from './users';

let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
  await seedScenario(db);
  app = testApp(testDeps(db, NOW), [
    usersRoutes,
    (d) => subscriptionsRoutes(d),
    clickbankRoutes,
    maintenanceRoutes,
  ]);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('400 answers list every field problem', () => {
  it.each([
    [
      'GET',
      '/users?page=0&cadence=weekly&exp_to=tomorrow',
      undefined,
      ['page', 'cadence', 'exp_to'],
    ],
    [
      'GET',
      '/users?sort=-nope&mg_status=gone&row_id=x',
      undefined,
      ['sort', 'row_id', 'mg_status'],
    ],
    ['GET', '/users?start_from=2026-03-02&start_to=2026-03-01', undefined, ['start_from']],
    [
      'GET',
      '/subscriptions?sortDir=up&renew_from=soon&pageSize=500',
      undefined,
      ['pageSize', 'sortDir', 'renew_from'],
    ],
    [
      'GET',
      '/subscriptions?provider=paddle&provider_status=no-such',
      undefined,
      ['provider', 'provider_status'],
    ],
    ['GET', '/subscriptions/detail?provider=paddle&provider_id=1', undefined, ['provider']],
    ['GET', '/clickbank/orders?email=bob', undefined, ['email']],
    ['GET', '/clickbank/orders', undefined, ['email']],
    ['GET', '/maintenance/run-expiration?dryRun=no', undefined, ['dryRun']],
    ['POST', '/maintenance/run-expiration', { dryRun: 'yes' }, ['dryRun']],
    ['POST', '/users/actions/revoke_on_date', { email: 'x', date: 'later' }, ['email', 'date']],
    ['POST', '/subscriptions/grant', { mail: 'ada@example.com' }, ['email']],
  ])('%s %s %j → 400 with issues at %j', async (method, path, body, paths) => {
    const before = await snapshot(db);
    const res = await call(app, method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(typeof res.body.message).toBe('string');
    const issues = res.body.issues as { path: string; message: string }[];
    expect(issues.map((i) => i.path)).toEqual(paths);
    for (const i of issues) expect(res.body.message).toContain(i.message);
    expect(await snapshot(db)).toEqual(before);
  });
});
