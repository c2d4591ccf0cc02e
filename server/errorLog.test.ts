/**
 * What a 500 leaves behind. The process log line names the route, the request id and the error
 * class and keeps the stack, but the customer data a failing query carries (its parameters, an
 * email quoted in the database's message, the detail's row values) appears only redacted; the
 * `logs` row says the same. The answer carries the request id, so an operator can quote it.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import type { ServerConfig } from './context';
import type { Db } from './db/types';
import { createLogger, flushDbLogs } from './logging';
import { freshDb } from './testing/app';
import { makeTestConfig, testSessionToken } from './testing/deps';

const NOW = new Date('2026-11-20T12:00:00Z');
const EMAIL = 'ada.lovelace@example.com';
const NAME = 'Ada Lovelace';

let db: Db;
/** `db` as the app sees it (the log writer queues per Db object, so flushes go through this one). */
let appDb: Db;
let config: ServerConfig;
let app: Hono;
let token: string;
const lines: string[] = [];

/** `db`, except that the Users list query fails the way a real query on customer data does. */
function failingUsersList(real: Db): Db {
  const fail = () =>
    // A genuine driver error: the parameters ride on it, and the message quotes the email.
    real.query('SELECT $1::int AS n, $2::text AS name', [EMAIL, NAME]);
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'query') {
        return (sql: string, params?: unknown[]) =>
          sql.includes('FROM members m') ? fail() : target.query(sql, params);
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  db = await freshDb();
  config = await makeTestConfig();
  const log = createLogger('info', { write: (line: string) => void lines.push(line) });
  appDb = failingUsersList(db);
  app = createApp({ db: appDb, config, log, now: () => NOW });
  token = await testSessionToken(db, config, NOW);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('a 500', () => {
  it('answers the request id, and logs route, request id, error class and stack without customer data', async () => {
    const res = await app.request(`${config.apiPrefix}/users?page=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe('internal');
    expect(body.message).toBe('Internal server error');
    expect(typeof body.request_id).toBe('string');
    expect(String(body.request_id).length).toBeGreaterThan(8);
    expect(res.headers.get('x-request-id')).toBe(body.request_id);

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = entries.find((e) => e.level === 50 && e.request_id === body.request_id && e.err);
    expect(line, lines.join('\n')).toBeDefined();
    expect(line).toMatchObject({
      method: 'GET',
      path: `${config.apiPrefix}/users`,
      route: `${config.apiPrefix}/users`,
      error_class: 'DatabaseError',
    });
    const err = line?.err as Record<string, unknown>;
    expect(err.code).toBe('22P02');
    expect(String(err.stack)).toMatch(/\n\s+at /);
    // Frames keep their file paths (an npm scope's '@' is not an email).
    expect(String(err.stack)).toContain('node_modules');
    for (const l of lines) {
      expect(l).not.toContain(EMAIL);
      expect(l).not.toContain(NAME);
      expect(l).not.toContain('ada.lovelace');
    }

    await flushDbLogs(appDb);
    const rows = await db.query<{ msg: string; context: Record<string, unknown> }>(
      "SELECT msg, context FROM logs WHERE level = 'error'",
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]?.context).toMatchObject({
      request_id: body.request_id,
      route: `${config.apiPrefix}/users`,
      error: 'DatabaseError',
    });
    expect(JSON.stringify(rows.rows)).not.toContain(EMAIL);
    expect(JSON.stringify(rows.rows)).not.toContain(NAME);
  });

  it('every answer names its request id; a well-formed one from the caller is kept', async () => {
    const res = await app.request(`${config.apiPrefix}/health`, {
      headers: { 'x-request-id': 'proxy-abc-123' },
    });
    expect(res.headers.get('x-request-id')).toBe('proxy-abc-123');
    const other = await app.request(`${config.apiPrefix}/health`, {
      headers: { 'x-request-id': 'bad id; drop' },
    });
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
