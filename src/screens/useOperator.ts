/**
 * The signed-in operator and what their role allows (docs/api.md "Roles"), from the who-am-I
 * answer the console already keeps. Screens pass `can(min)` and `blockReason(min)` to pure views,
 * which hide or disable what the role cannot do and say why.
 */
import { useQuery } from '@tanstack/react-query';
import { whoamiQueryOptions } from '../api/auth';
import { hasRole, roleBlockReason, type Role } from '../domain/roles';
import type { OperatorIdentity } from '../domain/types';

/** The operator, their role (null when the server names none), and the role checks. */
export interface OperatorAccess {
  operator: OperatorIdentity | null;
  role: Role | null;
  /** Whether the operator may do what needs `min` (true while unknown: the server decides). */
  can: (min: Role) => boolean;
  /** Why the operator may not do what needs `min`, or null when they may. */
  blockReason: (min: Role) => string | null;
}

/** Reads the signed-in operator from the who-am-I query. */
export function useOperator(): OperatorAccess {
  // A role changes rarely, and every refused call is a 403 the screen shows anyway: a minute's
  // staleness keeps this from asking on every mount.
  const whoami = useQuery({ ...whoamiQueryOptions(), staleTime: 60_000 });
  const operator = whoami.data?.operator ?? null;
  const role = operator?.role ?? null;
  return {
    operator,
    role,
    can: (min) => hasRole(role, min),
    blockReason: (min) => roleBlockReason(role, min),
  };
}
