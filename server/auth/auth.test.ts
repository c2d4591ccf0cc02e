import type { Db } from '../db/types';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { ServerConfig } from '../context';
import { openTestDatabase } from '../testing/database';
import { flushDbLogs } from '../logging';
import {
  downDatabase,
  makeTestConfig,
  makeTestDeps,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
  testSessionToken,
} from '../testing/deps';
import { createSlidingWindowLimiter } from './rateLimit';

const T0 = new Date('2026-11-20T09:00:00.000Z');
const clientEnv = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

let db: Db;
let config: ServerConfig;
const clock = { now: T0 };

beforeAll(async () => {
  db = await openTestDatabase();
  config = await makeTestConfig();
}, 120_000);
afterAll(async () => {
  await db?.close();
});

function app(overrides: { config?: ServerConfig; db?: Db } = {}) {
  return createApp(makeTestDeps(overrides.db ?? db, overrides.config ?? config, clock));
}

function login(
  a: ReturnType<typeof app>,
  body: unknown,
  init: { url?: string; headers?: Record<string, string>; address?: string } = {},
) {
  return a.request(
    init.url ?? '/api/admin/auth/login',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    clientEnv(init.address ?? '192.0.2.1'),
  );
}

async function tokenFor(a: ReturnType<typeof app>): Promise<string> {
  const res = await login(a, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe('POST /auth/login (§8 login codes)', () => {
  it('signs in with the right credentials: exact body and the session cookie', async () => {
    const a = app();
    const res = await login(a, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ ok: true, code: 'OK', message: 'Signed in', token: expect.any(String) });
    expect(String(body.token).split('.')).toHaveLength(3);
    const cookies = res.headers.getSetCookie();
    // The session cookie, and the device cookie that keeps this browser known (server/auth/device.ts).
    expect(cookies).toHaveLength(2);
    expect(cookies[1]).toMatch(/^mg_admin_device=[^;]+;.*Path=\/api\/admin\/auth;.*HttpOnly/);
    const cookie = cookies[0] ?? '';
    expect(cookie).toMatch(
      new RegExp(`^mg_admin_session=${String(body.token).replace(/\./g, '\\.')};`),
    );
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/admin');
    expect(cookie).toContain('Max-Age=3600');
    expect(cookie).not.toContain('Secure');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await login(app(), {
      email: '  ADMIN@Example.COM ',
      password: TEST_ADMIN_PASSWORD,
    });
    expect(res.status).toBe(200);
  });

  it('marks the cookie Secure per COOKIE_SECURE, else only for an https URL (never per a header)', async () => {
    const creds = { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD };
    const direct = await login(app(), creds, {
      url: 'https://console.example.com/api/admin/auth/login',
    });
    expect(direct.headers.getSetCookie()[0]).toContain('Secure');
    // X-Forwarded-Proto is client-controlled: it no longer decides.
    const proxied = await login(app(), creds, { headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers.getSetCookie()[0]).not.toContain('Secure');
    const forcedOn = await login(app({ config: { ...config, cookieSecure: true } }), creds);
    expect(forcedOn.headers.getSetCookie()[0]).toContain('Secure');
    const forcedOff = await login(app({ config: { ...config, cookieSecure: false } }), creds, {
      url: 'https://console.example.com/api/admin/auth/login',
    });
    expect(forcedOff.headers.getSetCookie()[0]).not.toContain('Secure');
  });

  it('uses the configured API prefix as the cookie path', async () => {
    const custom = await makeTestConfig({ apiPrefix: '/backend/v2' });
    const res = await login(
      app({ config: custom }),
      { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
      {
        url: '/backend/v2/auth/login',
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toContain('Path=/backend/v2');
  });

  it('answers 401 INCORRECT_USER for an unknown email', async () => {
    const res = await login(app(), { email: 'someone@example.com', password: TEST_ADMIN_PASSWORD });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'unauthorized',
      ok: false,
      code: 'INCORRECT_USER',
      message: 'Incorrect user',
    });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers 401 INCORRECT_PASSWORD for a wrong password', async () => {
    const res = await login(app(), { email: TEST_ADMIN_EMAIL, password: 'wrong' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'unauthorized',
      ok: false,
      code: 'INCORRECT_PASSWORD',
      message: 'Incorrect password',
    });
  });

  it('answers 400 with issues when fields are missing or of the wrong type', async () => {
    const res = await login(app(), { email: TEST_ADMIN_EMAIL });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: string;
      message: string;
      issues: Array<{ path: string }>;
    };
    expect(body.error).toBe('bad_request');
    expect(body.message).toMatch(/password/);
    expect(body.issues.map((i) => i.path)).toContain('password');
    const wrongType = await login(app(), { email: 42, password: [] });
    expect(wrongType.status).toBe(400);
  });

  it('answers 400 for malformed JSON and for a non-JSON content type', async () => {
    const malformed = await login(app(), '{"email": "admin@example.com", ');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error: 'bad_request',
      message: expect.stringMatching(/^Malformed JSON body/),
    });
    const form = await app().request('/api/admin/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=admin%40example.com&password=x',
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({
      error: 'bad_request',
      message: 'Content-Type must be application/json, got "application/x-www-form-urlencoded"',
    });
  });

  it('answers 503 DB_UNAVAILABLE when the database is down', async () => {
    const res = await login(app({ db: downDatabase() }), {
      email: TEST_ADMIN_EMAIL,
      password: TEST_ADMIN_PASSWORD,
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'db_unavailable',
      ok: false,
      code: 'DB_UNAVAILABLE',
      message: 'Backend database is currently unavailable.',
    });
  });

  it('answers 503 EMPTY_DATABASE when the schema is missing', async () => {
    const uninitialised = {
      query: () => Promise.resolve({ rows: [{ ready: false }] }),
    } as unknown as Db;
    const res = await login(app({ db: uninitialised }), {
      email: TEST_ADMIN_EMAIL,
      password: TEST_ADMIN_PASSWORD,
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'empty_database',
      ok: false,
      code: 'EMPTY_DATABASE',
      message: 'The database is empty or not initialized.',
    });
  });

  it('writes sign-ins and failures to the logs table without passwords or tokens', async () => {
    const a = app();
    const token = await tokenFor(a);
    await login(a, { email: TEST_ADMIN_EMAIL, password: 'not-it-either' });
    await flushDbLogs(db);
    const rows = await db.query<{ level: string; msg: string; context: unknown }>(
      "SELECT level, msg, context FROM logs WHERE msg LIKE 'Admin sign%' ORDER BY id",
    );
    expect(rows.rows.some((r) => r.level === 'info' && r.msg === 'Admin signed in')).toBe(true);
    expect(rows.rows.some((r) => r.level === 'warn' && r.msg === 'Admin sign-in failed')).toBe(
      true,
    );
    const all = JSON.stringify((await db.query('SELECT msg, context FROM logs')).rows);
    expect(all).not.toContain(TEST_ADMIN_PASSWORD);
    expect(all).not.toContain('not-it-either');
    expect(all).not.toContain(token);
  });
});

describe('authentication middleware (CONTRACT.md: Bearer or cookie)', () => {
  it('answers 401 NO_TOKEN without credentials', async () => {
    const res = await app().request('/api/admin/stats');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'unauthorized',
      ok: false,
      code: 'NO_TOKEN',
      message: 'Please sign in.',
    });
    // Who-am-I without a token is the answer "not signed in", not an error (§2 Login asks it on
    // every load of the sign-in page); a bad token is still refused.
    const who = await app().request('/api/admin/auth/whoami');
    expect(who.status).toBe(200);
    expect(who.headers.get('cache-control')).toBe('no-store');
    expect(await who.json()).toEqual({ ok: false, user: null, code: 'NO_TOKEN' });
    const bad = await app().request('/api/admin/auth/whoami', {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ ok: false, code: 'INVALID_JWT' });
  });

  it('accepts the Bearer header', async () => {
    const a = app();
    const token = await tokenFor(a);
    const res = await a.request('/api/admin/auth/whoami', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      user: { email: TEST_ADMIN_EMAIL },
      operator: {
        id: expect.any(Number),
        email: TEST_ADMIN_EMAIL,
        name: 'Admin',
        role: 'owner',
        totp_enabled: false,
      },
      must_enrol_totp: false,
    });
    const stats = await a.request('/api/admin/stats', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stats.status).toBe(200);
  });

  it('accepts the session cookie only for the event stream (CSRF)', async () => {
    const a = app();
    const token = await tokenFor(a);
    const cookie = `other=1; mg_admin_session=${token}`;
    const who = await a.request('/api/admin/auth/whoami', { headers: { cookie } });
    expect(await who.json()).toMatchObject({ ok: false, code: 'NO_TOKEN' });
    expect((await a.request('/api/admin/stats', { headers: { cookie } })).status).toBe(401);
    // The stream route itself is another module's; here the cookie gets past authentication
    // (404 from the catch-all instead of 401) on GET only.
    const stream = await a.request('/api/admin/events/stream', { headers: { cookie } });
    expect(stream.status).not.toBe(401);
    expect((await a.request('/api/admin/events/stream')).status).toBe(401);
    const post = await a.request('/api/admin/events/stream', {
      method: 'POST',
      headers: { cookie },
    });
    expect(post.status).toBe(401);
  });

  it.each([
    ['garbled', 'not-a-jwt'],
    ['three garbage parts', 'aaa.bbb.ccc'],
    [
      'unsigned (alg none)',
      `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${btoa(JSON.stringify({ sub: TEST_ADMIN_EMAIL, exp: 4102444800 }))}.`,
    ],
  ])('answers 401 INVALID_JWT for a %s token', async (_label, token) => {
    const res = await app().request('/api/admin/stats', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'unauthorized',
      ok: false,
      code: 'INVALID_JWT',
      message: 'Your session has expired. Please sign in again.',
    });
  });

  it('answers 401 INVALID_JWT for a token signed with another secret', async () => {
    const forged = await new SignJWT({ email: TEST_ADMIN_EMAIL })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(TEST_ADMIN_EMAIL)
      .setIssuer('mg-admin-console')
      .setAudience('mg-admin-api')
      .setIssuedAt(Math.floor(T0.getTime() / 1000))
      .setExpirationTime(Math.floor(T0.getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    const res = await app().request('/api/admin/stats', {
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_JWT' });
  });

  it('answers 401 INVALID_JWT once the session has expired (exp = iat + SESSION_TTL_S)', async () => {
    // Idle time-out above the TTL here, so only the absolute expiry is tested.
    const long = { ...config, sessionIdleS: 7200 };
    const token = await testSessionToken(db, long, T0);
    const stillValid = createApp(
      makeTestDeps(db, long, { now: new Date(T0.getTime() + 3599_000) }),
    );
    expect(
      (
        await stillValid.request('/api/admin/stats', {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
    const expired = createApp(makeTestDeps(db, long, { now: new Date(T0.getTime() + 3601_000) }));
    const res = await expired.request('/api/admin/stats', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_JWT' });
  });

  it('answers 404 JSON for an unknown API path once signed in, 401 before', async () => {
    const a = app();
    const token = await tokenFor(a);
    const res = await a.request('/api/admin/no-such-thing', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
    expect((await a.request('/api/admin/no-such-thing')).status).toBe(401);
  });
});

describe('logout', () => {
  it.each(['/api/admin/auth/logout', '/api/admin/logout'])(
    '%s answers 200 {ok:true} and clears the cookie',
    async (path) => {
      const a = app();
      const token = await tokenFor(a);
      const res = await a.request(path, {
        method: 'POST',
        headers: { cookie: `mg_admin_session=${token}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      const cookie = res.headers.getSetCookie()[0] ?? '';
      expect(cookie).toMatch(/^mg_admin_session=;/);
      expect(cookie).toContain('Max-Age=0');
      expect(cookie).toContain('Path=/api/admin');
      expect(cookie).toContain('HttpOnly');
    },
  );

  it('answers 200 even without a session', async () => {
    const res = await app().request('/api/admin/auth/logout', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('sign-in rate limit (per client address, sliding window)', () => {
  it('answers 429 RATE_LIMITED with Retry-After after the limit, per address, until the window slides', async () => {
    const limited = await makeTestConfig({ loginRateLimit: { maxAttempts: 3, windowS: 60 } });
    const rateClock = { now: T0 };
    const a = createApp(makeTestDeps(db, limited, rateClock));
    const attempt = (password: string, address = '198.51.100.7') =>
      a.request(
        '/api/admin/auth/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password }),
        },
        clientEnv(address),
      );
    for (let i = 0; i < 3; i++) {
      rateClock.now = new Date(T0.getTime() + i * 10_000);
      expect((await attempt('wrong')).status).toBe(401);
    }
    rateClock.now = new Date(T0.getTime() + 25_000);
    const refused = await attempt(TEST_ADMIN_PASSWORD);
    expect(refused.status).toBe(429);
    // The oldest failure (t=0 s) leaves the 60 s window at t=60 s: 35 s from now.
    expect(refused.headers.get('retry-after')).toBe('35');
    expect(await refused.json()).toEqual({
      error: 'rate_limited',
      ok: false,
      code: 'RATE_LIMITED',
      message: 'Too many sign-in attempts. Try again in 35 seconds.',
      retry_after_s: 35,
    });
    expect((await attempt(TEST_ADMIN_PASSWORD, '198.51.100.8')).status).toBe(200);
    rateClock.now = new Date(T0.getTime() + 60_001);
    expect((await attempt(TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('does not count successful sign-ins', async () => {
    const limited = await makeTestConfig({ loginRateLimit: { maxAttempts: 2, windowS: 60 } });
    const a = createApp(makeTestDeps(db, limited, { now: T0 }));
    for (let i = 0; i < 4; i++)
      expect(
        (await login(a, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD })).status,
      ).toBe(200);
  });
});

describe('createSlidingWindowLimiter', () => {
  it('allows max attempts per window and computes the wait from the oldest counted attempt', () => {
    const limiter = createSlidingWindowLimiter(2, 1000);
    expect(limiter.check('a', 0)).toEqual({ allowed: true });
    limiter.record('a', 0);
    limiter.record('a', 400);
    expect(limiter.check('a', 500)).toEqual({ allowed: false, retryAfterS: 1 });
    expect(limiter.check('b', 500)).toEqual({ allowed: true });
    expect(limiter.check('a', 1000)).toEqual({ allowed: true });
    limiter.record('a', 1000);
    expect(limiter.check('a', 1001)).toEqual({ allowed: false, retryAfterS: 1 });
    expect(limiter.check('a', 2001)).toEqual({ allowed: true });
    expect(limiter.size()).toBe(0);
  });
});

describe('health (public)', () => {
  it('GET /health and /health/db answer without a token', async () => {
    const later = { now: T0 };
    const a = createApp(makeTestDeps(db, config, later));
    later.now = new Date(T0.getTime() + 90_500);
    const health = await a.request('/api/admin/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, version: '0.0.1', uptime_s: 90 });
    const dbHealth = await a.request('/api/admin/health/db');
    expect(await dbHealth.json()).toEqual({ ok: true });
  });

  it('GET /health/db answers 503 {ok:false} when the database is down', async () => {
    const res = await app({ db: downDatabase() }).request('/api/admin/health/db');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, error: 'db_unavailable' });
  });
});

describe('errors', () => {
  it('turns an unexpected throw into 500 JSON without internals and logs it to the logs table', async () => {
    const a = app();
    a.get('/boom', () => {
      throw new Error('secret internal detail');
    });
    const res = await a.request('/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: 'internal',
      message: 'Internal server error',
      request_id: res.headers.get('x-request-id'),
    });
    expect(text).not.toContain('secret');
    await flushDbLogs(db);
    const rows = await db.query<{ level: string; context: { path: string } }>(
      "SELECT level, context FROM logs WHERE msg = 'Unhandled server error'",
    );
    expect(rows.rows.at(-1)).toMatchObject({ level: 'error', context: { path: '/boom' } });
  });
});
