/**
 * Session calls (§7: POST /auth/login, POST /auth/logout with POST /logout fallback, GET
 * /auth/whoami, GET /health, GET /health/db) and their queries. Login, who-am-I and logout are
 * authentication probes: their 401 is an answer, so they never trigger the 401 redirect.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from './zod';
import { loginBannerKind, loginMessage, type BackendCheck } from '../domain/auth';
import { isRole } from '../domain/roles';
import type { OperatorIdentity, WhoAmI } from '../domain/types';
import { ApiError, apiRequest, isAbortError } from './client';
import { queryKeys } from './queryKeys';
import { clearToken, setToken } from './token';
import { asObject, readInt, readString, wireBool, wireString } from './wire';

/** Sign-in form values (§2 Login). */
export interface LoginCredentials {
  email: string;
  password: string;
  /** The 6-digit code of an operator with two-factor sign-in (after an OTP_REQUIRED answer). */
  otp?: string;
  /** Or one of their single-use recovery codes instead of `otp`. */
  recoveryCode?: string;
}

/**
 * A login answer (§3 Login response). `message` is ready to show: the §8 code table's text for
 * a known code, else the server's message, else 'Login failed'. `token` is set only when ok.
 */
export interface LoginResult {
  ok: boolean;
  /** The server's code (INCORRECT_USER, DB_UNAVAILABLE, RATE_LIMITED…) or null. */
  code: string | null;
  message: string;
  token: string | null;
}

const loginWire = z.object({
  ok: wireBool,
  code: wireString,
  message: wireString,
  token: wireString,
});

function failedLogin(code: string | null, serverMessage: string | null): LoginResult {
  return { ok: false, code, message: loginMessage(code, serverMessage), token: null };
}

/**
 * POST /auth/login {email, password, otp? | recovery_code?} → LoginResult (§7, §8; docs/api.md:
 * a password alone for an operator with two-factor sign-in answers code OTP_REQUIRED, a wrong
 * code OTP_INVALID). On success the token is stored
 * (setToken). Never rejects for an answer or a network failure — those come back as ok:false
 * with the text to show: a §8 code's text, else the answer's own message, else 'Login failed'
 * (whatever the status text; also for no answer or a time-out). DB_UNAVAILABLE is always
 * ok:false with its notice text and no token stored, even when the answer carries one: the
 * screen shows the amber notice and keeps the form usable. Rejects only when `signal` aborts.
 */
export async function login(
  credentials: LoginCredentials,
  signal?: AbortSignal,
): Promise<LoginResult> {
  try {
    const answer = await apiRequest('/auth/login', {
      method: 'POST',
      body: {
        email: credentials.email,
        password: credentials.password,
        ...(credentials.otp !== undefined ? { otp: credentials.otp } : {}),
        ...(credentials.recoveryCode !== undefined
          ? { recovery_code: credentials.recoveryCode }
          : {}),
      },
      schema: loginWire,
      signal,
      authProbe: true,
    });
    // The code decides first: DB_UNAVAILABLE is the amber notice (§8) even with a token.
    if (loginBannerKind(answer.code) === 'notice') return failedLogin(answer.code, answer.message);
    if (answer.ok !== false && answer.token) {
      setToken(answer.token);
      return { ok: true, code: answer.code, message: answer.message ?? '', token: answer.token };
    }
    return failedLogin(answer.code, answer.ok === false ? answer.message : null);
  } catch (error) {
    if (isAbortError(error)) throw error;
    // Only the answer's own code and message are login texts; the status text, 'Request failed'
    // and transport errors ('Network error', time-out) fall back to 'Login failed' (§8).
    const payload = error instanceof ApiError ? asObject(error.payload) : null;
    return failedLogin(readString(payload?.code), readString(payload?.message));
  }
}

/**
 * Logs out (§4 Session, §7): POST /auth/logout, falling back to POST /logout when that fails;
 * the answers are ignored. The stored token is cleared whatever happens. Never rejects.
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest('/auth/logout', { method: 'POST', authProbe: true });
  } catch {
    try {
      await apiRequest('/logout', { method: 'POST', authProbe: true });
    } catch {
      // result ignored (§7)
    }
  } finally {
    clearToken();
  }
}

const whoamiWire = z.object({
  ok: wireBool,
  user: z.optional(z.unknown()),
  operator: z.optional(z.unknown()),
  must_enrol_totp: z.optional(z.unknown()),
});

/** The who-am-I `operator`, or null when it is missing or not an operator (an older backend). */
function readOperator(value: unknown): OperatorIdentity | null {
  const o = asObject(value);
  const email = readString(o?.email);
  const role = o?.role;
  const id = readInt(o?.id);
  if (!o || !email || !isRole(role) || id === null) return null;
  return {
    id,
    email,
    name: readString(o.name) ?? email,
    role,
    totpEnabled: o.totp_enabled === true,
  };
}

/**
 * GET /auth/whoami → WhoAmI (§3). A 401 is the answer "not signed in": {ok:false, user:null}
 * (token kept, no redirect). Other failures reject with ApiError.
 */
export async function fetchWhoAmI(signal?: AbortSignal): Promise<WhoAmI> {
  try {
    const answer = await apiRequest('/auth/whoami', {
      schema: whoamiWire,
      signal,
      authProbe: true,
    });
    const user = asObject(answer.user);
    const email = readString(user?.email);
    const name = readString(user?.name);
    const operator = readOperator(answer.operator);
    return {
      ok: answer.ok === true,
      user: user ? { ...(email ? { email } : {}), ...(name ? { name } : {}) } : null,
      ...(operator ? { role: operator.role, operator } : {}),
      ...(answer.must_enrol_totp === true ? { mustEnrolTotp: true } : {}),
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { ok: false, user: null };
    throw error;
  }
}

/**
 * Asks GET /auth/whoami as a normal call (not a probe): a session that has ended answers 401,
 * which clears the token and runs the sign-out handlers like any other 401. Resolves with whether
 * the session still holds.
 */
export async function checkSession(): Promise<boolean> {
  const answer = await apiRequest('/auth/whoami', { schema: whoamiWire });
  return answer.ok === true;
}

/** Who an invitation is for (POST /auth/invite/check). */
export interface InviteDetails {
  email: string;
  name: string;
  role: string;
  /** When the link stops working (ISO 8601 UTC). */
  expiresAt: string;
}

const inviteWire = z.object({
  email: z.string(),
  name: z.string(),
  role: z.string(),
  expires_at: z.string(),
});

/**
 * POST /auth/invite/check {token} → who the invitation is for, or null when the link is unknown,
 * used or expired (404 INVITE_INVALID). Needs no session. Other failures reject with ApiError.
 */
export async function checkInvite(
  token: string,
  signal?: AbortSignal,
): Promise<InviteDetails | null> {
  try {
    const answer = await apiRequest('/auth/invite/check', {
      method: 'POST',
      body: { token },
      schema: inviteWire,
      signal,
      authProbe: true,
    });
    return {
      email: answer.email,
      name: answer.name,
      role: answer.role,
      expiresAt: answer.expires_at,
    };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/**
 * POST /auth/invite/accept {token, password} → the invitee's email once their password is set.
 * Rejects with ApiError: 400 WEAK_PASSWORD (its message says why), 404 INVITE_INVALID, 429.
 */
export async function acceptInvite(token: string, password: string): Promise<string> {
  const answer = await apiRequest('/auth/invite/accept', {
    method: 'POST',
    body: { token, password },
    schema: z.object({ email: z.string() }),
    authProbe: true,
  });
  return answer.email;
}

/** GET /health, normalised: reachable with its version and uptime when reported. */
export interface HealthInfo {
  /** false only when the server says so ({ok:false}); any other OK answer counts as up. */
  ok: boolean;
  version: string | null;
  /** Server uptime in seconds. */
  uptimeS: number | null;
}

/**
 * GET /health → HealthInfo (§2 reachability). Any OK answer counts, even a non-JSON one.
 * Rejects with ApiError on a non-OK answer, a network failure or the time-out.
 */
export async function fetchHealth(signal?: AbortSignal): Promise<HealthInfo> {
  const answer = asObject(await apiRequest('/health', { signal }));
  return {
    ok: answer?.ok !== false,
    version: readString(answer?.version),
    uptimeS: readInt(answer?.uptime_s),
  };
}

/**
 * GET /health/db → {ok} (§7). A non-OK answer (503 {ok:false}) is the answer "database down":
 * {ok:false}. Rejects only when no answer came (ApiError status 0) or `signal` aborts.
 */
export async function fetchHealthDb(signal?: AbortSignal): Promise<{ ok: boolean }> {
  try {
    const answer = asObject(await apiRequest('/health/db', { signal }));
    return { ok: answer?.ok !== false };
  } catch (error) {
    if (error instanceof ApiError && error.status > 0) return { ok: false };
    throw error;
  }
}

/**
 * The login screen's pings (§2): GET /health and GET /health/db together. 'unreachable' when
 * /health fails or either gets no answer; 'db_down' when the database answers not ok; else 'ok'.
 * Never rejects except on abort.
 */
export async function checkBackend(signal?: AbortSignal): Promise<BackendCheck> {
  const [health, db] = await Promise.allSettled([fetchHealth(signal), fetchHealthDb(signal)]);
  if (signal?.aborted) throw signal.reason;
  if (health.status === 'rejected' || !health.value.ok) return 'unreachable';
  if (db.status === 'rejected') return 'unreachable';
  return db.value.ok ? 'ok' : 'db_down';
}

/** Query: who am I (§2 Login "On load it asks who-am-I"). No retries: a 401 is an answer. */
export function whoamiQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.auth.whoami(),
    queryFn: ({ signal }) => fetchWhoAmI(signal),
    retry: false,
    staleTime: 0,
  });
}

/** Query: the login screen's backend check ('ok' | 'db_down' | 'unreachable'). */
export function backendCheckQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.auth.backendCheck(),
    queryFn: ({ signal }) => checkBackend(signal),
    retry: false,
  });
}

/** Query: GET /health. */
export function healthQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.health.api(),
    queryFn: ({ signal }) => fetchHealth(signal),
    retry: false,
  });
}

/** Query: GET /health/db. */
export function healthDbQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.health.db(),
    queryFn: ({ signal }) => fetchHealthDb(signal),
    retry: false,
  });
}

/**
 * Hook: the login mutation. mutate({email, password}) resolves with a LoginResult (never an
 * error for an answer); on ok the token is stored and cached data from any earlier session
 * is dropped.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: LoginCredentials) => login(credentials),
    onSuccess: (result) => {
      if (result.ok) queryClient.removeQueries({ queryKey: queryKeys.all() });
    },
  });
}

/** Hook: the logout mutation; settles after the token is cleared and the cache emptied. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(),
    onSettled: () => queryClient.clear(),
  });
}
