/**
 * Where sign-in leads (§2 Routing, §6, CONTRACT.md): the remembered origin (pathname + search +
 * hash) from /login's navigation state, '/' otherwise, never back to /login and never off-site.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasSessionExpired,
  loginRedirectState,
  rememberedPath,
} from '../../../src/screens/useLoginRedirect';

describe('loginRedirectState / rememberedPath', () => {
  it('round-trips pathname, search and hash', () => {
    const state = loginRedirectState(
      { pathname: '/users', search: '?page=2&email=ada', hash: '#row-17' },
      'signed_out',
    );
    expect(state).toEqual({
      from: { pathname: '/users', search: '?page=2&email=ada', hash: '#row-17' },
      reason: 'signed_out',
    });
    expect(rememberedPath(state)).toBe('/users?page=2&email=ada#row-17');
  });

  it("answers '/' when nothing usable was remembered", () => {
    for (const state of [
      undefined,
      null,
      'x',
      42,
      {},
      { from: null },
      { from: { pathname: 5 } },
      { from: { pathname: 'users' } },
    ]) {
      expect(rememberedPath(state)).toBe('/');
    }
  });

  it('never leads back to /login or to another origin', () => {
    expect(rememberedPath(loginRedirectState({ pathname: '/login' }, 'signed_out'))).toBe('/');
    expect(rememberedPath(loginRedirectState({ pathname: '/LOGIN/' }, 'signed_out'))).toBe('/');
    expect(rememberedPath({ from: { pathname: '//evil.example.com/x' } })).toBe('/');
    expect(rememberedPath({ from: { pathname: 'https://evil.example.com' } })).toBe('/');
  });

  it('tolerates missing search and hash', () => {
    expect(rememberedPath({ from: { pathname: '/settings' } })).toBe('/settings');
  });

  it('always answers an in-app path, whatever the state', () => {
    fc.assert(
      fc.property(fc.anything(), (state) => {
        const path = rememberedPath(state);
        expect(path.startsWith('/')).toBe(true);
        expect(path.startsWith('//')).toBe(false);
      }),
    );
  });

  it('tells a 401 redirect from a plain one', () => {
    expect(hasSessionExpired(loginRedirectState({ pathname: '/' }, 'session_expired'))).toBe(true);
    expect(hasSessionExpired(loginRedirectState({ pathname: '/' }, 'signed_out'))).toBe(false);
    expect(hasSessionExpired(undefined)).toBe(false);
  });
});
