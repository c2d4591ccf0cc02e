/**
 * Operator roles as the console shows them (docs/api.md "Roles"): each role has every right of
 * the roles before it. The server enforces them on every route; the console hides or disables
 * what the signed-in role cannot do and says why, with the sentences below.
 */

/** The roles, least to most privileged. */
export const ROLES = ['viewer', 'support', 'admin', 'owner'] as const;
/** An operator's role. */
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, support: 1, admin: 2, owner: 3 };

/** Whether `value` is one of ROLES. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/**
 * Whether an operator with `role` has every right of `min`. An unknown role (a backend that
 * does not name one) counts as every right: the server still refuses what it must.
 */
export function hasRole(role: Role | null | undefined, min: Role): boolean {
  if (role == null) return true;
  return RANK[role] >= RANK[min];
}

/** What each role adds, in the words of the "why" sentences. */
export const ROLE_RIGHTS: Record<Role, string> = {
  viewer: 'read every screen',
  support: 'run access actions and enforce-now',
  admin: 'run maintenance, pings and diagnostics',
  owner: 'manage operators',
};

/** The role names as the console shows them. */
export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  support: 'Support',
  admin: 'Admin',
  owner: 'Owner',
};

/**
 * Why an operator with `role` cannot do what needs `min`, or null when they can, e.g.
 * "Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support."
 */
export function roleBlockReason(role: Role | null | undefined, min: Role): string | null {
  if (hasRole(role, min) || role == null) return null;
  return `Your role (${ROLE_LABELS[role]}) cannot ${ROLE_RIGHTS[min]}: ask an owner for ${ROLE_LABELS[min]}.`;
}
