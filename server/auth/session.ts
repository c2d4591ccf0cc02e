/**
 * Admin sessions: HS256 JWTs (jose) carried as `Authorization: Bearer` or the HttpOnly
 * SameSite=Strict cookie `mg_admin_session` whose path is the API prefix (CONTRACT.md
 * "Authentication", docs/api.md "Auth").
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { AppDeps, ServerConfig } from '../context';

/** Name of the session cookie (docs/api.md). */
export const SESSION_COOKIE = 'mg_admin_session';
/** Issuer and audience written into every session token. */
export const JWT_ISSUER = 'mg-admin-console';
const JWT_AUDIENCE = 'mg-admin-api';

/** The authenticated operator. */
export interface AdminSession {
  email: string;
}

/** Signs a session JWT for `email`: HS256, iat = `now`, exp = now + config.sessionTtlS seconds. */
export async function signSessionToken(
  config: ServerConfig,
  email: string,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(email)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.sessionTtlS)
    .sign(config.jwtSecret);
}

/**
 * Verifies a session JWT at time `now` (HS256 only, issuer/audience/exp checked); returns the
 * session, or null for any garbled, forged, foreign or expired token (never throws).
 */
export async function verifySessionToken(
  config: ServerConfig,
  token: string,
  now: Date,
): Promise<AdminSession | null> {
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    return typeof payload.sub === 'string' && payload.sub ? { email: payload.sub } : null;
  } catch {
    return null;
  }
}

/** The token the request carries: the Bearer header first, else the session cookie; null when none. */
export function readSessionToken(c: Context): string | null {
  const header = c.req.header('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m?.[1]) return m[1];
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? cookie : null;
}

/** True when the request reached us over https (directly or per X-Forwarded-Proto). */
function isHttps(c: Context): boolean {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded === 'https') return true;
  return new URL(c.req.url).protocol === 'https:';
}

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path = API prefix, Max-Age = TTL (s), Secure on https. */
export function setSessionCookie(c: Context, config: ServerConfig, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: config.apiPrefix,
    maxAge: config.sessionTtlS,
    secure: isHttps(c),
  });
}

/** Clears the session cookie (same attributes, Max-Age=0 and an expiry in the past). */
export function clearSessionCookie(c: Context, config: ServerConfig): void {
  deleteCookie(c, SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'Strict',
    path: config.apiPrefix,
    secure: isHttps(c),
  });
}

/**
 * (Re)validates a session token at `deps.now()` → the session, or null when it is garbled,
 * forged, foreign or expired (never throws). The live event stream calls it when a stream opens
 * and on every heartbeat, so a stream ends when its session does (issue 9 item 5). Thin wrapper
 * over verifySessionToken for now; revocable sessions (issue 10) add their checks here.
 */
export async function authenticateToken(
  deps: Pick<AppDeps, 'config' | 'now'>,
  token: string,
): Promise<AdminSession | null> {
  return verifySessionToken(deps.config, token, deps.now());
}
