/**
 * Statement time-outs per workload (server/db/workload.ts) and the 503 db_timeout answer. The
 * workload table, the settings and the answer to a cancelled statement need no PostgreSQL; the
 * time-outs themselves (PostgreSQL only: PGlite has none) run in `npm run test:server:pg`.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, isDatabaseDown, isDatabaseTimeout } from '../app';
import { loadConfig } from '../config';
import type { AppDeps } from '../context';
import { apiPathWorkload } from '../http/dbWorkload';
import { openTestDatabase, testDatabaseUrl } from '../testing/database';
import { makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';
import { PgPoolDb } from './postgres';
import type { Db } from './types';
import { DEFAULT_STATEMENT_TIMEOUTS, withDbWorkload, type DbWorkload } from './workload';

const NOW = new Date('2026-11-20T12:00:00Z');

/** A logger that keeps its JSON lines (warn and above) for the test to read. */
function capturingLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino(
    { level: 'warn' },
    { write: (s: string) => lines.push(JSON.parse(s) as { level: number; msg: string }) },
  );
  return { log, lines };
}

/** A statement cancelled by statement_timeout, as node-postgres reports it. */
function queryCanceled(): Error {
  return Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
  });
}

describe('the workload of an API path', () => {
  it.each<[string, DbWorkload]>([
    ['/users', 'request'],
    ['/customers/a%40b.c', 'request'],
    ['/search', 'request'],
    ['/users/actions/grant', 'request'],
    ['/isr-events', 'request'],
    ['/stats', 'metrics'],
    ['/status', 'metrics'],
    ['/metrics/overview', 'metrics'],
    ['/metrics/revenue/movements/2026-11-01', 'metrics'],
    ['/metrics/cohorts', 'metrics'],
    ['/isr-metrics/daily', 'metrics'],
    ['/maintenance/diag', 'metrics'],
    ['/maintenance/run-expiration', 'job'],
    ['/maintenance/reconcile', 'job'],
    ['/subscriptions/refresh', 'job'],
    ['/statsx', 'request'],
  ])('%s → %s', (path, workload) => {
    expect(apiPathWorkload(path)).toBe(workload);
  });
});

describe('DATABASE_*_TIMEOUT_MS and DATABASE_REPLICA_URL', () => {
  it('default to 5 s, 30 s, 10 min, an idle-in-transaction limit of 60 s and no replica', async () => {
    const config = await loadConfig({ DATA_DIR: 'memory' });
    expect(config.databaseStatementTimeouts).toEqual(DEFAULT_STATEMENT_TIMEOUTS);
    expect(config.databaseStatementTimeouts).toEqual({
      requestMs: 5000,
      metricsMs: 30_000,
      jobMs: 600_000,
    });
    expect(config.databaseIdleInTransactionTimeoutMs).toBe(60_000);
    expect(config.databaseReplicaUrl).toBeNull();
  });

  it('read each setting (0 = none)', async () => {
    const config = await loadConfig({
      DATA_DIR: 'memory',
      DATABASE_URL: 'postgres://mg@primary/mg',
      DATABASE_REPLICA_URL: 'postgres://mg:s3cret@replica/mg',
      DATABASE_REQUEST_TIMEOUT_MS: '2000',
      DATABASE_METRICS_TIMEOUT_MS: '60000',
      DATABASE_JOB_TIMEOUT_MS: '0',
      DATABASE_IDLE_TX_TIMEOUT_MS: '15000',
    });
    expect(config).toMatchObject({
      databaseReplicaUrl: 'postgres://mg:s3cret@replica/mg',
      databaseStatementTimeouts: { requestMs: 2000, metricsMs: 60_000, jobMs: 0 },
      databaseIdleInTransactionTimeoutMs: 15_000,
    });
  });

  it.each([
    ['DATABASE_REQUEST_TIMEOUT_MS', '5s'],
    ['DATABASE_METRICS_TIMEOUT_MS', '-1'],
    ['DATABASE_JOB_TIMEOUT_MS', '86400001'],
    ['DATABASE_IDLE_TX_TIMEOUT_MS', 'soon'],
  ])('refuse %s=%s', async (variable, value) => {
    await expect(loadConfig({ DATA_DIR: 'memory', [variable]: value })).rejects.toMatchObject({
      variable,
    });
  });

  it('refuse a replica without DATABASE_URL, and a replica URL that is not PostgreSQL (without repeating it)', async () => {
    await expect(
      loadConfig({ DATA_DIR: 'memory', DATABASE_REPLICA_URL: 'postgres://replica/mg' }),
    ).rejects.toMatchObject({ variable: 'DATABASE_REPLICA_URL' });
    const err = await loadConfig({
      DATA_DIR: 'memory',
      DATABASE_URL: 'postgres://primary/mg',
      DATABASE_REPLICA_URL: 'mysql://u:hunter2@replica/mg',
    }).catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ variable: 'DATABASE_REPLICA_URL' });
    expect((err as Error).message).not.toContain('hunter2');
  });
});

describe('a database time-out → 503 db_timeout', () => {
  it('recognises a cancelled statement and a pool with no free connection, and nothing else', () => {
    expect(isDatabaseTimeout(queryCanceled())).toBe(true);
    expect(isDatabaseTimeout(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseTimeout(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
    const recovery = 'canceling statement due to conflict with recovery';
    expect(isDatabaseTimeout(Object.assign(new Error(recovery), { code: '40001' }))).toBe(true);
    // A serialization failure on the primary is the caller's to retry, not a time-out.
    expect(
      isDatabaseTimeout(Object.assign(new Error('could not serialize access'), { code: '40001' })),
    ).toBe(false);
    expect(isDatabaseTimeout(new Error('Connection terminated unexpectedly'))).toBe(false);
    // A cancelled statement is not an outage.
    expect(isDatabaseDown(queryCanceled())).toBe(false);
  });

  describe('through the app', () => {
    let db: Db;
    beforeAll(async () => {
      db = await openTestDatabase();
    }, 60_000);
    afterAll(async () => {
      await db?.close();
    });

    it('answers 503 {error:"db_timeout", code:"DB_TIMEOUT"} with Retry-After, logged as a warning', async () => {
      const config = await makeTestConfig();
      const token = await testSessionToken(db, config, NOW);
      // The session checks pass; the list's own statement is cancelled.
      const cancelling: Db = Object.create(db) as Db;
      cancelling.query = ((sql: string, params?: unknown[]) =>
        /FROM members m/.test(sql)
          ? Promise.reject(queryCanceled())
          : db.query(sql, params)) as Db['query'];
      const { log, lines } = capturingLog();
      const deps: AppDeps = { ...makeTestDeps(cancelling, config, { now: NOW }), log };
      const res = await createApp(deps).request('/api/admin/users', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(await res.json()).toEqual({
        error: 'db_timeout',
        code: 'DB_TIMEOUT',
        message: 'The database took too long to answer. Try again in a few seconds.',
      });
      const line = lines.find((l) => l.msg === 'database statement timed out');
      expect(line?.level).toBe(40); // pino's warn
      expect(lines.some((l) => l.level >= 50)).toBe(false);
    });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('statement time-outs (PostgreSQL only)', () => {
  let db: Db;
  let timed: PgPoolDb;
  beforeAll(async () => {
    db = await openTestDatabase();
    const url = testDatabaseUrl(db);
    if (!url) throw new Error('expected a test database URL');
    timed = new PgPoolDb({
      connectionString: url,
      max: 3,
      statementTimeouts: { requestMs: 300, metricsMs: 20_000, jobMs: 600_000 },
      idleInTransactionTimeoutMs: 45_000,
      connectionTimeoutMs: 500,
    });
  }, 60_000);
  afterAll(async () => {
    await timed?.close();
    await db?.close();
  });

  const show = async (setting: string) =>
    (await timed.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]?.[setting];
  const showInTx = (setting: string) =>
    timed.transaction(
      async (tx) => (await tx.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]?.[setting],
    );

  it('gives every statement and transaction its workload time-out, and every connection the idle-in-transaction limit', async () => {
    for (let round = 0; round < 2; round++) {
      expect(await withDbWorkload('request', () => show('statement_timeout'))).toBe('300ms');
      expect(await withDbWorkload('metrics', () => show('statement_timeout'))).toBe('20s');
      expect(await show('statement_timeout')).toBe('10min'); // outside a request: a job
      expect(await withDbWorkload('unbounded', () => show('statement_timeout'))).toBe('0');
      expect(await withDbWorkload('request', () => showInTx('statement_timeout'))).toBe('300ms');
      expect(await withDbWorkload('metrics', () => showInTx('statement_timeout'))).toBe('20s');
      expect(await withDbWorkload('unbounded', () => showInTx('statement_timeout'))).toBe('0');
    }
    expect(await show('idle_in_transaction_session_timeout')).toBe('45s');
    expect(
      await withDbWorkload('unbounded', () => showInTx('idle_in_transaction_session_timeout')),
    ).toBe('0');
    // SET LOCAL ends with its transaction: the connection is back at its session value.
    expect(await withDbWorkload('request', () => show('statement_timeout'))).toBe('300ms');
  });

  it('cancels a statement over its time-out with 57014 and keeps the pool usable', async () => {
    const slow = withDbWorkload('request', () => timed.query('SELECT pg_sleep(2)'));
    await expect(slow).rejects.toMatchObject({ code: '57014' });
    await expect(
      withDbWorkload('request', () => timed.transaction((tx) => tx.query('SELECT pg_sleep(2)'))),
    ).rejects.toMatchObject({ code: '57014' });
    const ok = await withDbWorkload('metrics', () =>
      timed.query<{ ok: number }>('SELECT 1 AS ok FROM pg_sleep(0.5)'),
    );
    expect(ok.rows).toEqual([{ ok: 1 }]);
  });

  it('answers a list blocked past the request time-out with 503 db_timeout, logged as a warning', async () => {
    const config = await makeTestConfig();
    const token = await testSessionToken(timed, config, NOW);
    const { log, lines } = capturingLog();
    const app = createApp({ ...makeTestDeps(timed, config, { now: NOW }), log });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // Another session holds the members table: the list waits for the lock until cancelled.
    const holder = withDbWorkload('unbounded', () =>
      db.transaction(async (tx) => {
        await tx.exec('LOCK TABLE members IN ACCESS EXCLUSIVE MODE');
        locked();
        await held;
      }),
    );
    try {
      await isLocked;
      const started = Date.now();
      const res = await app.request('/api/admin/users', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(await res.json()).toMatchObject({ error: 'db_timeout', code: 'DB_TIMEOUT' });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(lines.find((l) => l.msg === 'database statement timed out')?.level).toBe(40);
    } finally {
      release();
      await holder;
    }
  });

  it('answers 503 db_timeout when no pool connection frees up in time', async () => {
    const config = await makeTestConfig();
    const token = await testSessionToken(timed, config, NOW);
    const app = createApp({
      ...makeTestDeps(timed, config, { now: NOW }),
      log: capturingLog().log,
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // Every connection of the pool (3) is busy in a transaction.
    const busy = Array.from({ length: 3 }, () => timed.transaction(() => held));
    try {
      await new Promise((r) => setTimeout(r, 100));
      const res = await app.request('/api/admin/users', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(await res.json()).toMatchObject({
        error: 'db_timeout',
        message: 'The database is busy. Try again in a few seconds.',
      });
    } finally {
      release();
      await Promise.all(busy);
    }
  });
});
