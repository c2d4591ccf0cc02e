/**
 * Operator roles and the permission check every API route goes through (docs/api.md "Roles").
 * Roles are ordered: each one has every right of the roles before it.
 *
 * | role      | may                                                              |
 * |-----------|------------------------------------------------------------------|
 * | `viewer`  | read every screen                                                |
 * | `support` | + the five access actions, enforce-now, forum retries            |
 * | `admin`   | + maintenance runs, pings, diagnostics, replays, reconciliation  |
 * | `owner`   | + managing operators and the two-factor policy                   |
 *
 * A route states the least role it needs with `requireRole(min)`; a refused call answers
 * 403 `{error:'forbidden', ok:false, code:'FORBIDDEN', message}`. The check is a comparison of two
 * small integers on the session the authentication middleware already loaded: no database read.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import type { AuthEnv } from './session';

/** The roles, least to most privileged. */
export const ROLES = ['viewer', 'support', 'admin', 'owner'] as const;
/** An operator's role. */
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, support: 1, admin: 2, owner: 3 };

/** Whether `role` is one of ROLES (for values read from the database or a request). */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** Whether an operator with `role` has every right of `min`. */
export function hasRole(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}

/** What each role may do, in the words the 403 message and the console use. */
export const ROLE_RIGHTS: Record<Role, string> = {
  viewer: 'read every screen',
  support: 'run access actions and enforce-now',
  admin: 'run maintenance, pings and diagnostics',
  owner: 'manage operators',
};

/** The 403 of a role that may not make a call. */
export function forbidden(min: Role): ApiError {
  return new ApiError(
    403,
    'forbidden',
    `Only ${min} operators and above may ${ROLE_RIGHTS[min]}.`,
    {
      ok: false,
      code: 'FORBIDDEN',
      required_role: min,
    },
  );
}

/**
 * Middleware refusing operators below `min` with the 403 above. Mount it on a route after the
 * authentication middleware (which sets `c.var.admin`); a request without a session never gets
 * here (it has had its 401).
 */
export function requireRole(min: Role): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const admin = c.get('admin') as AuthEnv['Variables']['admin'] | undefined;
    // Mounted without the authentication middleware in front: refuse rather than guess.
    if (!admin)
      throw new ApiError(401, 'unauthorized', 'Please sign in.', { ok: false, code: 'NO_TOKEN' });
    if (!hasRole(admin.role, min)) throw forbidden(min);
    await next();
  };
}
