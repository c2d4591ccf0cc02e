/**
 * MSW handlers of the account and operator routes (issue 23; server/auth/accountRoutes.ts).
 * `accountHandlers(options)` behaves like the reference server for one signed-in operator: who-am-I
 * follows two-factor changes, ending a session removes it, operator changes apply (with
 * LAST_OWNER for the only active owner), invites add an invited row (OPERATOR_EXISTS for a known
 * email). Passwords: the current one is CURRENT_PASSWORD; a new one under 12 non-space characters
 * or 'password1234' is WEAK_PASSWORD. Codes: VALID_OTP is accepted, other digits are OTP_INVALID.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { api } from './handlers';
import {
  OPERATORS_WIRE,
  RECOVERY_CODES_WIRE,
  SESSIONS_WIRE,
  TOTP_SETUP_WIRE,
  VALID_OTP,
  inviteWire,
  whoamiWire,
} from './fixtures-account';

/** The signed-in operator's password in the stateful handlers. */
export const CURRENT_PASSWORD = 'correct horse battery staple';

/** A docs/api.md refusal with a `code`: {ok:false, error, code, message}. */
function refusal(status: number, code: string, message: string) {
  const error =
    status === 400
      ? 'bad_request'
      : status === 403
        ? 'forbidden'
        : status === 404
          ? 'not_found'
          : 'conflict';
  return HttpResponse.json({ ok: false, error, code, message }, { status });
}

/** How the stateful account handlers start. */
export interface AccountOptions {
  /** The signed-in operator's role (default owner). */
  role?: 'viewer' | 'support' | 'admin' | 'owner';
  /** Whether their two-factor sign-in is on (default off). */
  totpEnabled?: boolean;
  /** Whether an owner requires two-factor sign-in of everyone (default false). */
  requireTotp?: boolean;
  /** GET /auth/sessions answer (default SESSIONS_WIRE). */
  sessions?: { sessions: readonly object[] };
}

type WireOperator = (typeof OPERATORS_WIRE.operators)[number];

/** The whole account and operators API for one operator, stateful like the server. */
export function accountHandlers(options: AccountOptions = {}): HttpHandler[] {
  const role = options.role ?? 'owner';
  let totpEnabled = options.totpEnabled ?? false;
  let requireTotp = options.requireTotp ?? false;
  let sessions = [...(options.sessions ?? SESSIONS_WIRE).sessions] as { id: string }[];
  let operators: WireOperator[] = OPERATORS_WIRE.operators.map((o) =>
    o.id === 1 ? { ...o, role, totp_enabled: totpEnabled } : { ...o },
  );
  const ownerOnly = () =>
    role === 'owner'
      ? null
      : refusal(403, 'FORBIDDEN', `Your role (${role}) cannot manage operators: ask an owner.`);

  return [
    http.get(api('/auth/whoami'), () =>
      HttpResponse.json(
        whoamiWire({ role, totp_enabled: totpEnabled }, requireTotp && !totpEnabled),
      ),
    ),
    http.get(api('/auth/sessions'), () => HttpResponse.json({ sessions })),
    http.delete(api('/auth/sessions/:id'), ({ params }) => {
      if (!sessions.some((s) => s.id === params.id)) {
        return refusal(404, 'NOT_FOUND', 'No open session with that id');
      }
      sessions = sessions.filter((s) => s.id !== params.id);
      return HttpResponse.json({ ok: true, ended: true });
    }),
    http.post(api('/auth/password'), async ({ request }) => {
      const body = (await request.json()) as { current?: string; next?: string };
      if (body.current !== CURRENT_PASSWORD) {
        return refusal(400, 'INCORRECT_PASSWORD', 'Your current password is not correct.');
      }
      const next = body.next ?? '';
      if (next.replace(/\s/g, '').length < 12) {
        return refusal(400, 'WEAK_PASSWORD', 'Use at least 12 characters, not counting spaces.');
      }
      if (next === 'password1234') {
        return refusal(400, 'WEAK_PASSWORD', 'This password is too common: choose another.');
      }
      const ended = sessions.length - 1;
      sessions = sessions.filter((s) => (s as { current?: boolean }).current);
      return HttpResponse.json({ ok: true, sessions_ended: ended });
    }),
    http.post(api('/auth/totp/setup'), () => HttpResponse.json(TOTP_SETUP_WIRE)),
    http.post(api('/auth/totp/enable'), async ({ request }) => {
      const body = (await request.json()) as { otp?: string };
      if (body.otp !== VALID_OTP) {
        return refusal(
          400,
          'OTP_INVALID',
          'That code is not valid. Enter the current 6-digit code.',
        );
      }
      totpEnabled = true;
      return HttpResponse.json(RECOVERY_CODES_WIRE);
    }),
    http.post(api('/auth/totp/disable'), async ({ request }) => {
      const body = (await request.json()) as { password?: string; otp?: string };
      if (requireTotp) {
        return refusal(
          409,
          'TOTP_REQUIRED_BY_POLICY',
          'An owner requires two-factor sign-in, so it cannot be turned off.',
        );
      }
      if (body.password !== CURRENT_PASSWORD) {
        return refusal(400, 'INCORRECT_PASSWORD', 'Your current password is not correct.');
      }
      if (body.otp !== VALID_OTP) {
        return refusal(
          400,
          'OTP_INVALID',
          'That code is not valid. Enter the current 6-digit code.',
        );
      }
      totpEnabled = false;
      return HttpResponse.json({ ok: true });
    }),
    http.get(
      api('/operators'),
      () => ownerOnly() ?? HttpResponse.json({ operators, require_totp: requireTotp }),
    ),
    http.post(api('/operators'), async ({ request }) => {
      const refused = ownerOnly();
      if (refused) return refused;
      const body = (await request.json()) as { email: string; name: string; role: string };
      const email = body.email.trim().toLowerCase();
      if (operators.some((o) => o.email === email && o.status !== 'disabled')) {
        return refusal(
          409,
          'OPERATOR_EXISTS',
          `An operator with the email ${email} already exists.`,
        );
      }
      const made = inviteWire(email, body.name, body.role);
      operators = [
        ...operators,
        {
          ...made.operator,
          created_at: made.invite.expires_at,
          last_seen_at: null,
          invite_expires_at: made.invite.expires_at,
        } as unknown as WireOperator,
      ];
      return HttpResponse.json(made, { status: 201 });
    }),
    http.patch(api('/operators/:id'), async ({ params, request }) => {
      const refused = ownerOnly();
      if (refused) return refused;
      const body = (await request.json()) as { role?: string; disabled?: boolean };
      const before = operators.find((o) => String(o.id) === params.id);
      if (!before) return refusal(404, 'NOT_FOUND', `No operator with id ${String(params.id)}`);
      const nextRole = body.role ?? before.role;
      const disabled = body.disabled ?? before.status === 'disabled';
      const activeOwners = operators.filter((o) => o.role === 'owner' && o.status === 'active');
      if (
        before.role === 'owner' &&
        before.status === 'active' &&
        (nextRole !== 'owner' || disabled) &&
        activeOwners.length === 1
      ) {
        return refusal(
          409,
          'LAST_OWNER',
          'This is the last active owner: make another operator an owner first.',
        );
      }
      const after = {
        ...before,
        role: nextRole,
        status: disabled ? 'disabled' : before.status === 'disabled' ? 'active' : before.status,
      } as WireOperator;
      operators = operators.map((o) => (o.id === before.id ? after : o));
      const endedNow = disabled && before.status !== 'disabled' ? 2 : 0;
      return HttpResponse.json({ operator: after, sessions_ended: endedNow });
    }),
    http.put(api('/auth/policy'), async ({ request }) => {
      const refused = ownerOnly();
      if (refused) return refused;
      const body = (await request.json()) as { require_totp: boolean };
      requireTotp = body.require_totp;
      return HttpResponse.json({ require_totp: requireTotp });
    }),
  ];
}

/** Never answers GET `path` (the loading state). */
export function loadingGet(path: '/auth/sessions' | '/operators'): HttpHandler {
  return http.get(api(path), async () => {
    await delay('infinite');
    return new HttpResponse(null, { status: 204 });
  });
}

/** GET `path` answers 500 with `message`. */
export function failingGet(path: '/auth/sessions' | '/operators', message: string): HttpHandler {
  return http.get(api(path), () =>
    HttpResponse.json({ error: 'internal', message }, { status: 500 }),
  );
}
