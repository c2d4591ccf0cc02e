/**
 * Operator sessions (CONTRACT.md "Authentication", docs/api.md "Auth"): HS256 JWTs (jose) that
 * name a server-side session row of `admin_sessions` (migrations 009, 014) in their `sid` claim
 * and its operator's id in `sub`. A token is accepted only while its signature, issuer, audience
 * and `exp` hold, and its session row exists, belongs to that operator, is not revoked, is not past
 * its absolute expiry, has not been idle longer than SESSION_IDLE_S, and its operator is not
 * disabled. A session ends only by revocation (sign-out, a password change, the operator being
 * disabled, the operator ending it), expiry or idleness: nothing about the password the server
 * runs with brings an ended session back. Sessions live in the database, so every instance over
 * one database shares them and a revocation is seen by all at once (no in-process cache).
 *
 * Carriers: `Authorization: Bearer <token>` authenticates every API route; the HttpOnly
 * SameSite=Strict cookie `mg_admin_session` authenticates only the live event stream (an
 * EventSource cannot send a header) and logout (see server/auth/routes.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { AppDeps, ServerConfig } from '../context';
import type { Queryable } from '../db/types';
import { isRole, type Role } from './roles';

/** Name of the session cookie (docs/api.md). */
export const SESSION_COOKIE = 'mg_admin_session';
/** Issuer and audience written into every session token. */
export const JWT_ISSUER = 'mg-admin-console';
const JWT_AUDIENCE = 'mg-admin-api';
/** Default idle time-out in seconds (SESSION_IDLE_S). */
export const DEFAULT_SESSION_IDLE_S = 1800;
/** last_seen_at is written at most once per this many ms per session (keeps writes low). */
export const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

/** The authenticated operator and the session the request belongs to. */
export interface AdminSession {
  /** The operator's id (`operators.id`). */
  operatorId: number;
  email: string;
  /** Display name (the header shows it and its initial). */
  name: string;
  role: Role;
  /** Whether the operator signs in with a second factor. */
  totpEnabled: boolean;
  /**
   * True when an owner requires two-factor sign-in and this operator has not enrolled: the session
   * may then only enrol, read who it is, and sign out (server/auth/routes.ts requireAuth).
   */
  mustEnrolTotp: boolean;
  /** The session id (the token's `sid` claim; the database keeps only its SHA-256). */
  sid: string;
}

/** Hono environment of authenticated routes: `c.get('admin')` is the signed-in operator. */
export type AuthEnv = { Variables: { admin: AdminSession } };

/** The operator a new session is made for. */
export interface SessionOperator {
  id: number;
  email: string;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** Hex SHA-256 of a session id, as stored in admin_sessions.id_hash. */
export const sessionIdHash = sha256Hex;

/** Optional request details stored with a new session (for the operator's own diagnostics). */
export interface SessionOrigin {
  userAgent?: string | null;
  ip?: string | null;
}

/**
 * Creates a session row for `operator` at `now` (expires at now + config.sessionTtlS) on `db` and
 * signs its token: HS256, sub = the operator's id, sid, iss, aud, iat = now, exp = now + TTL.
 * Returns the token and the session id. Rejects only when the database does.
 */
export async function createSession(
  db: Queryable,
  config: ServerConfig,
  operator: SessionOperator,
  now: Date,
  origin: SessionOrigin = {},
): Promise<{ token: string; sid: string }> {
  const sid = randomBytes(32).toString('base64url');
  const iat = Math.floor(now.getTime() / 1000);
  const createdAt = new Date(iat * 1000);
  const expiresAt = new Date((iat + config.sessionTtlS) * 1000);
  await db.query(
    `INSERT INTO admin_sessions
       (id_hash, email, operator_id, created_at, last_seen_at, expires_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [
      sha256Hex(sid),
      operator.email,
      operator.id,
      createdAt.toISOString(),
      expiresAt.toISOString(),
      origin.userAgent?.slice(0, 300) ?? null,
      origin.ip?.slice(0, 100) ?? null,
    ],
  );
  const token = await new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(operator.id))
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.sessionTtlS)
    .sign(config.jwtSecret);
  return { token, sid };
}

/**
 * Checks only the token itself at `now`: HS256 signature, issuer, audience, `exp`, a string `sid`
 * and a numeric `sub` (the operator's id). Returns {operatorId, sid} or null (never throws).
 * Not enough on its own: use authenticateToken, which also checks the session row.
 */
export async function verifySessionToken(
  config: ServerConfig,
  token: string,
  now: Date,
): Promise<{ operatorId: number; sid: string } | null> {
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub', 'sid'],
    });
    const { sub, sid } = payload;
    if (typeof sub !== 'string' || !/^[1-9][0-9]{0,15}$/.test(sub)) return null;
    if (typeof sid !== 'string' || sid.length < 20 || sid.length > 100) return null;
    return { operatorId: Number(sub), sid };
  } catch {
    return null;
  }
}

interface SessionRow {
  operator_id: string | number;
  expires_at: Date | string;
  last_seen_at: Date | string;
  revoked_at: Date | string | null;
  email: string;
  name: string;
  role: string;
  disabled_at: Date | string | null;
  totp_enabled_at: Date | string | null;
  require_totp: boolean | null;
}

const ms = (value: Date | string) => new Date(value).getTime();

/**
 * Performs EVERY check of a session token at `deps.now()`: the token's signature, iss, aud, exp
 * and claims, and its session row: present, of the token's operator, not revoked, not past
 * expires_at, not idle longer than config.sessionIdleS (default 1800 s), and its operator not
 * disabled. Returns the session with the operator's current email, name and role (a role change
 * takes effect on the next request), or null when any check fails (never throws for a bad
 * token; rejects only when the database does). One query, by primary key. Refreshes last_seen_at
 * at most once a minute unless `opts.touch` is false: the live event stream re-checks its session
 * on every heartbeat with touch false, so an open tab alone never keeps an idle session alive.
 */
export async function authenticateToken(
  deps: Pick<AppDeps, 'db' | 'config' | 'now'>,
  token: string,
  opts: { touch?: boolean } = {},
): Promise<AdminSession | null> {
  const { config } = deps;
  const now = deps.now();
  const claims = await verifySessionToken(config, token, now);
  if (!claims) return null;
  const idHash = sha256Hex(claims.sid);
  const res = await deps.db.query<SessionRow>(
    `SELECT s.operator_id, s.expires_at, s.last_seen_at, s.revoked_at,
            o.email, o.name, o.role, o.disabled_at, o.totp_enabled_at,
            (SELECT value = 'true'::jsonb FROM console_settings WHERE key = 'require_totp') AS require_totp
       FROM admin_sessions s JOIN operators o ON o.id = s.operator_id
      WHERE s.id_hash = $1`,
    [idHash],
  );
  const row = res.rows[0];
  if (!row || row.revoked_at != null || row.disabled_at != null) return null;
  if (Number(row.operator_id) !== claims.operatorId || !isRole(row.role)) return null;
  const nowMs = now.getTime();
  if (ms(row.expires_at) <= nowMs) return null;
  const idleMs = (config.sessionIdleS ?? DEFAULT_SESSION_IDLE_S) * 1000;
  const lastSeen = ms(row.last_seen_at);
  if (nowMs - lastSeen > idleMs) return null;
  if (opts.touch !== false && nowMs - lastSeen >= LAST_SEEN_WRITE_INTERVAL_MS) {
    await deps.db.query(
      `UPDATE admin_sessions SET last_seen_at = $2
        WHERE id_hash = $1 AND revoked_at IS NULL AND last_seen_at < $2`,
      [idHash, now.toISOString()],
    );
  }
  const totpEnabled = row.totp_enabled_at != null;
  return {
    operatorId: claims.operatorId,
    email: row.email,
    name: row.name,
    role: row.role,
    totpEnabled,
    mustEnrolTotp: row.require_totp === true && !totpEnabled,
    sid: claims.sid,
  };
}

/**
 * Ends every live session of `operatorId` at `now` but `exceptSid` (when given) through `db` (the
 * change's transaction); returns how many ended. Open event streams notice on their next
 * heartbeat check, and at once through the live hub's session-end event (server/live/stream.ts).
 */
export async function revokeOperatorSessions(
  db: Queryable,
  operatorId: number,
  now: Date,
  exceptSid?: string,
): Promise<number> {
  const res = await db.query(
    `UPDATE admin_sessions SET revoked_at = $2
      WHERE operator_id = $1 AND revoked_at IS NULL AND ($3::text IS NULL OR id_hash <> $3)`,
    [operatorId, now.toISOString(), exceptSid ? sha256Hex(exceptSid) : null],
  );
  return res.affectedRows ?? 0;
}

/** Marks the session `sid` revoked at `now` (idempotent; a revoked session is refused everywhere at once). */
export async function revokeSession(db: Queryable, sid: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE admin_sessions SET revoked_at = $2 WHERE id_hash = $1 AND revoked_at IS NULL',
    [sha256Hex(sid), now.toISOString()],
  );
}

/** Deletes session rows that expired more than a day before `now` (run at sign-in; cheap, indexed). */
export async function pruneSessions(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM admin_sessions WHERE expires_at < $1', [
    new Date(now.getTime() - 86_400_000).toISOString(),
  ]);
}

/** The Bearer token of the request, or null. */
export function readBearerToken(c: Context): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/** The session cookie's token, or null. */
export function readCookieToken(c: Context): string | null {
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? cookie : null;
}

/**
 * The token the request carries: the Bearer header first, then — only when `allowCookie` (the
 * event stream, logout) — the session cookie; null when none.
 */
export function readSessionToken(c: Context, allowCookie = false): string | null {
  return readBearerToken(c) ?? (allowCookie ? readCookieToken(c) : null);
}

/** Whether the session cookie carries `Secure`: COOKIE_SECURE when set, else only for an https request URL. */
function cookieSecure(c: Context, config: ServerConfig): boolean {
  if (config.cookieSecure != null) return config.cookieSecure;
  return new URL(c.req.url).protocol === 'https:';
}

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path = API prefix, Max-Age = TTL (s), Secure per COOKIE_SECURE. */
export function setSessionCookie(c: Context, config: ServerConfig, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: config.apiPrefix,
    maxAge: config.sessionTtlS,
    secure: cookieSecure(c, config),
  });
}

/** Clears the session cookie (same attributes, Max-Age=0 and an expiry in the past). */
export function clearSessionCookie(c: Context, config: ServerConfig): void {
  deleteCookie(c, SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'Strict',
    path: config.apiPrefix,
    secure: cookieSecure(c, config),
  });
}
