/**
 * The Settings screen's calls (docs/api.md "Operators", "Account"; the reference
 * server's server/auth/accountRoutes.ts): the operator's own password, sessions and two-factor
 * sign-in, and, for owners, the operators, their invitations and the two-factor policy. Answers
 * are checked with zod here and normalised into the shapes of src/domain/account.ts. Refusals
 * reject with ApiError; `apiErrorCode` reads their `code` (INCORRECT_PASSWORD, WEAK_PASSWORD,
 * OTP_INVALID, TOTP_REQUIRED_BY_POLICY, OPERATOR_EXISTS, LAST_OWNER, FORBIDDEN…).
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from './zod';
import type {
  AccountSession,
  InviteOperatorInput,
  OperatorInvite,
  OperatorList,
  OperatorSummary,
} from '../domain/account';
import { isRole, type Role } from '../domain/roles';
import { ApiError, apiRequest } from './client';
import { queryKeys } from './queryKeys';
import { asObject, readString, wireBool, wireId, wireInt, wireString } from './wire';

/** The `code` of a refused call's JSON (`{error, message, code}`), or null. */
export function apiErrorCode(error: unknown): string | null {
  return error instanceof ApiError ? readString(asObject(error.payload)?.code) : null;
}

/* ---- My account ---- */

const sessionWire = z.object({
  id: z.string(),
  created_at: wireString,
  last_seen_at: wireString,
  expires_at: wireString,
  ip: wireString,
  user_agent: wireString,
  current: wireBool,
});
const sessionsWire = z.object({ sessions: z.array(sessionWire) });

/** GET /auth/sessions → the signed-in operator's open sessions, newest first. */
export async function fetchSessions(signal?: AbortSignal): Promise<AccountSession[]> {
  const answer = await apiRequest('/auth/sessions', { schema: sessionsWire, signal });
  return answer.sessions.map((s) => ({
    id: s.id,
    createdAt: s.created_at ?? '',
    lastSeenAt: s.last_seen_at ?? '',
    expiresAt: s.expires_at ?? '',
    ip: s.ip,
    userAgent: s.user_agent,
    isCurrent: s.current === true,
  }));
}

/** Query: the operator's sessions. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.account.sessions(),
    queryFn: ({ signal }) => fetchSessions(signal),
  });
}

/** DELETE /auth/sessions/:id → ends one of the operator's other sessions (404 when already gone). */
export async function endSession(id: string): Promise<void> {
  await apiRequest(`/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

const passwordWire = z.object({ sessions_ended: wireInt });

/**
 * POST /auth/password {current, next} → how many other sessions it ended. 400 INCORRECT_PASSWORD
 * (wrong current) or WEAK_PASSWORD (the rule refuses `next`), each with the message to show.
 */
export async function changePassword(current: string, next: string): Promise<number> {
  const answer = await apiRequest('/auth/password', {
    method: 'POST',
    body: { current, next },
    schema: passwordWire,
  });
  return answer.sessions_ended ?? 0;
}

const setupWire = z.object({ secret: z.string(), otpauth_url: z.string() });

/** POST /auth/totp/setup → a new, not yet confirmed secret (base32) and its otpauth:// URL. */
export async function startTotpSetup(): Promise<{ secret: string; otpauthUrl: string }> {
  const answer = await apiRequest('/auth/totp/setup', { method: 'POST', schema: setupWire });
  return { secret: answer.secret, otpauthUrl: answer.otpauth_url };
}

const enableWire = z.object({ recovery_codes: z.array(z.string()) });

/** POST /auth/totp/enable {otp} → the 10 single-use recovery codes, shown once. 400 OTP_INVALID. */
export async function enableTotp(otp: string): Promise<string[]> {
  const answer = await apiRequest('/auth/totp/enable', {
    method: 'POST',
    body: { otp: otp.replace(/\s+/g, '') },
    schema: enableWire,
  });
  return answer.recovery_codes;
}

/**
 * POST /auth/totp/disable {password, otp}. 400 INCORRECT_PASSWORD or OTP_INVALID; 409
 * TOTP_REQUIRED_BY_POLICY while an owner requires two-factor sign-in.
 */
export async function disableTotp(password: string, otp: string): Promise<void> {
  await apiRequest('/auth/totp/disable', {
    method: 'POST',
    body: { password, otp: otp.replace(/\s+/g, '') },
  });
}

/* ---- Operators (owners) ---- */

const operatorWire = z.object({
  id: wireId,
  email: z.string(),
  name: wireString,
  role: z.optional(z.unknown()),
  status: wireString,
  totp_enabled: wireBool,
  created_at: wireString,
  last_seen_at: wireString,
  invite_expires_at: wireString,
});
type OperatorWire = z.infer<typeof operatorWire>;

function toOperator(o: OperatorWire): OperatorSummary {
  const role: Role = isRole(o.role) ? o.role : 'viewer';
  const status = o.status === 'disabled' || o.status === 'invited' ? o.status : 'active';
  return {
    id: o.id,
    email: o.email,
    name: o.name ?? o.email,
    role,
    status,
    totpEnabled: o.totp_enabled === true,
    createdAt: o.created_at,
    lastSeenAt: o.last_seen_at,
    inviteExpiresAt: o.invite_expires_at,
  };
}

const operatorsWire = z.object({ operators: z.array(operatorWire), require_totp: wireBool });

/** GET /operators → the operators (owners first) and the two-factor policy. 403 FORBIDDEN below owner. */
export async function fetchOperators(signal?: AbortSignal): Promise<OperatorList> {
  const answer = await apiRequest('/operators', { schema: operatorsWire, signal });
  return { operators: answer.operators.map(toOperator), requireTotp: answer.require_totp === true };
}

/** Query: the operators (owners only). */
export function operatorsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.operators.list(),
    queryFn: ({ signal }) => fetchOperators(signal),
  });
}

const inviteWire = z.object({
  operator: operatorWire,
  invite: z.object({ url: z.string(), expires_at: wireString }),
});

/** POST /operators {email, name, role} → the invitation link (no mail is sent). 409 OPERATOR_EXISTS. */
export async function inviteOperator(input: InviteOperatorInput): Promise<OperatorInvite> {
  const answer = await apiRequest('/operators', {
    method: 'POST',
    body: { email: input.email.trim(), name: input.name.trim(), role: input.role },
    schema: inviteWire,
  });
  return {
    email: answer.operator.email,
    name: answer.operator.name ?? answer.operator.email,
    url: answer.invite.url,
    expiresAt: answer.invite.expires_at ?? '',
  };
}

const patchWire = z.object({ sessions_ended: wireInt });

/**
 * PATCH /operators/:id {role?, disabled?} → how many of their sessions it ended (disabling ends
 * them all). 409 LAST_OWNER when it would leave no active owner.
 */
export async function updateOperator(
  id: number,
  change: { role?: Role; disabled?: boolean },
): Promise<number> {
  const answer = await apiRequest(`/operators/${id}`, {
    method: 'PATCH',
    body: change,
    schema: patchWire,
  });
  return answer.sessions_ended ?? 0;
}

const policyWire = z.object({ require_totp: wireBool });

/** PUT /auth/policy {require_totp} → the policy now in force. */
export async function setRequireTotp(requireTotp: boolean): Promise<boolean> {
  const answer = await apiRequest('/auth/policy', {
    method: 'PUT',
    body: { require_totp: requireTotp },
    schema: policyWire,
  });
  return answer.require_totp === true;
}
