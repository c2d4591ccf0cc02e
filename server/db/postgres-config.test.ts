/**
 * DATABASE_URL configuration and the answers of a PostgreSQL that cannot be reached. Needs no PostgreSQL server: the unreachable one is a closed local port.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp, isDatabaseDown } from '../app';
import { ConfigError, loadConfig, redactDatabaseUrl } from '../config';
import {
  makeTestConfig,
  makeTestDeps,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
} from '../testing/deps';
import { DatabaseClosedError, PgPoolDb } from './postgres';

/** A local TCP port nobody listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('DATABASE_URL and DATABASE_POOL_MAX', () => {
  it('default to PGlite (no URL) and a pool of 10', async () => {
    const config = await loadConfig({ DATA_DIR: 'memory' });
    expect(config.databaseUrl).toBeNull();
    expect(config.databasePoolMax).toBe(10);
  });

  it('read a postgres:// or postgresql:// URL and the pool size', async () => {
    const a = await loadConfig({
      DATA_DIR: 'memory',
      DATABASE_URL: ' postgres://mg:s3cret@db.internal:5432/mg ',
      DATABASE_POOL_MAX: '25',
    });
    expect(a).toMatchObject({
      databaseUrl: 'postgres://mg:s3cret@db.internal:5432/mg',
      databasePoolMax: 25,
    });
    const b = await loadConfig({ DATA_DIR: 'memory', DATABASE_URL: 'postgresql://h/db' });
    expect(b.databaseUrl).toBe('postgresql://h/db');
  });

  it.each(['mysql://u:hunter2@h/db', 'db.internal:5432', 'http://u:hunter2@h/db'])(
    'refuse %s without repeating it (it may hold a password)',
    async (url) => {
      const err = await loadConfig({ DATA_DIR: 'memory', DATABASE_URL: url }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect(err).toMatchObject({ variable: 'DATABASE_URL' });
      expect((err as Error).message).toMatch(/^DATABASE_URL must be a PostgreSQL URL/);
      expect((err as Error).message).not.toContain('hunter2');
    },
  );

  it.each(['1', '0', '1001', 'ten'])('refuse DATABASE_POOL_MAX=%s', async (n) => {
    await expect(loadConfig({ DATA_DIR: 'memory', DATABASE_POOL_MAX: n })).rejects.toMatchObject({
      variable: 'DATABASE_POOL_MAX',
    });
  });

  it('redact the password for logs', () => {
    expect(redactDatabaseUrl('postgres://mg:s3cret@db:5432/mg')).toBe(
      'postgres://mg:***@db:5432/mg',
    );
    expect(redactDatabaseUrl('postgres://db/mg')).toBe('postgres://db/mg');
    expect(redactDatabaseUrl('not a url')).not.toContain('not a url');
  });
});

describe('a PostgreSQL that cannot answer → 503 db_unavailable', () => {
  it.each([
    ['a closed Db', new DatabaseClosedError()],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    [
      'an administrator shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
    ],
    [
      'a server starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      'too many connections',
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a pool time-out', new Error('timeout exceeded when trying to connect')],
    [
      'several refused addresses',
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    ],
  ])('recognises %s', (_what, err) => {
    expect(isDatabaseDown(err)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain bug', new TypeError('x is undefined')],
  ])('does not take %s for an outage', (_what, err) => {
    expect(isDatabaseDown(err)).toBe(false);
  });

  it('answers 503 for a server that refuses connections, and for a closed pool', async () => {
    const config = await makeTestConfig();
    const refused = new PgPoolDb({
      connectionString: `postgres://mg@127.0.0.1:${await closedPort()}/mg`,
      connectionTimeoutMs: 2000,
    });
    const closed = new PgPoolDb({ connectionString: 'postgres://mg@127.0.0.1:1/mg' });
    await closed.close();
    try {
      for (const db of [refused, closed]) {
        const app = createApp(makeTestDeps(db, config, { now: new Date('2026-11-20T12:00:00Z') }));
        const res = await app.request(
          '/api/admin/auth/login',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
          },
          { incoming: { socket: { remoteAddress: '192.0.2.9' } } },
        );
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ error: 'db_unavailable' });
        const health = await app.request('/api/admin/health/db');
        expect(health.status).toBe(503);
      }
    } finally {
      await refused.close();
    }
  });
});
