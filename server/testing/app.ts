/**
 * Test harness for the feature routers: an in-memory database, pinned clock, silent logger and a
 * small Hono app that mounts routers and maps errors exactly as docs/api.md says (the production
 * server/app.ts does the same). Tests only; nothing here is imported by the server.
 */
import type { Db, Queryable, TransactionOptions } from '../db/types';
import { Hono } from 'hono';
import { pino } from 'pino';
import type { AppDeps, DiscourseConfig, ServerConfig } from '../context';
import { openTestDatabase } from './database';
import { invalidateStatsCache } from '../stats/cache';
import { ApiError } from '../errors';
import type { RouteFactory } from '../routes/registry';
import type { AdminSession, AuthEnv } from '../auth/session';

/** A minimal ServerConfig for tests: no providers, no Discourse unless given. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: 0,
    dataDir: 'memory',
    apiPrefix: '/api/admin',
    staticDir: 'dist',
    adminEmail: 'admin@example.com',
    adminPasswordHash: 'scrypt$16384$8$1$AAAA$AAAA',
    jwtSecret: new Uint8Array(32),
    sessionTtlS: 3600,
    reportingCurrency: 'USD',
    fxRates: { USD: 1 },
    seedCustomers: 0,
    seedValue: 1,
    discourse: null,
    lemonSqueezyApiKey: null,
    clickbankDeveloperKey: null,
    clickbankClerkKey: null,
    ...overrides,
  };
}

/** Builds AppDeps around `db` with the clock pinned to `now` (UTC) and a silent logger. */
export function testDeps(db: Db, now: Date, overrides: Partial<ServerConfig> = {}): AppDeps {
  return {
    db,
    config: testConfig(overrides),
    log: pino({ level: 'silent' }),
    now: () => new Date(now.getTime()),
  };
}

/**
 * Opens a fresh migrated database (share one per file; an in-memory PGlite takes seconds to
 * start): see openTestDatabase.
 */
export function freshDb(): Promise<Db> {
  return openTestDatabase();
}

/**
 * `db` reporting what runs on it: `on.query` gets every statement's SQL (inside a transaction
 * too), `on.transaction` every transaction's options. Everything else is `db`'s own.
 */
export function spyDb(
  db: Db,
  on: { query?: (sql: string) => void; transaction?: (options?: TransactionOptions) => void },
): Db {
  const spied = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      on.query?.(sql);
      return q.query(sql, params);
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    ...spied(db),
    kind: db.kind,
    transaction: (fn, options) => {
      on.transaction?.(options);
      return db.transaction((tx) => fn({ ...tx, ...spied(tx) }), options);
    },
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    close: () => db.close(),
  };
}

/** Deletes every row of the feature tables (between tests sharing one database) and restarts ids. */
export async function resetDb(db: Db): Promise<void> {
  await db.exec(`TRUNCATE logs, isr_events, clickbank_orders, subscription_events, members, subscriptions, customers, live_events, forum_outbox, webhook_dedup, webhook_deliveries, admin_sessions,
    operator_recovery_codes, operator_invites, operators, console_settings
    RESTART IDENTITY CASCADE`);
  await invalidateStatsCache({ db });
}

/** The session testApp's calls run under: the owner "Admin" (operator 1). */
export const TEST_OWNER_SESSION: AdminSession = {
  operatorId: 1,
  email: 'admin@example.com',
  name: 'Admin',
  role: 'owner',
  totpEnabled: false,
  mustEnrolTotp: false,
  sid: 'test-session-id-test-session-id',
};

/**
 * A Hono app mounting `factories` (each built from `deps`) at '/', with docs/api.md errors:
 * ApiError → {error: code, message, ...extra} with its status; unknown route → 404 not_found;
 * anything else → 500 internal.
 */
export function testApp(deps: AppDeps, factories: RouteFactory[]): Hono {
  const app = new Hono<AuthEnv>();
  // The routers run behind authentication in the app; here every call is the bootstrap owner's.
  app.use('*', async (c, next) => {
    // A test that set its own operator in front keeps it.
    if (!c.get('admin')) c.set('admin', TEST_OWNER_SESSION);
    await next();
  });
  for (const f of factories) app.route('/', f(deps));
  app.notFound((c) =>
    c.json({ error: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  );
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json({ error: err.code, message: err.message, ...err.extra }, err.status as 400);
    }
    deps.log.error({ err }, 'unhandled');
    return c.json({ error: 'internal', message: 'Internal server error' }, 500);
  });
  return app as unknown as Hono;
}

/** Sends a JSON request to `app` → {status, body (parsed JSON)}. */
export async function call(
  app: Hono,
  method: string,
  path: string,
  body?: unknown,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
): Promise<{ status: number; body: any }> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await app.request(path, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

/** Counts rows of `table` (one of the schema's tables). */
export async function countRows(db: Db, table: string): Promise<number> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return r.rows[0]?.n ?? 0;
}

/** A Discourse configuration pointing at a local fake server. */
export function discourseConfig(
  baseUrl: string,
  overrides: Partial<DiscourseConfig> = {},
): DiscourseConfig {
  return {
    baseUrl,
    apiKey: 'test-key',
    apiUsername: 'system',
    groupId: 42,
    timeoutMs: 2000,
    ...overrides,
  };
}
