/**
 * Hostile values at the validation boundary, route by route, through the whole app (auth, body
 * guards, error mapping): a NUL or another control character in a text filter or body string, a
 * prototype key as a vocabulary word, and a date outside 1970–2100 are each a 400 naming the field
 * (or, for a vocabulary word, an empty result), never a 500; and nothing is written.
 * server/security/fuzz.hostile.test.ts throws the same classes at every route at random.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { flushDbLogs } from '../logging';
import { freshDb } from '../testing/app';
import { makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';
import { NOW, seedScenario, snapshot } from '../testing/scenario';

let db: Db;
let config: ServerConfig;
let app: Hono;
let token: string;

beforeAll(async () => {
  db = await freshDb();
  await seedScenario(db);
  config = await makeTestConfig();
  app = createApp(makeTestDeps(db, config, { now: NOW }));
  token = await testSessionToken(db, config, NOW);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

/** A parsed answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; body: any };

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await app.request(`${config.apiPrefix}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

/** Asserts a 400 whose issues (or message) name `field`. */
function expectFieldRefused(res: Answer, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toBe('bad_request');
  const paths = ((res.body.issues ?? []) as { path: string }[]).map((i) => i.path);
  expect(paths.includes(field) || String(res.body.message).startsWith(field)).toBe(true);
}

const TEXT_FILTERS: [string, string][] = [
  ['/users', 'email'],
  ['/users', 'provider_id'],
  ['/subscriptions', 'email'],
  ['/subscriptions', 'provider_id'],
  ['/isr-events', 'source'],
  ['/isr-events', 'affiliate'],
  ['/isr-events', 'subid'],
  ['/isr-events', 'receipt'],
  ['/isr-events', 'order_id'],
  ['/isr-events', 'q'],
  ['/logs', 'q'],
  ['/metrics/overview', 'plan'],
  ['/metrics/overview', 'source'],
];

describe('control characters in text filters', () => {
  it.each(TEXT_FILTERS)('GET %s?%s=a<NUL>b → 400 naming the field', async (path, field) => {
    expectFieldRefused(await send('GET', `${path}?${field}=a%00b`), field);
  });

  it.each(TEXT_FILTERS)('GET %s?%s=<ESC>[2J → 400 naming the field', async (path, field) => {
    expectFieldRefused(await send('GET', `${path}?${field}=%1B%5B2J`), field);
  });

  it.each([
    ['/users', 'row_id'],
    ['/users', 'start_from'],
    ['/users', 'sort'],
    ['/subscriptions', 'renew_to'],
    ['/subscriptions', 'sortKey'],
    ['/isr-events', 'time_from'],
    ['/isr-metrics/summary', 'from'],
    ['/metrics/overview', 'to'],
    ['/subscriptions/detail', 'provider_id'],
    ['/clickbank/orders', 'email'],
  ])('GET %s?%s with a NUL → 400 naming the field', async (path, field) => {
    expectFieldRefused(await send('GET', `${path}?${field}=2026-01-01%00`), field);
  });

  it('a log search may hold a tab (free text allows it); a NUL beside it is still refused', async () => {
    expect((await send('GET', '/logs?q=a%09b')).status).toBe(200);
    expectFieldRefused(await send('GET', '/logs?q=a%09%00b'), 'q');
  });
});

describe('prototype keys as vocabulary words', () => {
  it.each([
    ['/users', '__proto__'],
    ['/users', 'constructor'],
    ['/users', 'prototype'],
    ['/users', 'hasownproperty'],
    ['/subscriptions', '__proto__'],
    ['/subscriptions', 'constructor'],
    ['/subscriptions', 'prototype'],
  ])('GET %s?provider_status=%s → an empty list', async (path, word) => {
    const res = await send('GET', `${path}?provider_status=${word}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(0);
    expect(res.body.rows).toEqual([]);
  });

  it.each([
    '/users?sort=__proto__',
    '/users?mg_status=constructor',
    '/subscriptions?sortKey=__proto__',
    '/metrics/overview?status=constructor',
    '/metrics/overview?type=__proto__',
    '/logs?level=prototype',
  ])('GET %s → 400', async (path) => {
    expect((await send('GET', path)).status).toBe(400);
  });
});

describe('dates outside 1970–2100', () => {
  it.each([
    ['/isr-events', 'time_to', '9999-12-31 23:59:59'],
    ['/isr-events', 'time_from', '9999-12-31 23:59:59'],
    ['/isr-events', 'time_to', '2101-01-01'],
    ['/isr-metrics/summary', 'from', '9999-12-31 23:59:59'],
    ['/isr-metrics/daily', 'from', '9999-12-31 23:59:59'],
    ['/isr-metrics/affiliates', 'from', '9999-12-31 23:59:59'],
    ['/isr-metrics/summary', 'to', '1969-12-31'],
    ['/users', 'start_from', '9999-12-31'],
    ['/users', 'exp_to', '9999-12-31 23:59:59'],
    ['/users', 'start_to', '0001-01-01'],
    ['/subscriptions', 'renew_from', '2101-01-01'],
    ['/subscriptions', 'start_to', '1969-12-31 23:59:59'],
    ['/metrics/overview', 'from', '2101-01-01'],
    ['/metrics/overview', 'to', '9999-12-31'],
  ])('GET %s?%s=%s → 400 naming the field', async (path, field, value) => {
    expectFieldRefused(await send('GET', `${path}?${field}=${encodeURIComponent(value)}`), field);
  });

  it.each([
    '/isr-events?time_from=1970-01-01&time_to=2100-12-31%2023:59:59',
    '/isr-metrics/summary?from=2100-12-01&to=2100-12-31',
    '/users?start_from=1970-01-01&exp_to=2100-12-31',
    '/subscriptions?renew_to=2100-12-31%2023:59:59',
  ])('GET %s (the edges of the range) → 200', async (path) => {
    expect((await send('GET', path)).status).toBe(200);
  });
});

const ACTIONS: [string, Record<string, string>][] = [
  ['/users/actions/grant', {}],
  ['/users/actions/grant_on_date', { until: '2027-01-01 00:00:00' }],
  ['/users/actions/revoke_now', {}],
  ['/users/actions/revoke_deferred', {}],
  ['/users/actions/revoke_on_date', { date: '2027-01-01 00:00:00' }],
  ['/subscriptions/grant', {}],
  ['/subscriptions/revoke-now', {}],
  ['/subscriptions/revoke-deferred', {}],
  ['/subscriptions/revoke-on-date', { date: '2027-01-01 00:00:00' }],
  ['/maintenance/enforce-now', {}],
];

describe('hostile strings in JSON bodies', () => {
  it.each(ACTIONS)('POST %s {email: "a<NUL>b@…"} → 400 naming email', async (path, rest) => {
    const before = await snapshot(db);
    expectFieldRefused(
      await send('POST', path, { email: 'a\u0000b@example.com', ...rest }),
      'email',
    );
    expectFieldRefused(
      await send('POST', path, { email: 'ada@example.com\u0007', ...rest }),
      'email',
    );
    expect(await snapshot(db)).toEqual(before);
  });

  it.each([
    ['/users/actions/grant_on_date', 'until'],
    ['/users/actions/revoke_on_date', 'date'],
    ['/subscriptions/revoke-on-date', 'date'],
  ])(
    'POST %s with %s far out, before 1970 or holding a NUL → 400 naming it',
    async (path, field) => {
      const before = await snapshot(db);
      for (const value of [
        '9999-12-31 23:59:59',
        '1969-12-31 23:59:59',
        '2027-01-01\u000000:00:00',
      ]) {
        expectFieldRefused(
          await send('POST', path, { email: 'ada@example.com', [field]: value }),
          field,
        );
      }
      expect(await snapshot(db)).toEqual(before);
    },
  );

  it('a body made of prototype keys is refused, not merged into anything', async () => {
    const before = await snapshot(db);
    for (const path of [
      '/users/actions/grant',
      '/subscriptions/grant',
      '/maintenance/enforce-now',
    ]) {
      const res = await send(
        'POST',
        path,
        '{"__proto__":{"email":"ada@example.com"},"constructor":{"prototype":{"email":"x"}}}',
      );
      expectFieldRefused(res, 'email');
    }
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('no answer above is a logged server error', () => {
  it('the logs table holds no error row', async () => {
    await flushDbLogs(db);
    const r = await db.query<{ msg: string }>("SELECT msg FROM logs WHERE level = 'error'");
    expect(r.rows).toEqual([]);
  });
});
