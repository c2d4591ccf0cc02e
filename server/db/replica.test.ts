/**
 * DATABASE_REPLICA_URL on a real streaming replica: the throw-away cluster of
 * scripts/pg-test-cluster.sh runs one (TEST_DATABASE_REPLICA_URL), so `npm run test:server:pg`
 * always runs these; the PGlite-only unit run has no replica and skips them.
 *
 * The replica replays the whole cluster: the test database created on the primary appears on it
 * after replay. Pausing replay (pg_wal_replay_pause) makes the lag deterministic: while paused,
 * what a route reads tells which server answered it.
 */
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../main';
import { openTestDatabase, testDatabaseUrl } from '../testing/database';
import { makeTestConfig, testSessionToken } from '../testing/deps';
import { insertCustomer, insertMember } from '../testing/fixtures';
import type { Db } from './types';

const replicaClusterUrl = process.env.TEST_DATABASE_REPLICA_URL?.trim() ?? '';

/** `url` pointing at database `name` instead. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Polls `probe` every 100 ms until it resolves truthy (→ that value) or `timeoutMs` passes (throws). */
async function eventually<T>(what: string, probe: () => Promise<T>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

describe.runIf(replicaClusterUrl)('read replica (DATABASE_REPLICA_URL)', () => {
  let primary: Db;
  let server: RunningServer;
  let token: string;
  /** A superuser connection to the replica's maintenance database, for pausing replay. */
  let replicaAdmin: pg.Client;
  /** A plain connection to the test database on the replica, to look at replayed rows. */
  let replicaDirect: pg.Client;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/admin${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
    return { status: res.status, body: (await res.json()) as any };
  };
  const usersRow = async (email: string) => {
    const res = await api('GET', `/users?email=${encodeURIComponent(email)}`);
    expect(res.status).toBe(200);
    return (res.body.rows as { email: string; mg_status: string }[]).find((r) => r.email === email);
  };
  const pauseReplay = async () => {
    await replicaAdmin.query('SELECT pg_wal_replay_pause()');
    await eventually('replay to pause', async () => {
      const r = await replicaAdmin.query<{ s: string }>(
        'SELECT pg_get_wal_replay_pause_state() AS s',
      );
      return r.rows[0]?.s === 'paused';
    });
  };
  const resumeReplay = () => replicaAdmin.query('SELECT pg_wal_replay_resume()');

  beforeAll(async () => {
    primary = await openTestDatabase();
    const url = testDatabaseUrl(primary);
    if (!url) throw new Error('the replica tests need TEST_DATABASE_URL');
    const name = new URL(url).pathname.slice(1);
    const replicaUrl = withDatabase(replicaClusterUrl, name);
    replicaAdmin = new pg.Client({ connectionString: replicaClusterUrl });
    await replicaAdmin.connect();
    // The CREATE DATABASE of openTestDatabase reaches the replica after replay.
    replicaDirect = await eventually('the test database on the replica', async () => {
      const c = new pg.Client({ connectionString: replicaUrl });
      await c.connect();
      return c;
    });
    const config = await makeTestConfig({
      databaseUrl: url,
      databaseReplicaUrl: replicaUrl,
      expirationIntervalS: 0,
      reconcileIntervalS: 0,
      statsCacheS: 0,
    });
    server = await startServer(config, {
      log: pino({ level: 'silent' }),
      hostname: '127.0.0.1',
      seed: false,
    });
    token = await testSessionToken(primary, config, new Date());
  }, 60_000);

  afterAll(async () => {
    await resumeReplay().catch(() => undefined);
    await replicaDirect?.end().catch(() => undefined);
    await replicaAdmin?.end().catch(() => undefined);
    await server?.close();
    await primary?.close();
  });

  it('opens a second pool on the standby for reads that may lag', async () => {
    const { db, readDb } = server.deps;
    expect(readDb).toBeDefined();
    const standby = await readDb!.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    expect(standby.rows).toEqual([{ r: true }]);
    const main = await db.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
    expect(main.rows).toEqual([{ r: false }]);
  });

  it('serves the Users list from the replica and the customer page from the primary; the list catches up after replay', async () => {
    await pauseReplay();
    try {
      const id = await insertCustomer(primary, 'lag@example.com', 'Lag');
      await insertMember(primary, {
        customerId: id,
        subscriptionId: null,
        mgStatus: 'cancelled',
        updatedAt: '2026-01-01T00:00:00Z',
      });
      // The primary has the customer at once: the customer page reads it there.
      const page = await api('GET', '/customers/lag%40example.com');
      expect(page.status).toBe(200);
      // The list reads the paused replica, which has not replayed the insert.
      expect(await usersRow('lag@example.com')).toBeUndefined();
    } finally {
      await resumeReplay();
    }
    const row = await eventually('the replica to replay the insert', () =>
      usersRow('lag@example.com'),
    );
    expect(row).toMatchObject({ email: 'lag@example.com', mg_status: 'cancelled' });
  });

  it('runs a transaction with planner settings on the replica (a list steered through its trigram index)', async () => {
    // The Users and Subscriptions lists read an email fragment in a transaction with SET LOCAL
    // (server/db/list.ts): on the standby every transaction is read-only, and settings still apply.
    const { readDb } = server.deps;
    const seen = await readDb!.transaction(
      (tx) =>
        tx.query<{ ios: string; ro: string }>(
          `SELECT current_setting('enable_indexonlyscan') AS ios, current_setting('transaction_read_only') AS ro`,
        ),
      { settings: { enable_indexonlyscan: 'off' } },
    );
    expect(seen.rows).toEqual([{ ios: 'off', ro: 'on' }]);
  });

  it('writes an access action on the primary; the replica shows it once it has replayed it', async () => {
    const id = await insertCustomer(primary, 'act@example.com', 'Act');
    await insertMember(primary, {
      customerId: id,
      subscriptionId: null,
      mgStatus: 'cancelled',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    await eventually('the replica to have the customer', () => usersRow('act@example.com'));
    await pauseReplay();
    try {
      const granted = await api('POST', '/users/actions/grant', { email: 'act@example.com' });
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({ ok: true, mg_status: 'active' });
      const onPrimary = await primary.query<{ mg_status: string }>(
        'SELECT m.mg_status FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1',
        ['act@example.com'],
      );
      expect(onPrimary.rows).toEqual([{ mg_status: 'active' }]);
      const onReplica = await replicaDirect.query<{ mg_status: string }>(
        'SELECT m.mg_status FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1',
        ['act@example.com'],
      );
      expect(onReplica.rows).toEqual([{ mg_status: 'cancelled' }]);
      // Read-your-writes: the customer page (primary) shows the grant; the lagging list does not yet.
      const page = await api('GET', '/customers/act%40example.com');
      expect(JSON.stringify(page.body)).toContain('"mg_status":"active"');
      expect(await usersRow('act@example.com')).toMatchObject({ mg_status: 'cancelled' });
    } finally {
      await resumeReplay();
    }
    await eventually('the replica to replay the grant', async () => {
      return (await usersRow('act@example.com'))?.mg_status === 'active';
    });
  });
});
