import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  checkBackend,
  fetchHealth,
  fetchHealthDb,
  fetchWhoAmI,
  login,
  logout,
} from '../../../src/api/auth';
import { onUnauthorized } from '../../../src/api/client';
import { getToken, setToken } from '../../../src/api/token';
import { LOGIN_MESSAGES, loginBannerKind } from '../../../src/domain/auth';
import type { LoginCode } from '../../../src/domain/types';
import {
  api,
  healthDbHandlers,
  healthHandlers,
  loginHandlers,
  logoutHandlers,
  whoamiHandlers,
} from '../../msw/handlers';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

describe('login (§7 POST /auth/login, §8 codes)', () => {
  it('posts {email, password}, stores the token and answers ok', async () => {
    server.use(loginHandlers.ok('jwt-1'));
    const result = await login({ email: 'admin@example.com', password: 'pw' });
    expect(result).toEqual({ ok: true, code: 'OK', message: 'Signed in', token: 'jwt-1' });
    expect(getToken()).toBe('jwt-1');
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url.pathname).toBe('/api/admin/auth/login');
    expect(JSON.parse(await seen[0]!.body)).toEqual({ email: 'admin@example.com', password: 'pw' });
  });

  const codes = Object.keys(LOGIN_MESSAGES) as LoginCode[];
  it.each(codes)('answers %s with its §8 message and no token', async (code) => {
    server.use(loginHandlers.code(code));
    const result = await login({ email: 'a', password: 'b' });
    expect(result).toEqual({ ok: false, code, message: LOGIN_MESSAGES[code], token: null });
    expect(getToken()).toBeNull();
  });

  it('DB_UNAVAILABLE is a notice, the other codes an error', () => {
    expect(loginBannerKind('DB_UNAVAILABLE')).toBe('notice');
    expect(loginBannerKind('INCORRECT_PASSWORD')).toBe('error');
    expect(loginBannerKind(null)).toBe('error');
  });

  it("shows the server's message for an unknown code (429 RATE_LIMITED)", async () => {
    server.use(loginHandlers.code('RATE_LIMITED', 'Too many attempts, wait a minute'));
    expect(await login({ email: 'a', password: 'b' })).toMatchObject({
      ok: false,
      code: 'RATE_LIMITED',
      message: 'Too many attempts, wait a minute',
    });
  });

  it("falls back to 'Login failed' for an answer without code or message", async () => {
    server.use(http.post(api('/auth/login'), () => HttpResponse.json({ ok: false })));
    expect(await login({ email: 'a', password: 'b' })).toMatchObject({
      ok: false,
      message: 'Login failed',
    });
    server.use(
      http.post(api('/auth/login'), () => HttpResponse.json({ ok: true, message: 'Signed in' })),
    );
    expect(await login({ email: 'a', password: 'b' })).toMatchObject({
      ok: false,
      message: 'Login failed',
      token: null,
    });
  });

  // §8 "The fallback is 'Login failed'": the status text and the transport error are not login
  // messages, so none of these may show 'Service Unavailable', 'Request failed' or
  // 'Network error'.
  it.each([
    [
      'a 503 with only a status text',
      () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' }),
    ],
    [
      'a 500 with neither body nor status text',
      () => new HttpResponse(null, { status: 500, statusText: '' }),
    ],
    [
      'a 401 whose JSON has no code or message',
      () => HttpResponse.json({ ok: false }, { status: 401, statusText: 'Unauthorized' }),
    ],
    [
      'a 502 answering HTML',
      () =>
        new HttpResponse('<h1>Bad gateway</h1>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'Content-Type': 'text/html' },
        }),
    ],
  ])("falls back to 'Login failed' for %s", async (_name, answer) => {
    server.use(http.post(api('/auth/login'), answer));
    expect(await login({ email: 'a', password: 'b' })).toEqual({
      ok: false,
      code: null,
      message: 'Login failed',
      token: null,
    });
  });

  it("answers a network failure with ok:false 'Login failed' instead of rejecting", async () => {
    server.use(loginHandlers.networkError());
    expect(await login({ email: 'a', password: 'b' })).toEqual({
      ok: false,
      code: null,
      message: 'Login failed',
      token: null,
    });
  });

  // §8 "DB_UNAVAILABLE shows the amber notice": the code decides even when the answer also
  // carries a token: the notice shows and nothing signs in.
  it.each([200, 503])(
    'DB_UNAVAILABLE with a token (HTTP %i) is the notice, not a sign-in',
    async (status) => {
      server.use(
        http.post(api('/auth/login'), () =>
          HttpResponse.json(
            { ok: true, code: 'DB_UNAVAILABLE', message: 'db down', token: 'jwt-db' },
            { status },
          ),
        ),
      );
      const result = await login({ email: 'a', password: 'b' });
      expect(result).toEqual({
        ok: false,
        code: 'DB_UNAVAILABLE',
        message: LOGIN_MESSAGES.DB_UNAVAILABLE,
        token: null,
      });
      expect(loginBannerKind(result.code)).toBe('notice');
      expect(getToken()).toBeNull();
    },
  );

  it('a refused login (401) keeps an existing token and calls no unauthorized handler', async () => {
    server.use(loginHandlers.code('INCORRECT_PASSWORD'));
    setToken('previous');
    const handler = vi.fn();
    const off = onUnauthorized(handler);
    try {
      await login({ email: 'a', password: 'b' });
      expect(handler).not.toHaveBeenCalled();
      expect(getToken()).toBe('previous');
    } finally {
      off();
    }
  });
});

describe('logout (§4 Session, §7)', () => {
  it('posts /auth/logout with the bearer token and clears the token', async () => {
    server.use(logoutHandlers.ok());
    setToken('t');
    await logout();
    expect(seen.map((r) => r.url.pathname)).toEqual(['/api/admin/auth/logout']);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(getToken()).toBeNull();
  });

  it('falls back to POST /logout when /auth/logout fails', async () => {
    server.use(...logoutHandlers.fallback());
    setToken('t');
    await logout();
    expect(seen.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'POST /api/admin/auth/logout',
      'POST /api/admin/logout',
    ]);
    expect(getToken()).toBeNull();
  });

  it('never rejects and still clears the token when both calls fail', async () => {
    server.use(...logoutHandlers.failing());
    setToken('t');
    await expect(logout()).resolves.toBeUndefined();
    expect(getToken()).toBeNull();
  });
});

describe('who-am-I and health (§2 Login on load)', () => {
  it('signed in', async () => {
    server.use(whoamiHandlers.signedIn('ops@example.com'));
    expect(await fetchWhoAmI()).toEqual({ ok: true, user: { email: 'ops@example.com' } });
  });

  it('a 401 is the answer "not signed in": no handler, token kept', async () => {
    server.use(whoamiHandlers.signedOut('INVALID_JWT'));
    setToken('stale');
    const handler = vi.fn();
    const off = onUnauthorized(handler);
    try {
      expect(await fetchWhoAmI()).toEqual({ ok: false, user: null });
      expect(handler).not.toHaveBeenCalled();
      expect(getToken()).toBe('stale');
    } finally {
      off();
    }
  });

  it('other who-am-I failures reject', async () => {
    server.use(
      http.get(api('/auth/whoami'), () => HttpResponse.json({ message: 'Down' }, { status: 500 })),
    );
    await expect(fetchWhoAmI()).rejects.toMatchObject({ status: 500, message: 'Down' });
  });

  it('reads /health and /health/db', async () => {
    server.use(healthHandlers.ok(), healthDbHandlers.down());
    expect(await fetchHealth()).toEqual({ ok: true, version: '0.0.1', uptimeS: 3600 });
    expect(await fetchHealthDb()).toEqual({ ok: false });
  });

  it('a non-JSON 200 from /health still counts as reachable', async () => {
    server.use(http.get(api('/health'), () => HttpResponse.text('OK')));
    expect(await fetchHealth()).toEqual({ ok: true, version: null, uptimeS: null });
  });

  it.each([
    ['ok', [healthHandlers.ok(), healthDbHandlers.ok()]],
    ['db_down', [healthHandlers.ok(), healthDbHandlers.down()]],
    ['unreachable', [healthHandlers.unreachable(), healthDbHandlers.ok()]],
    ['unreachable', [healthHandlers.down(), healthDbHandlers.ok()]],
    ['unreachable', [healthHandlers.ok(), healthDbHandlers.unreachable()]],
  ] as const)('checkBackend → %s', async (expected, handlers) => {
    server.use(...handlers);
    expect(await checkBackend()).toBe(expected);
  });
});
