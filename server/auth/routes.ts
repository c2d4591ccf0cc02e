/**
 * Sign-in, sign-out, who-am-I and the authentication middleware (specification §7 auth calls,
 * §8 login codes; CONTRACT.md "Authentication"; docs/api.md "Auth").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { parseJsonBody } from '../http/body';
import { writeDbLog } from '../logging';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from './rateLimit';
import { verifyPassword } from './password';
import {
  clearSessionCookie,
  readSessionToken,
  setSessionCookie,
  signSessionToken,
  verifySessionToken,
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
  email: z.string().max(320),
  password: z.string().max(1024),
});

/** The 401 of docs/api.md: `{error:'unauthorized', ok:false, code, message}`. */
function unauthorized(code: 'NO_TOKEN' | 'INVALID_JWT'): ApiError {
  return new ApiError(401, 'unauthorized', AUTH_MESSAGES[code], { ok: false, code });
}

/**
 * The client address used for rate limiting: the socket's remote address, or the first
 * X-Forwarded-For entry when `trustProxy` is on; 'unknown' when neither exists (in-process tests).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time equality of two strings (compares SHA-256 digests, so lengths do not leak). */
export function constantTimeEquals(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Verifies the request's Bearer token or session cookie at `deps.now()`; returns the session or
 * throws the 401 ApiError with code NO_TOKEN ('Please sign in.') or INVALID_JWT ('Your session
 * has expired. Please sign in again.') (§8).
 */
export async function authenticate(c: Context, deps: AppDeps): Promise<AdminSession> {
  const token = readSessionToken(c);
  if (!token) throw unauthorized('NO_TOKEN');
  const session = await verifySessionToken(deps.config, token, deps.now());
  if (!session) throw unauthorized('INVALID_JWT');
  return session;
}

/** Middleware guarding every API route after it: sets `c.var.admin` or answers the §8 401 (CONTRACT.md). */
export function requireAuth(deps: AppDeps): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    c.set('admin', await authenticate(c, deps));
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

/** At most one claim per key per `windowMs` (the rate-limit log rows); forgets keys after a window; bounded at 10 000 keys. */
export function createOncePerWindow(windowMs: number, maxKeys = 10_000): OncePerWindow {
  const last = new Map<string, number>();
  return {
    claim(key, nowMs) {
      const at = last.get(key);
      if (at !== undefined && nowMs - at < windowMs) return false;
      if (last.size >= maxKeys) {
        for (const [k, t] of last) if (nowMs - t >= windowMs) last.delete(k);
        // Still full: refuse rather than grow (the limiter itself keeps answering 429).
        if (last.size >= maxKeys) return false;
      }
      last.set(key, nowMs);
      return true;
    },
    size: () => last.size,
  };
}

/** Options for the auth router; tests inject a limiter. */
export interface AuthRouterOptions {
  limiter?: SlidingWindowLimiter;
}

/**
 * Public auth routes (relative to the API prefix): POST /auth/login `{email, password}` → 200
 * `{ok:true, code:'OK', message:'Signed in', token}` + session cookie; 401 INCORRECT_USER /
 * INCORRECT_PASSWORD; 503 DB_UNAVAILABLE / EMPTY_DATABASE; 429 RATE_LIMITED with Retry-After (s)
 * after too many failures per client address; POST /auth/logout and POST /logout → 200 `{ok:true}`
 * clearing the cookie; GET /auth/whoami → `{ok:true, user:{email}}` or the §8 401 (docs/api.md).
 */
export function createAuthRouter(deps: AppDeps, options: AuthRouterOptions = {}): Hono {
  const { config } = deps;
  const limits = config.loginRateLimit ?? { maxAttempts: 10, windowS: 900 };
  const limiter =
    options.limiter ?? createSlidingWindowLimiter(limits.maxAttempts, limits.windowS * 1000);
  const rateLimitLogged = createOncePerWindow(limits.windowS * 1000);
  const router = new Hono();

  router.post('/auth/login', async (c) => {
    const ip = clientAddress(c, config.trustProxy ?? false);
    const nowMs = deps.now().getTime();
    const decision = limiter.check(ip, nowMs);
    if (!decision.allowed) {
      // One row per client address per window: refused attempts cannot flood the logs table.
      if (rateLimitLogged.claim(ip, nowMs)) {
        deps.log.warn({ ip }, 'sign-in rate limit hit');
        writeDbLog(deps, 'warn', 'Sign-in rate limit hit', {
          ip,
          retry_after_s: decision.retryAfterS,
        });
      }
      c.header('Retry-After', String(decision.retryAfterS));
      return c.json(
        {
          error: 'rate_limited',
          ok: false,
          code: 'RATE_LIMITED',
          message: `Too many sign-in attempts. Try again in ${decision.retryAfterS} seconds.`,
          retry_after_s: decision.retryAfterS,
        },
        429,
      );
    }

    const body = await parseJsonBody(c, loginBody);
    const email = body.email.trim().toLowerCase();

    const state = await databaseState(deps);
    if (state !== 'ok') {
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
    const passwordMatches = await verifyPassword(body.password, config.adminPasswordHash);
    if (!emailMatches || !passwordMatches) {
      limiter.record(ip, nowMs);
      const code = !emailMatches ? 'INCORRECT_USER' : 'INCORRECT_PASSWORD';
      deps.log.warn({ ip, code }, 'sign-in failed');
      // Never the typed email: a password pasted into the Email field must not reach the logs.
      writeDbLog(deps, 'warn', 'Admin sign-in failed', { code, ip });
      return c.json({ error: 'unauthorized', ok: false, code, message: AUTH_MESSAGES[code] }, 401);
    }

    const token = await signSessionToken(config, config.adminEmail, deps.now());
    setSessionCookie(c, config, token);
    c.header('Cache-Control', 'no-store');
    deps.log.info({ ip, email: config.adminEmail }, 'signed in');
    writeDbLog(deps, 'info', 'Admin signed in', { email: config.adminEmail, ip });
    return c.json({ ok: true, code: 'OK', message: 'Signed in', token });
  });

  const logout = async (c: Context) => {
    const token = readSessionToken(c);
    const session = token ? await verifySessionToken(config, token, deps.now()) : null;
    clearSessionCookie(c, config);
    if (session) {
      deps.log.info({ email: session.email }, 'signed out');
      writeDbLog(deps, 'info', 'Admin signed out', { email: session.email });
    }
    return c.json({ ok: true });
  };
  router.post('/auth/logout', logout);
  router.post('/logout', logout);

  router.get('/auth/whoami', async (c) => {
    const session = await authenticate(c, deps);
    c.header('Cache-Control', 'no-store');
    return c.json({ ok: true, user: { email: session.email } });
  });

  return router;
}
