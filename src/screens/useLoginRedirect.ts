/**
 * Where sign-in leads (§2 Routing, §6; CONTRACT.md Authentication). The route guard and the 401
 * handler send the operator to /login with the location they were at in the navigation state;
 * after a successful login the console returns there, otherwise to '/'.
 */
import { useLocation } from 'react-router-dom';

/** The login route, relative to the /admin basename. */
export const LOGIN_PATH = '/login';
/** Where an operator an owner requires to enrol in two-factor sign-in goes before anything else. */
export const ENROLMENT_PATH = '/settings?enrol=1';
/** Where sign-in leads when nothing was remembered: the dashboard (§2 Routing). */
export const HOME_PATH = '/';

/** A remembered location, relative to the /admin basename. */
export interface RememberedLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** Why the operator was sent to /login: the guard found no token, or a call answered 401. */
export type LoginReason = 'signed_out' | 'session_expired';

/** The navigation state the guard and the 401 handler put on /login. */
export interface LoginLocationState {
  from: RememberedLocation;
  reason: LoginReason;
}

/**
 * The state to navigate to /login with: the origin location (pathname + search + hash) and why.
 * e.g. loginRedirectState({pathname: '/users', search: '?page=2', hash: ''}, 'signed_out').
 */
export function loginRedirectState(
  location: Pick<RememberedLocation, 'pathname'> & Partial<RememberedLocation>,
  reason: LoginReason,
): LoginLocationState {
  return {
    from: { pathname: location.pathname, search: location.search ?? '', hash: location.hash ?? '' },
    reason,
  };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/**
 * The path to return to after sign-in, read from /login's navigation state: the remembered
 * pathname + search + hash, or '/' when none was remembered or it is unusable (not a path inside
 * the console, or /login itself, which would loop).
 */
export function rememberedPath(state: unknown): string {
  const from = asRecord(asRecord(state)?.from);
  const pathname = from?.pathname;
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname.startsWith('//')) {
    return HOME_PATH;
  }
  if (pathname.replace(/\/+$/, '').toLowerCase() === LOGIN_PATH) return HOME_PATH;
  const search = typeof from?.search === 'string' ? from.search : '';
  const hash = typeof from?.hash === 'string' ? from.hash : '';
  return `${pathname}${search}${hash}`;
}

/** Whether /login was reached because a call answered 401 (the session ended while in use). */
export function hasSessionExpired(state: unknown): boolean {
  return asRecord(state)?.reason === 'session_expired';
}

/** Hook: where to go after sign-in, and whether the session had expired, for the current /login visit. */
export function useLoginRedirect(): { target: string; hasSessionExpired: boolean } {
  const { state } = useLocation();
  return { target: rememberedPath(state), hasSessionExpired: hasSessionExpired(state) };
}
