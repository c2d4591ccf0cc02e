/**
 * The role × route matrix: every API route the app serves is called by every role and by a
 * caller with no session, and each answer is asserted against the least role the route needs
 * (docs/api.md "Roles"). A route missing from ROUTE_ROLES fails the test, so a new route cannot
 * ship without a decision about who may call it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { freshDb, resetDb } from '../testing/app';
import { makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';
import { NOW, seedScenario } from '../testing/scenario';
import { hasRole, ROLES, type Role } from './roles';

/** The least role each route needs; 'public' routes answer without a session. */
const ROUTE_ROLES: Record<string, Role | 'public'> = {
  'POST /auth/login': 'public',
  'POST /auth/logout': 'public',
  'POST /logout': 'public',
  'GET /auth/whoami': 'public',
  'POST /auth/invite/check': 'public',
  'POST /auth/invite/accept': 'public',
  'GET /health': 'public',
  'GET /health/db': 'public',
  'GET /events/stream': 'viewer',
  'GET /stats': 'viewer',
  'GET /status': 'viewer',
  'GET /users': 'viewer',
  'POST /users/actions/:action': 'support',
  'GET /subscriptions': 'viewer',
  'GET /subscriptions/detail': 'viewer',
  'POST /subscriptions/refresh': 'support',
  'POST /subscriptions/grant': 'support',
  'POST /subscriptions/revoke-now': 'support',
  'POST /subscriptions/revoke-deferred': 'support',
  'POST /subscriptions/revoke-on-date': 'support',
  'GET /clickbank/orders': 'viewer',
  'GET /maintenance/run-expiration': 'admin',
  'POST /maintenance/run-expiration': 'admin',
  'POST /maintenance/enforce-now': 'support',
  'POST /maintenance/reconcile': 'admin',
  'GET /maintenance/diag': 'admin',
  'GET /maintenance/ping-discourse': 'admin',
  'GET /maintenance/ping-lemonsqueezy': 'admin',
  'GET /maintenance/ping-clickbank': 'admin',
  'GET /metrics/overview': 'viewer',
  'GET /metrics/revenue': 'viewer',
  'GET /metrics/revenue/movements/:date': 'viewer',
  'GET /metrics/cohorts': 'viewer',
  'GET /isr-metrics/summary': 'viewer',
  'GET /isr-metrics/daily': 'viewer',
  'GET /isr-metrics/affiliates': 'viewer',
  'GET /isr-events': 'viewer',
  'GET /logs': 'viewer',
  'GET /audit': 'viewer',
  'GET /webhook-deliveries': 'viewer',
  'GET /webhook-deliveries/:id': 'viewer',
  'POST /webhook-deliveries/:id/replay': 'admin',
  'GET /customers/:email': 'viewer',
  'GET /customers/:email/timeline': 'viewer',
  'POST /customers/:email/forum-jobs/:id/retry': 'support',
  'GET /search': 'viewer',
  'GET /operators': 'owner',
  'POST /operators': 'owner',
  'PATCH /operators/:id': 'owner',
  'PUT /auth/policy': 'owner',
  'POST /auth/password': 'viewer',
  'GET /auth/sessions': 'viewer',
  'DELETE /auth/sessions/:id': 'viewer',
  'POST /auth/totp/setup': 'viewer',
  'POST /auth/totp/enable': 'viewer',
  'POST /auth/totp/disable': 'viewer',
};

const PARAMS: Record<string, string> = {
  ':action': 'grant',
  ':id': '1',
  ':date': '2026-11-01',
  ':email': 'ada@example.com',
};

let db: Db;
let config: ServerConfig;
const clock = { now: NOW };
const PREFIX = '/api/admin';

beforeAll(async () => {
  db = await freshDb();
  config = await makeTestConfig();
  await resetDb(db);
  await seedScenario(db);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

/** The API routes the app serves, as 'METHOD /path' relative to the prefix. */
function servedRoutes(): string[] {
  const app = createApp(makeTestDeps(db, config, clock));
  const found = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || !r.path.startsWith(`${PREFIX}/`) || r.path.includes('*')) continue;
    found.add(`${r.method} ${r.path.slice(PREFIX.length)}`);
  }
  return [...found].sort();
}

/** Calls `route` as `caller` (a role, or null for no session) → the status. */
async function call(
  route: string,
  caller: Role | null,
): Promise<{ status: number; code?: string }> {
  const app = createApp(makeTestDeps(db, config, clock));
  const [method = 'GET', template = '/'] = route.split(' ');
  const path = template.replace(/:[a-z]+/g, (p) => PARAMS[p] ?? '1');
  const headers: Record<string, string> = {};
  if (caller) {
    headers.authorization = `Bearer ${await testSessionToken(db, config, clock.now, `${caller}@team.example`, caller)}`;
  }
  const init: RequestInit = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    headers['content-type'] = 'application/json';
    init.body = '{}';
  }
  const aborter = new AbortController();
  init.signal = aborter.signal;
  const res = await app.request(`${PREFIX}${path}`, init);
  let code: string | undefined;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) {
    code = ((await res.json()) as { code?: string }).code;
  } else {
    // The event stream never ends by itself: its status and headers are the answer.
    aborter.abort();
    await res.body?.cancel().catch(() => undefined);
  }
  return { status: res.status, code };
}

describe('role × route matrix', () => {
  it('every served API route has a least role, and every listed route is served', () => {
    const served = servedRoutes();
    expect(served.filter((r) => !(r in ROUTE_ROLES))).toEqual([]);
    expect(Object.keys(ROUTE_ROLES).filter((r) => !served.includes(r))).toEqual([]);
  });

  it.each(Object.entries(ROUTE_ROLES))('%s needs %s', async (route, least) => {
    const none = await call(route, null);
    if (least === 'public') expect(none.status).not.toBe(403);
    else {
      expect(none.status).toBe(401);
      expect(none.code).toBe('NO_TOKEN');
    }
    for (const role of ROLES) {
      const got = await call(route, role);
      if (least !== 'public' && !hasRole(role, least)) {
        expect({ role, status: got.status, code: got.code }).toEqual({
          role,
          status: 403,
          code: 'FORBIDDEN',
        });
      } else {
        expect({ role, status: got.status }).not.toMatchObject({ status: 401 });
        expect({ role, status: got.status }).not.toMatchObject({ status: 403 });
        expect(got.status).toBeLessThan(500);
      }
    }
  });
});
