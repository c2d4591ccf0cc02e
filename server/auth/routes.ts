/**
 * Sign-in, sign-out, who-am-I and the authentication middleware (specification §7 auth calls,
 * §8 login codes; CONTRACT.md "Authentication"; docs/api.md "Auth").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { jsonBodyGuard, parseJsonBody } from '../http/body';
import { plainText } from '../http/fields';
import { writeDbLog } from '../logging';
import { recordAudit, type AuditActor } from '../audit/audit';
import { clientAddress, trustedHops } from './client';
import { readDeviceCookie, setDeviceCookie } from './device';
import {
  acceptInvite,
  claimTotpStep,
  ensureBootstrapOwner,
  inviteDetails,
  invalidInvite,
  findOperatorByEmail,
  useRecoveryCode,
  type OperatorRow,
} from './operators';
import { verifyPassword } from './password';
import { openSecret, totpStep } from './totp';
import {
  createSemaphore,
  createSlidingWindowLimiter,
  type Reservation,
  type Semaphore,
  type SlidingWindowLimiter,
} from './rateLimit';
import {
  authenticateToken,
  clearSessionCookie,
  createSession,
  pruneSessions,
  readSessionToken,
  revokeSession,
  setSessionCookie,
  type AdminSession,
} from './session';

/** Messages of the §8 error catalogue, copied exactly. */
export const AUTH_MESSAGES = {
  INCORRECT_USER: 'Incorrect user',
  INCORRECT_PASSWORD: 'Incorrect password',
  OTP_REQUIRED: 'Enter the 6-digit code from your authenticator app.',
  OTP_INVALID:
    'That code is not valid. Enter the current code from your authenticator app, or a recovery code.',
  TOTP_ENROLMENT_REQUIRED: 'Set up two-factor sign-in to continue: an owner requires it.',
  INVALID_JWT: 'Your session has expired. Please sign in again.',
  NO_TOKEN: 'Please sign in.',
  EMPTY_DATABASE: 'The database is empty or not initialized.',
  DB_UNAVAILABLE: 'Backend database is currently unavailable.',
} as const;

import type { AuthEnv } from './session';
export type { AuthEnv } from './session';
export { clientAddress, trustedHops } from './client';

const loginBody = z.object({
  email: plainText('email').pipe(z.string().max(320)),
  // A password is only ever hashed, never stored or searched: any text the admin chose is fine.
  password: z.string().max(1024),
  otp: z.string().max(16).optional(),
  recovery_code: z.string().max(40).optional(),
});

/** The 401 of docs/api.md: `{error:'unauthorized', ok:false, code, message}`. */
function unauthorized(code: 'NO_TOKEN' | 'INVALID_JWT'): ApiError {
  return new ApiError(401, 'unauthorized', AUTH_MESSAGES[code], { ok: false, code });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time equality of two strings (compares SHA-256 digests, so lengths do not leak). */
export function constantTimeEquals(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** Path, relative to the API prefix, of the live event stream: the only route the cookie authenticates. */
export const EVENT_STREAM_PATH = '/events/stream';

/**
 * Verifies the request's session at `deps.now()` with every check of authenticateToken; returns
 * the session or throws the 401 ApiError with code NO_TOKEN ('Please sign in.') or INVALID_JWT
 * ('Your session has expired. Please sign in again.') (§8). Only the Bearer header counts, unless
 * `allowCookie` (the event stream, which EventSource cannot give a header, and logout): a browser
 * sends the cookie with cross-site requests too, so no other route may accept it (CSRF).
 */
export async function authenticate(
  c: Context,
  deps: AppDeps,
  allowCookie = false,
): Promise<AdminSession> {
  const token = readSessionToken(c, allowCookie);
  if (!token) throw unauthorized('NO_TOKEN');
  const session = await authenticateToken(deps, token);
  if (!session) throw unauthorized('INVALID_JWT');
  return session;
}

/**
 * Middleware guarding every API route after it: sets `c.var.admin` or answers the §8 401
 * (CONTRACT.md). The session cookie counts only for GET {prefix}/events/stream; every other
 * route needs `Authorization: Bearer`.
 */
export function requireAuth(deps: AppDeps): MiddlewareHandler<AuthEnv> {
  const prefix = deps.config.apiPrefix;
  const streamPath = `${prefix}${EVENT_STREAM_PATH}`;
  const enrolmentPaths = new Set(ENROLMENT_PATHS.map((p) => `${prefix}${p}`));
  return async (c, next) => {
    const allowCookie = c.req.method === 'GET' && c.req.path === streamPath;
    const session = await authenticate(c, deps, allowCookie);
    // An owner requires a second factor and this operator has none: enrolment comes first.
    if (session.mustEnrolTotp && !enrolmentPaths.has(c.req.path)) {
      throw new ApiError(403, 'forbidden', AUTH_MESSAGES.TOTP_ENROLMENT_REQUIRED, {
        ok: false,
        code: 'TOTP_ENROLMENT_REQUIRED',
      });
    }
    c.set('admin', session);
    await next();
  };
}

/** The only routes a session that must enrol in two-factor sign-in may call (besides the public ones). */
export const ENROLMENT_PATHS = ['/auth/totp/setup', '/auth/totp/enable'] as const;

type DbState = 'ok' | 'empty' | 'down';

/** Whether the database answers and holds the schema ('empty' = tables missing, i.e. not initialized). */
async function databaseState(deps: AppDeps): Promise<DbState> {
  try {
    const res = await deps.db.query<{ ready: boolean }>(
      "SELECT to_regclass('public.customers') IS NOT NULL AS ready",
    );
    return res.rows[0]?.ready ? 'ok' : 'empty';
  } catch {
    return 'down';
  }
}

/** Remembers, per key, the start of the window in which it was last claimed. */
export interface OncePerWindow {
  /** True (and records `nowMs`) when `key` was not claimed within the last window; false otherwise. */
  claim(key: string, nowMs: number): boolean;
  /** Keys remembered now. */
  size(): number;
}

/**
 * At most one claim per key per `windowMs` (the rate-limit log rows); at most `maxKeys` keys.
 * Keys sit in claim order, so the first is the oldest claim: when full, it is dropped if its window
 * has passed, else the new key is refused (no row: refused attempts can never flood the logs
 * table, whatever the number of addresses). O(1) per claim, never a scan.
 */
export function createOncePerWindow(windowMs: number, maxKeys = 10_000): OncePerWindow {
  const last = new Map<string, number>();
  return {
    claim(key, nowMs) {
      const at = last.get(key);
      if (at !== undefined && nowMs - at < windowMs) return false;
      if (at === undefined && last.size >= maxKeys) {
        const [oldestKey, oldestAt] = last.entries().next().value ?? [];
        if (oldestKey === undefined || oldestAt === undefined || nowMs - oldestAt < windowMs) {
          return false;
        }
        last.delete(oldestKey);
      }
      last.delete(key);
      last.set(key, nowMs);
      return true;
    },
    size: () => last.size,
  };
}

const inviteTokenBody = z.object({
  token: z
    .string({ error: 'token is required' })
    .regex(/^[A-Za-z0-9_-]{20,100}$/, 'token is not an invitation token'),
});
const inviteAcceptBody = inviteTokenBody.extend({
  password: z.string({ error: 'password is required' }).max(1024),
});

/** Largest accepted sign-in body in bytes (larger → 413 JSON). */
export const MAX_LOGIN_BODY_BYTES = 4096;
/** How long a sign-in waits for a free password-check slot before answering 429 (ms). */
export const HASH_WAIT_MS = 5_000;

/** Options for the auth router; tests inject limiters. */
export interface AuthRouterOptions {
  /** Per client address (default LOGIN_RATE_MAX per LOGIN_RATE_WINDOW_S). */
  limiter?: SlidingWindowLimiter;
  /** Per account, keyed by the typed email (default loginAccountRateMax per window). */
  accountLimiter?: SlidingWindowLimiter;
  /** Concurrent password checks (default loginHashConcurrency, 2). */
  hashSlots?: Semaphore;
}

/** The sign-in limits, shared by sign-in and the routes that check a password again. */
export type AuthLimits = Required<AuthRouterOptions>;

/** Resolves the sign-in limits: `options`' own, else the configured defaults. */
export function authLimits(deps: AppDeps, options: AuthRouterOptions = {}): AuthLimits {
  const { config } = deps;
  const limits = config.loginRateLimit ?? { maxAttempts: 10, windowS: 900 };
  return {
    limiter:
      options.limiter ?? createSlidingWindowLimiter(limits.maxAttempts, limits.windowS * 1000),
    accountLimiter:
      options.accountLimiter ??
      createSlidingWindowLimiter(
        config.loginAccountRateMax ?? limits.maxAttempts * 3,
        limits.windowS * 1000,
      ),
    hashSlots: options.hashSlots ?? createSemaphore(config.loginHashConcurrency ?? 2),
  };
}

function rateLimited(c: Context, retryAfterS: number): Response {
  c.header('Retry-After', String(retryAfterS));
  return c.json(
    {
      error: 'rate_limited',
      ok: false,
      code: 'RATE_LIMITED',
      message: `Too many sign-in attempts. Try again in ${retryAfterS} seconds.`,
      retry_after_s: retryAfterS,
    },
    429,
  );
}

/**
 * Public auth routes (relative to the API prefix): POST /auth/login `{email, password, otp?,
 * recovery_code?}` (≤ 4 KiB, else 413) → 200 `{ok:true, code:'OK', message:'Signed in', token}` +
 * session and device cookies and a new server-side session; 401 INCORRECT_USER /
 * INCORRECT_PASSWORD, and for an operator with two-factor sign-in OTP_REQUIRED (no code sent) /
 * OTP_INVALID (a wrong, reused or out-of-window code, or a used recovery code; it counts as a
 * failure); 503 DB_UNAVAILABLE / EMPTY_DATABASE; 429 RATE_LIMITED with Retry-After (s) when the
 * client address or the account has too many failures in the window, or when the password checks
 * are saturated; POST /auth/invite/check `{token}` and POST /auth/invite/accept `{token,
 * password}` (no session); POST /auth/logout and POST /logout → 200 `{ok:true}`, revoking the
 * session of the Bearer token or cookie and clearing the cookie; GET /auth/whoami (Bearer) →
 * `{ok:true, user:{email}, operator:{id, email, name, role, totp_enabled}, must_enrol_totp}`,
 * without a token `{ok:false, user:null, code:'NO_TOKEN'}`, with a bad one the §8 401.
 */
export function createAuthRouter(deps: AppDeps, options: AuthRouterOptions = {}): Hono {
  const { config } = deps;
  const limits = config.loginRateLimit ?? { maxAttempts: 10, windowS: 900 };
  const { limiter, accountLimiter, hashSlots } = authLimits(deps, options);
  const rateLimitLogged = createOncePerWindow(limits.windowS * 1000);
  const hops = trustedHops(config);
  const router = new Hono();

  // Only POST /auth/login gets these (a second bodyLimit over an already-read body would fail).
  const loginBodyLimit = bodyLimit({
    maxSize: MAX_LOGIN_BODY_BYTES,
    onError: () => {
      throw new ApiError(
        413,
        'payload_too_large',
        `Request body exceeds ${MAX_LOGIN_BODY_BYTES} bytes`,
      );
    },
  });

  router.post('/auth/login', loginBodyLimit, jsonBodyGuard(), async (c) => {
    const ip = clientAddress(c, hops);
    const body = await parseJsonBody(c, loginBody);
    const email = body.email.trim().toLowerCase();
    const userAgent = c.req.header('user-agent') ?? null;

    // Reserve BEFORE any await that precedes the password check: check + record are one
    // synchronous step, so a parallel burst cannot pass the check before any attempt is counted.
    const nowMs = deps.now().getTime();
    const reservations: Reservation[] = [];
    const releaseAll = () => reservations.forEach((r) => r.release());
    const refuse = (key: string, retryAfterS: number) => {
      releaseAll();
      // One row per client address per window: refused attempts cannot flood the logs table.
      if (rateLimitLogged.claim(ip, nowMs)) {
        deps.log.warn({ ip }, 'sign-in rate limit hit');
        writeDbLog(deps, 'warn', 'Sign-in rate limit hit', {
          ip,
          retry_after_s: retryAfterS,
          scope: key.startsWith('ip:') ? 'client' : key.startsWith('dev:') ? 'device' : 'account',
        });
      }
      return rateLimited(c, retryAfterS);
    };
    const byIp = limiter.reserve(`ip:${ip}`, nowMs);
    if (!byIp.allowed) return refuse('ip:', byIp.retryAfterS);
    reservations.push(byIp.reservation);
    const accountKey = `acct:${email.slice(0, 320)}`;
    const byAccount = accountLimiter.reserve(accountKey, nowMs);
    if (byAccount.allowed) reservations.push(byAccount.reservation);

    const state = await databaseState(deps);
    if (state !== 'ok') {
      releaseAll();
      const code = state === 'down' ? 'DB_UNAVAILABLE' : 'EMPTY_DATABASE';
      deps.log.error({ code }, 'sign-in refused: database not usable');
      return c.json(
        {
          error: state === 'down' ? 'db_unavailable' : 'empty_database',
          ok: false,
          code,
          message: AUTH_MESSAGES[code],
        },
        503,
      );
    }

    await ensureBootstrapOwner(deps.db, config, deps.now());
    const operator = await findOperatorByEmail(deps.db, email);

    if (!byAccount.allowed) {
      // The account is over its failure limit. Failures typed from other addresses must not lock
      // the operator out, so a browser that already signed in as them (device cookie), or a
      // caller holding a valid second-factor code, still gets a password check; everyone else
      // waits. The device's own failures are counted apart.
      const device = await readDeviceCookie(c, config, deps.now());
      const knownDevice = operator !== null && device?.operatorId === operator.id;
      const otpAccount = operator?.totp_enabled_at != null && operator.totp_secret != null;
      const validOtp =
        otpAccount && body.otp !== undefined && checkOtp(operator, body.otp, nowMs) !== null;
      if (knownDevice) {
        const byDevice = accountLimiter.reserve(`dev:${device.deviceId}`, nowMs);
        if (!byDevice.allowed) return refuse('dev:', byDevice.retryAfterS);
        reservations.push(byDevice.reservation);
      } else if (!validOtp) {
        return refuse(accountKey, byAccount.retryAfterS);
      }
    }

    const slot = await hashSlots.acquire(HASH_WAIT_MS);
    if (!slot) {
      // Saturated: this attempt was not verified, so it does not count either.
      releaseAll();
      deps.log.warn({ ip }, 'sign-in refused: password checks saturated');
      return rateLimited(c, 2);
    }
    // A password check always runs (against the configured hash for an unknown email), so the
    // answer time does not tell which check failed.
    const usable = operator !== null && operator.disabled_at == null && operator.password_hash;
    let passwordMatches: boolean;
    try {
      passwordMatches = await verifyPassword(
        body.password,
        usable ? (operator.password_hash ?? '') : config.adminPasswordHash,
      );
    } finally {
      slot();
    }
    const actor: AuditActor = {
      operatorId: operator?.id ?? null,
      email: operator?.email ?? null,
      ip,
      userAgent,
    };
    const fail = async (code: 'INCORRECT_USER' | 'INCORRECT_PASSWORD' | 'OTP_INVALID') => {
      deps.log.warn({ ip, code }, 'sign-in failed');
      // Never the typed email: a password pasted into the Email field must not reach the logs.
      writeDbLog(deps, 'warn', 'Admin sign-in failed', { code, ip });
      await recordAudit(
        deps.db,
        actor,
        {
          action: 'auth.login_failed',
          target: operator?.email ?? null,
          outcome: 'failed',
          detail: { code },
        },
        deps.now(),
      );
      return c.json({ error: 'unauthorized', ok: false, code, message: AUTH_MESSAGES[code] }, 401);
    };
    if (!usable) return fail('INCORRECT_USER');
    if (!passwordMatches) return fail('INCORRECT_PASSWORD');

    if (operator.totp_enabled_at != null) {
      if (body.recovery_code !== undefined && body.recovery_code.trim() !== '') {
        if (!(await useRecoveryCode(deps.db, operator.id, body.recovery_code, deps.now()))) {
          return fail('OTP_INVALID');
        }
      } else if (body.otp !== undefined && body.otp.trim() !== '') {
        const step = checkOtp(operator, body.otp, deps.now().getTime());
        if (step === null || !(await claimTotpStep(deps.db, operator.id, step))) {
          return fail('OTP_INVALID');
        }
      } else {
        // The password was right: not a failed guess, so nothing counts against the caller.
        releaseAll();
        c.header('Cache-Control', 'no-store');
        return c.json(
          {
            error: 'unauthorized',
            ok: false,
            code: 'OTP_REQUIRED',
            message: AUTH_MESSAGES.OTP_REQUIRED,
          },
          401,
        );
      }
    }

    // Success: the client's failures are forgotten; the account keeps its other failures.
    limiter.reset(`ip:${ip}`);
    reservations.slice(1).forEach((r) => r.release());
    const now = deps.now();
    const token = await deps.db.transaction(async (tx) => {
      const made = await createSession(tx, config, operator, now, { userAgent, ip });
      await recordAudit(
        tx,
        actor,
        {
          action: 'auth.login',
          target: operator.email,
          detail: {
            second_factor:
              operator.totp_enabled_at == null
                ? 'none'
                : body.recovery_code?.trim()
                  ? 'recovery_code'
                  : 'totp',
          },
        },
        now,
      );
      return made.token;
    });
    await pruneSessions(deps.db, now);
    setSessionCookie(c, config, token);
    await setDeviceCookie(c, config, operator.id, now);
    c.header('Cache-Control', 'no-store');
    deps.log.info({ ip, email: operator.email }, 'signed in');
    writeDbLog(deps, 'info', 'Admin signed in', { email: operator.email, ip });
    return c.json({ ok: true, code: 'OK', message: 'Signed in', token });
  });

  /** The step of a valid code of `operator` at `atMs`, or null (no secret, or not valid). */
  const checkOtp = (operator: OperatorRow, code: string, atMs: number): number | null => {
    const base32 = operator.totp_secret ? openSecret(config, operator.totp_secret) : null;
    return base32 ? totpStep(base32, code, atMs) : null;
  };

  // An invitee sets their password (no session yet). The 256-bit token is the credential; the
  // client limit still applies, and the password check shares the hash slots.
  const inviteLimit = async (c: Context) => {
    const ip = clientAddress(c, hops);
    const got = limiter.reserve(`ip:${ip}`, deps.now().getTime());
    if (!got.allowed) return { refused: rateLimited(c, got.retryAfterS) };
    return { reservation: got.reservation, ip };
  };
  router.post('/auth/invite/check', jsonBodyGuard(), async (c) => {
    const { token } = await parseJsonBody(c, inviteTokenBody, { required: true });
    const found = await inviteDetails(deps.db, token, deps.now());
    if (!found) {
      const gate = await inviteLimit(c);
      if ('refused' in gate) return gate.refused;
      throw invalidInvite();
    }
    return c.json({ ok: true, ...found });
  });
  router.post('/auth/invite/accept', jsonBodyGuard(), async (c) => {
    const body = await parseJsonBody(c, inviteAcceptBody, { required: true });
    const gate = await inviteLimit(c);
    if ('refused' in gate) return gate.refused;
    const slot = await hashSlots.acquire(HASH_WAIT_MS);
    if (!slot) {
      gate.reservation.release();
      return rateLimited(c, 2);
    }
    try {
      const now = deps.now();
      const operator = await deps.db.transaction(async (tx) => {
        const accepted = await acceptInvite(tx, body.token, body.password, now);
        await recordAudit(
          tx,
          {
            operatorId: accepted.id,
            email: accepted.email,
            ip: gate.ip,
            userAgent: c.req.header('user-agent') ?? null,
          },
          {
            action: 'operator.invite_accept',
            target: accepted.email,
            detail: { role: accepted.role },
          },
          now,
        );
        return accepted;
      });
      gate.reservation.release();
      deps.log.info({ email: operator.email }, 'invitation accepted');
      return c.json({ ok: true, email: operator.email });
    } finally {
      slot();
    }
  });

  const logout = async (c: Context) => {
    const token = readSessionToken(c, true);
    const session = token ? await authenticateToken(deps, token).catch(() => null) : null;
    clearSessionCookie(c, config);
    if (session) {
      const now = deps.now();
      await deps.db.transaction(async (tx) => {
        await revokeSession(tx, session.sid, now);
        await recordAudit(
          tx,
          {
            operatorId: session.operatorId,
            email: session.email,
            ip: clientAddress(c, hops),
            userAgent: c.req.header('user-agent') ?? null,
          },
          { action: 'auth.logout', target: session.email },
          now,
        );
      });
      deps.log.info({ email: session.email }, 'signed out');
      writeDbLog(deps, 'info', 'Admin signed out', { email: session.email });
    }
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true });
  };
  router.post('/auth/logout', logout);
  router.post('/logout', logout);

  // A caller with no credentials at all is simply not signed in: the sign-in page asks on every
  // load (§2 Login), and that is an answer, not an error. A token that is bad, expired or
  // revoked is still the §8 401.
  router.get('/auth/whoami', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!readSessionToken(c, false)) return c.json({ ok: false, user: null, code: 'NO_TOKEN' });
    const session = await authenticate(c, deps);
    return c.json({
      ok: true,
      user: { email: session.email },
      operator: {
        id: session.operatorId,
        email: session.email,
        name: session.name,
        role: session.role,
        totp_enabled: session.totpEnabled,
      },
      must_enrol_totp: session.mustEnrolTotp,
    });
  });

  return router;
}
