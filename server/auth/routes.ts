/**
 * Sign-in, sign-out, who-am-I and the authentication middleware (specification §7 auth calls,
 * §8 login codes; CONTRACT.md "Authentication"; docs/api.md "Auth").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { jsonBodyGuard, parseJsonBody } from '../http/body';
import { plainText } from '../http/fields';
import { writeDbLog } from '../logging';
import { verifyPassword } from './password';
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
  INVALID_JWT: 'Your session has expired. Please sign in again.',
  NO_TOKEN: 'Please sign in.',
  EMPTY_DATABASE: 'The database is empty or not initialized.',
  DB_UNAVAILABLE: 'Backend database is currently unavailable.',
} as const;

/** Hono environment of authenticated routes: `c.get('admin')` is the signed-in operator. */
export type AuthEnv = { Variables: { admin: AdminSession } };

const loginBody = z.object({
  email: plainText('email').pipe(z.string().max(320)),
  // A password is only ever hashed, never stored or searched: any text the admin chose is fine.
  password: z.string().max(1024),
});

/** The 401 of docs/api.md: `{error:'unauthorized', ok:false, code, message}`. */
function unauthorized(code: 'NO_TOKEN' | 'INVALID_JWT'): ApiError {
  return new ApiError(401, 'unauthorized', AUTH_MESSAGES[code], { ok: false, code });
}

/**
 * The client address used for rate limiting and logs. With `trustedHops` = 0
 * (default) it is the socket's remote address and X-Forwarded-For is ignored. With n > 0 reverse
 * proxies in front, each appending the address it saw to X-Forwarded-For, it is the n-th entry
 * from the RIGHT (the one the outermost trusted proxy wrote); entries further left are
 * client-controlled and never used. When the header has fewer entries, the leftmost one is used.
 * 'unknown' when there is no socket (in-process tests without an env).
 */
export function clientAddress(c: Context, trustedHops: number): string {
  let socket = 'unknown';
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // in-process request without a socket
  }
  if (trustedHops <= 0) return socket;
  const entries = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) return socket;
  const pick = entries[Math.max(0, entries.length - trustedHops)] ?? socket;
  return pick.slice(0, 100);
}

/** The configured number of trusted proxy hops (TRUSTED_PROXY_HOPS; TRUST_PROXY=true counts as 1). */
export function trustedHops(config: AppDeps['config']): number {
  return config.trustedProxyHops ?? (config.trustProxy ? 1 : 0);
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
  const streamPath = `${deps.config.apiPrefix}${EVENT_STREAM_PATH}`;
  return async (c, next) => {
    const allowCookie = c.req.method === 'GET' && c.req.path === streamPath;
    c.set('admin', await authenticate(c, deps, allowCookie));
    await next();
  };
}

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
 * Public auth routes (relative to the API prefix): POST /auth/login `{email, password}` (≤ 4 KiB,
 * else 413) → 200 `{ok:true, code:'OK', message:'Signed in', token}` + session cookie and a new
 * server-side session; 401 INCORRECT_USER / INCORRECT_PASSWORD; 503 DB_UNAVAILABLE /
 * EMPTY_DATABASE; 429 RATE_LIMITED with Retry-After (s) when the client address or the account has
 * too many failures in the window, or when the password checks are saturated; POST /auth/logout
 * and POST /logout → 200 `{ok:true}`, revoking the session of the Bearer token or cookie and
 * clearing the cookie; GET /auth/whoami (Bearer) → `{ok:true, user:{email}}`, without a token
 * `{ok:false, user:null, code:'NO_TOKEN'}`, with a bad one the §8 401.
 */
export function createAuthRouter(deps: AppDeps, options: AuthRouterOptions = {}): Hono {
  const { config } = deps;
  const limits = config.loginRateLimit ?? { maxAttempts: 10, windowS: 900 };
  const limiter =
    options.limiter ?? createSlidingWindowLimiter(limits.maxAttempts, limits.windowS * 1000);
  const accountLimiter =
    options.accountLimiter ??
    createSlidingWindowLimiter(
      config.loginAccountRateMax ?? limits.maxAttempts * 3,
      limits.windowS * 1000,
    );
  const hashSlots = options.hashSlots ?? createSemaphore(config.loginHashConcurrency ?? 2);
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

    // Reserve BEFORE any await that precedes the password check: check + record are one
    // synchronous step, so a parallel burst cannot pass the check before any attempt is counted.
    const nowMs = deps.now().getTime();
    const reservations: Reservation[] = [];
    const releaseAll = () => reservations.forEach((r) => r.release());
    for (const [lim, key] of [
      [limiter, `ip:${ip}`],
      [accountLimiter, `acct:${email.slice(0, 320)}`],
    ] as const) {
      const got = lim.reserve(key, nowMs);
      if (!got.allowed) {
        releaseAll();
        // One row per client address per window: refused attempts cannot flood the logs table.
        if (rateLimitLogged.claim(ip, nowMs)) {
          deps.log.warn({ ip }, 'sign-in rate limit hit');
          writeDbLog(deps, 'warn', 'Sign-in rate limit hit', {
            ip,
            retry_after_s: got.retryAfterS,
            scope: key.startsWith('ip:') ? 'client' : 'account',
          });
        }
        return rateLimited(c, got.retryAfterS);
      }
      reservations.push(got.reservation);
    }

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

    // Both checks always run, so the answer time does not tell which one failed.
    const emailMatches = constantTimeEquals(email, config.adminEmail);
    const slot = await hashSlots.acquire(HASH_WAIT_MS);
    if (!slot) {
      // Saturated: this attempt was not verified, so it does not count either.
      releaseAll();
      deps.log.warn({ ip }, 'sign-in refused: password checks saturated');
      return rateLimited(c, 2);
    }
    let passwordMatches: boolean;
    try {
      passwordMatches = await verifyPassword(body.password, config.adminPasswordHash);
    } finally {
      slot();
    }
    if (!emailMatches || !passwordMatches) {
      const code = !emailMatches ? 'INCORRECT_USER' : 'INCORRECT_PASSWORD';
      deps.log.warn({ ip, code }, 'sign-in failed');
      // Never the typed email: a password pasted into the Email field must not reach the logs.
      writeDbLog(deps, 'warn', 'Admin sign-in failed', { code, ip });
      return c.json({ error: 'unauthorized', ok: false, code, message: AUTH_MESSAGES[code] }, 401);
    }

    // Success: the client's failures are forgotten; the account keeps its other failures.
    limiter.reset(`ip:${ip}`);
    reservations[1]?.release();
    const now = deps.now();
    const { token } = await createSession(deps.db, config, config.adminEmail, now, {
      userAgent: c.req.header('user-agent') ?? null,
      ip,
    });
    await pruneSessions(deps.db, now);
    setSessionCookie(c, config, token);
    c.header('Cache-Control', 'no-store');
    deps.log.info({ ip, email: config.adminEmail }, 'signed in');
    writeDbLog(deps, 'info', 'Admin signed in', { email: config.adminEmail, ip });
    return c.json({ ok: true, code: 'OK', message: 'Signed in', token });
  });

  const logout = async (c: Context) => {
    const token = readSessionToken(c, true);
    const session = token ? await authenticateToken(deps, token).catch(() => null) : null;
    clearSessionCookie(c, config);
    if (session) {
      await revokeSession(deps.db, session.sid, deps.now());
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
    return c.json({ ok: true, user: { email: session.email } });
  });

  return router;
}
