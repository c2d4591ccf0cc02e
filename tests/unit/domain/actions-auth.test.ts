import { describe, expect, it } from 'vitest';
import {
  ACCESS_ACTIONS,
  actionErrorAlert,
  describeActionError,
  describeActionResult,
  makeAccessAction,
} from '../../../src/domain/actions';
import {
  BACKEND_NOTICES,
  LOGIN_MESSAGES,
  backendNotice,
  isLoginCode,
  loginBannerKind,
  loginMessage,
} from '../../../src/domain/auth';
import { MESSAGES, errorMessageOr, errorStatus } from '../../../src/domain/messages';
import type { ActionResult } from '../../../src/domain/types';

const result = (partial: Partial<ActionResult>): ActionResult => ({
  discourse: null,
  scheduledExpiresAt: null,
  ...partial,
});

describe('describeActionResult (§8 alerts)', () => {
  it.each([
    [result({}), 'success', 'OK'],
    [result({ discourse: {} }), 'success', 'OK'],
    [
      result({ scheduledExpiresAt: '2026-12-01T09:00:00Z' }),
      'success',
      'OK (scheduled for 2026-12-01 09:00 UTC)',
    ],
    [
      result({ scheduledExpiresAt: '2026-12-01 09:00:00' }),
      'success',
      'OK (scheduled for 2026-12-01 09:00 UTC)',
    ],
    [result({ scheduledExpiresAt: 'not a date' }), 'success', 'OK'],
    [
      result({ discourse: { ok: true, invited: true, groupId: 42 } }),
      'success',
      'OK (Discourse invite sent to group 42)',
    ],
    [result({ discourse: { ok: true, invited: true } }), 'success', 'OK (Discourse invite sent)'],
    [result({ discourse: { ok: true, status: 200 } }), 'success', 'OK (Discourse updated)'],
    [result({ discourse: { ok: true } }), 'success', 'OK (Discourse updated)'],
    [
      result({ discourse: { skipped: true, reason: 'Discourse not configured' } }),
      'success',
      'OK (Discourse skipped: Discourse not configured)',
    ],
    [result({ discourse: { skipped: true } }), 'success', 'OK (Discourse skipped)'],
    [
      result({
        discourse: { queued: true, reason: 'the forum is updated in the background' },
      }),
      'success',
      'OK (Discourse update queued: the forum is updated in the background)',
    ],
    [result({ discourse: { queued: true } }), 'success', 'OK (Discourse update queued)'],
    [
      result({
        scheduledExpiresAt: '2026-12-01T09:00:00Z',
        discourse: {
          queued: true,
          reason: 'attempt 1 failed: HTTP 503; retrying at 2026-11-20 12:00:05 UTC',
        },
      }),
      'success',
      'OK (scheduled for 2026-12-01 09:00 UTC; Discourse update queued: attempt 1 failed: HTTP 503; retrying at 2026-11-20 12:00:05 UTC)',
    ],
    [
      result({
        discourse: {
          ok: false,
          error: 'Unprocessable Entity',
          status: 422,
          errors: ['Username is invalid', 'Email taken'],
        },
      }),
      'warning',
      'Done, but Discourse error (422): Unprocessable Entity — Username is invalid; Email taken',
    ],
    [
      result({ discourse: { ok: false, error: 'Timed out' } }),
      'warning',
      'Done, but Discourse error: Timed out',
    ],
    [
      result({ discourse: { ok: false, status: 500 } }),
      'warning',
      'Done, but Discourse error (500)',
    ],
    [
      result({ discourse: { ok: false, status: 422, errors: ['Bad email'] } }),
      'warning',
      'Done, but Discourse error (422): Bad email',
    ],
    [
      result({ discourse: { error: 'boom', skipped: true } }),
      'warning',
      'Done, but Discourse error: boom',
    ],
  ] as const)('%o → %s %s', (r, tone, message) => {
    expect(describeActionResult(r)).toEqual({ tone, message });
  });

  it('combines a schedule with a forum outcome without losing either', () => {
    expect(
      describeActionResult(
        result({
          scheduledExpiresAt: '2026-12-01T09:00:00Z',
          discourse: { ok: true, status: 200 },
        }),
      ).message,
    ).toBe('OK (scheduled for 2026-12-01 09:00 UTC; Discourse updated)');
    expect(
      describeActionResult(
        result({
          scheduledExpiresAt: '2026-12-01T09:00:00Z',
          discourse: { ok: false, error: 'Rate limited', status: 429 },
        }),
      ),
    ).toEqual({
      tone: 'warning',
      message: 'Done, but Discourse error (429): Rate limited (scheduled for 2026-12-01 09:00 UTC)',
    });
  });

  it('failures alert the message or "Request failed"', () => {
    expect(describeActionError(new Error('User not found'))).toBe('User not found');
    expect(describeActionError(new Error(''))).toBe('Request failed');
    expect(describeActionError('string thrown')).toBe('Request failed');
    expect(describeActionError(undefined)).toBe('Request failed');
    expect(actionErrorAlert({ message: 'Nope' })).toEqual({ tone: 'danger', message: 'Nope' });
  });
});

describe('access actions menu (§2 Users)', () => {
  it('lists the five actions in menu order; dated ones need a date', () => {
    expect(ACCESS_ACTIONS.map((a) => a.kind)).toEqual([
      'grant',
      'grant_on_date',
      'revoke_now',
      'revoke_deferred',
      'revoke_on_date',
    ]);
    expect(ACCESS_ACTIONS.filter((a) => a.needsDate).map((a) => a.kind)).toEqual([
      'grant_on_date',
      'revoke_on_date',
    ]);
    expect(ACCESS_ACTIONS.filter((a) => a.isDestructive).map((a) => a.kind)).toEqual([
      'revoke_now',
      'revoke_deferred',
      'revoke_on_date',
    ]);
    expect(ACCESS_ACTIONS.find((a) => a.kind === 'revoke_deferred')?.label).toBe(
      'Revoke at renewal (deferred)',
    );
  });

  it('makeAccessAction puts the wire date under until / date', () => {
    expect(makeAccessAction('grant_on_date', '2026-11-21 09:00:00')).toEqual({
      kind: 'grant_on_date',
      until: '2026-11-21 09:00:00',
    });
    expect(makeAccessAction('revoke_on_date', '2026-11-21 09:00:00')).toEqual({
      kind: 'revoke_on_date',
      date: '2026-11-21 09:00:00',
    });
    expect(makeAccessAction('revoke_on_date', null)).toBeNull();
    expect(makeAccessAction('revoke_deferred')).toEqual({ kind: 'revoke_deferred' });
  });
});

describe('login texts (§8)', () => {
  it('has the exact table', () => {
    expect(LOGIN_MESSAGES).toEqual({
      INCORRECT_USER: 'Incorrect user',
      INCORRECT_PASSWORD: 'Incorrect password',
      INVALID_JWT: 'Your session has expired. Please sign in again.',
      NO_TOKEN: 'Please sign in.',
      EMPTY_DATABASE: 'The database is empty or not initialized.',
      DB_UNAVAILABLE: 'Backend database is currently unavailable.',
    });
  });

  it('code message first, then the server message, then "Login failed"', () => {
    expect(loginMessage('INCORRECT_USER', 'User does not exist')).toBe('Incorrect user');
    expect(loginMessage('RATE_LIMITED', 'Slow down')).toBe('Slow down');
    expect(loginMessage('RATE_LIMITED', '  ')).toBe('Login failed');
    expect(loginMessage(null)).toBe('Login failed');
    expect(loginMessage('toString')).toBe('Login failed');
    expect(isLoginCode('hasOwnProperty')).toBe(false);
  });

  it('DB_UNAVAILABLE is the amber notice; others red', () => {
    expect(loginBannerKind('DB_UNAVAILABLE')).toBe('notice');
    expect(loginBannerKind('EMPTY_DATABASE')).toBe('error');
  });

  it('backend notices copy §2', () => {
    expect(backendNotice('ok')).toBeNull();
    expect(backendNotice('db_down')).toBe(
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
    );
    expect(backendNotice('unreachable')).toBe(
      'Backend reachability check failed. You can try logging in anyway.',
    );
    expect(BACKEND_NOTICES.db_down).toBe(backendNotice('db_down'));
  });
});

describe('messages (§8)', () => {
  it('keeps the catalogue texts', () => {
    expect(MESSAGES).toMatchObject({
      requestFailed: 'Request failed',
      stats: 'Failed to load stats',
      users: 'Failed to load users',
      subscriptions: 'Failed to load subscriptions',
      details: 'Failed to load details',
      clickbankOrders: 'Failed to load ClickBank order details',
      logs: 'Failed to load logs',
      metrics: 'Failed to load metrics',
      isrSummary: 'Failed to load ISR summary',
      loginFailed: 'Login failed',
    });
  });

  it('errorMessageOr / errorStatus read error-like values safely', () => {
    expect(errorMessageOr(new Error('x'), 'fb')).toBe('x');
    expect(errorMessageOr({ message: 42 }, 'fb')).toBe('fb');
    expect(errorMessageOr(null, 'fb')).toBe('fb');
    expect(errorStatus({ status: 404 })).toBe(404);
    expect(errorStatus({ status: '404' })).toBeNull();
    expect(errorStatus(new Error('x'))).toBeNull();
  });
});
