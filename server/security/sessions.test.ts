/**
 * Security suite, sessions and CSRF: logout revokes (bearer and
 * cookie, on every instance over the database); a password change ends every session; a tampered
 * `sub` is refused; the idle time-out holds; cross-site unsafe requests and cookie-only POSTs are
 * refused with nothing applied; authentication comes before body parsing; HSTS is configurable.
 */
import { SignJWT } from 'jose';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { hashPassword } from '../auth/password';
import { authenticateToken } from '../auth/session';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { flushDbLogs } from '../logging';
import { freshDb, resetDb } from '../testing/app';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import {
  makeTestConfig,
  makeTestDeps,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
  testSessionToken,
} from '../testing/deps';

let db: Db;
let config: ServerConfig;
const clock = { now: NOW };

beforeAll(async () => {
  db = await freshDb();
  config = await makeTestConfig();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  clock.now = NOW;
  await flushDbLogs(db);
  await resetDb(db);
  await seedScenario(db);
});

const app = (cfg: ServerConfig = config) => createApp(makeTestDeps(db, cfg, clock));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function signIn(a: Hono): Promise<{ token: string; cookie: string }> {
  const res = await a.request('/api/admin/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { token: string }).token;
  const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  return { token, cookie };
}

const who = (a: Hono, headers: Record<string, string>) =>
  a.request('/api/admin/auth/whoami', { headers });

describe('logout revokes', () => {
  it('a bearer token no longer reads anything after POST /auth/logout', async () => {
    const a = app();
    const { token } = await signIn(a);
    expect((await a.request('/api/admin/users', { headers: bearer(token) })).status).toBe(200);
    const out = await a.request('/api/admin/auth/logout', {
      method: 'POST',
      headers: bearer(token),
    });
    expect(out.status).toBe(200);
    const after = await a.request('/api/admin/users', { headers: bearer(token) });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'INVALID_JWT' });
  });

  it('logout by cookie revokes the token for the stream and for bearer use', async () => {
    const a = app();
    const { token, cookie } = await signIn(a);
    expect((await a.request('/api/admin/events/stream', { headers: { cookie } })).status).not.toBe(
      401,
    );
    expect(
      (await a.request('/api/admin/logout', { method: 'POST', headers: { cookie } })).status,
    ).toBe(200);
    expect((await a.request('/api/admin/events/stream', { headers: { cookie } })).status).toBe(401);
    expect((await who(a, bearer(token))).status).toBe(401);
  });

  it('a revocation on one instance holds on another over the same database', async () => {
    const first = app();
    const second = app();
    const { token } = await signIn(first);
    expect((await who(second, bearer(token))).status).toBe(200);
    await first.request('/api/admin/auth/logout', { method: 'POST', headers: bearer(token) });
    expect((await who(second, bearer(token))).status).toBe(401);
  });

  it('authenticateToken performs every check and names the session', async () => {
    const { token } = await signIn(app());
    const session = await authenticateToken({ db, config, now: () => clock.now }, token);
    expect(session).toEqual({
      operatorId: expect.any(Number),
      email: TEST_ADMIN_EMAIL,
      name: 'Admin',
      role: 'owner',
      totpEnabled: false,
      mustEnrolTotp: false,
      sid: expect.any(String),
    });
    await app().request('/api/admin/auth/logout', { method: 'POST', headers: bearer(token) });
    expect(await authenticateToken({ db, config, now: () => clock.now }, token)).toBeNull();
  });
});

describe('an ended session stays ended', () => {
  it('a password change ends the other sessions, and changing it back revives none', async () => {
    const a = app();
    const first = await signIn(a);
    const second = await signIn(a);
    const change = (token: string, current: string, next: string) =>
      a.request('/api/admin/auth/password', {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ current, next }),
      });
    const res = await change(first.token, TEST_ADMIN_PASSWORD, 'a quite new password B');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, sessions_ended: 1 });
    expect((await who(a, bearer(first.token))).status).toBe(200);
    expect((await who(a, bearer(second.token))).status).toBe(401);
    // Back to password A: the ended session stays ended.
    expect((await change(first.token, 'a quite new password B', TEST_ADMIN_PASSWORD)).status).toBe(
      200,
    );
    expect((await who(a, bearer(second.token))).status).toBe(401);
  });

  it('a server restarted with another configured password keeps the sessions (operators live in the database)', async () => {
    const { token } = await signIn(app());
    const changed = {
      ...config,
      adminPasswordHash: await hashPassword('a new password!', { N: 2 ** 12 }),
    };
    expect((await who(app(changed), bearer(token))).status).toBe(200);
  });
});

describe('token claims', () => {
  it('refuses a token whose sub is another operator, even correctly signed with a live sid', async () => {
    const { token } = await signIn(app());
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sid: string;
      iat: number;
      exp: number;
    };
    const forged = await new SignJWT({ sid: payload.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('999')
      .setIssuer('mg-admin-console')
      .setAudience('mg-admin-api')
      .setIssuedAt(payload.iat)
      .setExpirationTime(payload.exp)
      .sign(config.jwtSecret);
    expect((await who(app(), bearer(forged))).status).toBe(401);
    // Editing the payload without re-signing fails the signature.
    const [h, , sig] = token.split('.');
    const edited = Buffer.from(JSON.stringify({ ...payload, sub: 'mallory@example.com' })).toString(
      'base64url',
    );
    expect((await who(app(), bearer(`${h}.${edited}.${sig}`))).status).toBe(401);
  });

  it('refuses a correctly signed token whose sid has no session row', async () => {
    const iat = Math.floor(NOW.getTime() / 1000);
    const orphan = await new SignJWT({ sid: 'x'.repeat(43) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(TEST_ADMIN_EMAIL)
      .setIssuer('mg-admin-console')
      .setAudience('mg-admin-api')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(config.jwtSecret);
    expect((await who(app(), bearer(orphan))).status).toBe(401);
  });
});

describe('idle time-out (SESSION_IDLE_S, default 1800 s)', () => {
  it('ends a session idle longer than the limit; activity keeps it alive', async () => {
    const a = app();
    const { token } = await signIn(a);
    clock.now = new Date(NOW.getTime() + 1_700_000);
    expect((await who(a, bearer(token))).status).toBe(200); // refreshes last_seen_at
    clock.now = new Date(NOW.getTime() + 1_700_000 + 1_700_000);
    expect((await who(a, bearer(token))).status).toBe(200);
    clock.now = new Date(clock.now.getTime() + 1_800_001);
    const res = await who(a, bearer(token));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_JWT' });
  });

  it('writes last_seen_at at most once a minute', async () => {
    const a = app();
    const { token } = await signIn(a);
    const lastSeen = async () =>
      (await db.query<{ t: Date }>('SELECT last_seen_at AS t FROM admin_sessions')).rows[0]?.t;
    const start = await lastSeen();
    clock.now = new Date(NOW.getTime() + 30_000);
    await who(a, bearer(token));
    expect(await lastSeen()).toEqual(start);
    clock.now = new Date(NOW.getTime() + 61_000);
    await who(a, bearer(token));
    expect(new Date((await lastSeen()) ?? 0).toISOString()).toBe(clock.now.toISOString());
  });
});

describe('CSRF: cross-site unsafe requests and cookie-only POSTs', () => {
  const apply = JSON.stringify({ dryRun: false });
  /** POST run-expiration; `body` null = no body at all. */
  const runExpiration = (a: Hono, headers: Record<string, string>, body: string | null = apply) =>
    a.request('/api/admin/maintenance/run-expiration', {
      method: 'POST',
      headers: body === null ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === null ? {} : { body }),
    });

  it.each([
    ['Origin of another site', { origin: 'https://evil.example' }],
    ['Origin null', { origin: 'null' }],
    ['Origin on another port', { origin: 'http://localhost:9999' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s with 403 JSON and applies nothing', async (_label, extra) => {
    const a = app();
    const { token, cookie } = await signIn(a);
    await flushDbLogs(db);
    const before = await snapshot(db);
    const res = await runExpiration(a, { ...bearer(token), cookie, host: 'localhost', ...extra });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'forbidden',
      message: expect.stringMatching(/^Cross-site request refused/),
    });
    await flushDbLogs(db);
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a cookie-only POST (401) and a body-less POST (400), applying nothing', async () => {
    const a = app();
    const { token, cookie } = await signIn(a);
    await flushDbLogs(db);
    const before = await snapshot(db);
    const cookieOnly = await runExpiration(a, { cookie });
    expect(cookieOnly.status).toBe(401);
    const bodyless = await runExpiration(a, { ...bearer(token) }, null);
    expect(bodyless.status).toBe(400);
    await flushDbLogs(db);
    expect(await snapshot(db)).toEqual(before);
  });

  it('lets a same-origin request through (the control: it does apply)', async () => {
    const a = app();
    const { token } = await signIn(a);
    await flushDbLogs(db);
    const before = await snapshot(db);
    const res = await runExpiration(a, {
      ...bearer(token),
      host: 'console.example.com',
      origin: 'https://console.example.com',
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(200);
    expect(await snapshot(db)).not.toEqual(before);
  });

  it('accepts X-Forwarded-Host as the host only behind trusted proxies', async () => {
    const behindProxy = app({ ...config, trustedProxyHops: 1 });
    const { token } = await signIn(behindProxy);
    const headers = {
      ...bearer(token),
      host: '127.0.0.1:8080',
      'x-forwarded-host': 'console.example.com',
      origin: 'https://console.example.com',
    };
    const dry = JSON.stringify({ dryRun: true });
    expect((await runExpiration(behindProxy, headers, dry)).status).toBe(200);
    expect((await runExpiration(app(), headers, dry)).status).toBe(403);
  });

  it('refuses a cross-site sign-in too, and leaves safe methods alone', async () => {
    const a = app();
    const login = await a.request('/api/admin/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(403);
    const token = await testSessionToken(db, config, NOW);
    const read = await a.request('/api/admin/users', {
      headers: { ...bearer(token), origin: 'https://evil.example' },
    });
    expect(read.status).toBe(200);
  });
});

describe('authenticate before parsing bodies', () => {
  it('an unauthenticated huge or malformed body gets 401, not 400/413', async () => {
    const a = app();
    const huge = await a.request('/api/admin/maintenance/run-expiration', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(401);
    const malformed = await a.request('/api/admin/maintenance/enforce-now', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{not json',
    });
    expect(malformed.status).toBe(401);
  });

  it('a signed-in oversized body still answers 413', async () => {
    const a = app();
    const token = await testSessionToken(db, config, NOW);
    const huge = await a.request('/api/admin/maintenance/run-expiration', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
  });
});

describe('HSTS (HSTS_MAX_AGE)', () => {
  it('sends Strict-Transport-Security only when configured', async () => {
    const off = await app().request('/api/admin/health');
    expect(off.headers.get('strict-transport-security')).toBeNull();
    const on = await app({ ...config, hstsMaxAge: 15_552_000 }).request('/api/admin/health');
    expect(on.headers.get('strict-transport-security')).toBe('max-age=15552000; includeSubDomains');
  });
});
