import type { Db } from './db/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';
import type { ServerConfig } from './context';
import { openTestDatabase } from './testing/database';
import {
  boundContext,
  flushDbLogs,
  LOG_CONTEXT_MAX,
  LOG_MSG_MAX,
  LOG_QUEUE_MAX,
  LOG_VALUE_MAX,
  logWriterStats,
  pruneLogs,
  writeDbLog,
} from './logging';
import { makeTestConfig, makeTestDeps, TEST_ADMIN_EMAIL } from './testing/deps';
import { createOncePerWindow } from './auth/routes';
import { pino } from 'pino';

/** Log hygiene: truncation, the bounded queue, retention and the sign-in rows. */
const T0 = new Date('2026-11-20T09:00:00.000Z');
let db: Db;
let config: ServerConfig;
const clock = { now: T0 };

beforeAll(async () => {
  db = await openTestDatabase();
  config = await makeTestConfig({ loginRateLimit: { maxAttempts: 2, windowS: 900 } });
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await flushDbLogs(db);
  await db.exec('TRUNCATE logs RESTART IDENTITY');
  clock.now = T0;
});

const deps = () => ({ db, log: pino({ level: 'silent' }), now: () => clock.now });
const rows = async () =>
  (
    await db.query<{ level: string; msg: string; context: Record<string, unknown> | null }>(
      'SELECT level, msg, context FROM logs ORDER BY id',
    )
  ).rows;

describe('writeDbLog', () => {
  it('truncates the message and every caller-controlled string, and bounds the context size', async () => {
    writeDbLog(deps(), 'error', 'x'.repeat(20_000), {
      path: '/'.repeat(16_000),
      nested: { deep: 'y'.repeat(5000) },
    });
    await flushDbLogs(db);
    const [row] = await rows();
    expect(row?.msg.length).toBe(LOG_MSG_MAX);
    expect(row?.msg.endsWith('…')).toBe(true);
    expect(String(row?.context?.path).length).toBe(LOG_VALUE_MAX);
    expect(JSON.stringify(row?.context).length).toBeLessThanOrEqual(LOG_CONTEXT_MAX);
  });

  it('replaces a context whose JSON is still too large by a truncated preview', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 32 }, (_, i) => [`k${i}`, 'v'.repeat(200)]),
    );
    const bounded = boundContext(wide);
    expect(bounded).toMatchObject({ truncated: true });
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(LOG_CONTEXT_MAX);
  });

  it('drops and counts rows beyond the bounded queue instead of growing', async () => {
    const before = logWriterStats(db);
    for (let i = 0; i < LOG_QUEUE_MAX + 250; i++) writeDbLog(deps(), 'info', `row ${i}`);
    const during = logWriterStats(db);
    expect(during.queued).toBeLessThanOrEqual(LOG_QUEUE_MAX);
    await flushDbLogs(db);
    const after = logWriterStats(db);
    expect(after.dropped - before.dropped).toBe(250);
    expect(after.written - before.written).toBe(LOG_QUEUE_MAX);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM logs')).rows[0]?.n).toBe(
      LOG_QUEUE_MAX,
    );
  });
});

describe('pruneLogs', () => {
  it('deletes rows older than the retention, then the oldest rows beyond the cap', async () => {
    await db.query(
      `INSERT INTO logs (ts, level, msg) SELECT $1::timestamptz - (i || ' days')::interval, 'info', 'day ' || i
         FROM generate_series(0, 39) AS s(i)`,
      [T0.toISOString()],
    );
    const r = await pruneLogs(db, T0, 30, 1000);
    expect(r).toEqual({ expired: 9, overCap: 0 });
    const capped = await pruneLogs(db, T0, 30, 10);
    expect(capped.overCap).toBe(21);
    const left = (
      await db.query<{ msg: string }>('SELECT msg FROM logs ORDER BY ts DESC')
    ).rows.map((x) => x.msg);
    expect(left).toHaveLength(10);
    expect(left[0]).toBe('day 0');
    // The per-level counts that GET /logs totals read follow the deletes.
    expect(
      (await db.query<{ n: string }>('SELECT sum(n) AS n FROM logs_level_counts')).rows[0]?.n,
    ).toBe('10');
  });
});

describe('sign-in rows', () => {
  const login = (a: ReturnType<typeof createApp>, email: string, address = '198.51.100.7') =>
    a.request(
      '/api/admin/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'wrong-password' }),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );

  it('never writes the text typed into a failed sign-in email field', async () => {
    const a = createApp(makeTestDeps(db, config, clock));
    const res = await login(a, 'pasted-my-Secret-Passw0rd-here');
    expect(res.status).toBe(401);
    await flushDbLogs(db);
    const all = await rows();
    expect(all.map((r) => r.msg)).toContain('Admin sign-in failed');
    expect(JSON.stringify(all)).not.toContain('pasted-my-Secret-Passw0rd-here');
    expect(all.find((r) => r.msg === 'Admin sign-in failed')?.context).toEqual({
      code: 'INCORRECT_USER',
      ip: '198.51.100.7',
    });
    expect(TEST_ADMIN_EMAIL).toBeTruthy();
  });

  it('writes at most one rate-limit row per client address per window', async () => {
    const a = createApp(makeTestDeps(db, config, clock));
    for (let i = 0; i < 12; i++) await login(a, 'someone@example.com', '203.0.113.9');
    await login(a, 'someone@example.com', '203.0.113.10');
    await flushDbLogs(db);
    let limited = (await rows()).filter((r) => r.msg === 'Sign-in rate limit hit');
    expect(limited.map((r) => r.context?.ip)).toEqual(['203.0.113.9']);
    // The next window may log again.
    clock.now = new Date(T0.getTime() + 901_000);
    for (let i = 0; i < 3; i++) await login(a, 'someone@example.com', '203.0.113.9');
    await flushDbLogs(db);
    limited = (await rows()).filter((r) => r.msg === 'Sign-in rate limit hit');
    expect(limited).toHaveLength(2);
  });

  it('createOncePerWindow forgets keys after the window and stays bounded', () => {
    const once = createOncePerWindow(1000, 3);
    expect(once.claim('a', 0)).toBe(true);
    expect(once.claim('a', 999)).toBe(false);
    expect(once.claim('a', 1000)).toBe(true);
    once.claim('b', 1000);
    once.claim('c', 1000);
    expect(once.claim('d', 1500)).toBe(false);
    expect(once.size()).toBe(3);
    expect(once.claim('d', 2100)).toBe(true);
  });
});
