/**
 * The console's 401 handling (signOutOnUnauthorized in src/app/router.tsx; CONTRACT.md
 * Authentication, §6): any call that answers 401 sends the operator to /login, remembering where
 * they were relative to the /admin basename, once per sign-out and never from /login itself.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../../../src/api/client';
import { setToken } from '../../../src/api/token';
import { signOutOnUnauthorized } from '../../../src/app/router';
import { api } from '../../msw/handlers';
import { setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();

/** A data router as far as the handler reads it: where it is, its basename, and navigate. */
function fakeRouter(pathname: string, basename?: string) {
  return {
    basename,
    state: { location: { pathname, search: '?page=2', hash: '#top', state: null, key: 'k' } },
    navigate: vi.fn(() => Promise.resolve()),
  } as unknown as Parameters<typeof signOutOnUnauthorized>[0] & {
    navigate: ReturnType<typeof vi.fn>;
  };
}

async function answer401(): Promise<void> {
  server.use(http.get(api('/echo'), () => HttpResponse.json({}, { status: 401 })));
  setToken('stale');
  await apiRequest('/echo').catch(() => undefined);
}

describe('signOutOnUnauthorized', () => {
  it('goes to /login with the location relative to the basename', async () => {
    const router = fakeRouter('/admin/users', '/admin/');
    const off = signOutOnUnauthorized(router);
    try {
      await answer401();
      expect(router.navigate).toHaveBeenCalledWith('/login', {
        replace: true,
        state: {
          from: { pathname: '/users', search: '?page=2', hash: '#top' },
          reason: 'session_expired',
        },
      });
    } finally {
      off();
    }
  });

  it('keeps the dashboard as / and works without a basename (the stories)', async () => {
    for (const [pathname, basename] of [
      ['/admin/', '/admin/'],
      ['/admin', '/admin'],
      ['/', undefined],
    ] as const) {
      const router = fakeRouter(pathname, basename);
      const off = signOutOnUnauthorized(router);
      try {
        await answer401();
        expect(router.navigate.mock.calls[0]?.[1]).toMatchObject({
          state: { from: { pathname: '/' } },
        });
      } finally {
        off();
      }
    }
  });

  it('does nothing on /login, and nothing once unregistered', async () => {
    const onLogin = fakeRouter('/admin/login', '/admin/');
    const offLogin = signOutOnUnauthorized(onLogin);
    await answer401();
    offLogin();
    expect(onLogin.navigate).not.toHaveBeenCalled();

    const gone = fakeRouter('/admin/users', '/admin/');
    signOutOnUnauthorized(gone)();
    await answer401();
    expect(gone.navigate).not.toHaveBeenCalled();
  });
});
