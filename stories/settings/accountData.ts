/**
 * The account fixtures (tests/msw/fixtures-account.ts) in the console's inside shapes, for the
 * view stories; the screen stories get the same data through MSW and src/api.
 */
import type { AccountSession, OperatorSummary } from '../../src/domain/account';
import type { Role } from '../../src/domain/roles';
import {
  LONG_AGENT_SESSIONS_WIRE,
  OPERATORS_WIRE,
  RECOVERY_CODES_WIRE,
  SESSIONS_WIRE,
  TOTP_SETUP_WIRE,
} from '../../tests/msw/fixtures-account';

type SessionWire =
  (typeof SESSIONS_WIRE.sessions)[number] | (typeof LONG_AGENT_SESSIONS_WIRE.sessions)[number];

function session(s: SessionWire): AccountSession {
  return {
    id: s.id,
    createdAt: s.created_at,
    lastSeenAt: s.last_seen_at,
    expiresAt: s.expires_at,
    ip: s.ip,
    userAgent: s.user_agent,
    isCurrent: s.current,
  };
}

/** This browser, a phone and a laptop. */
export const SESSIONS: readonly AccountSession[] = SESSIONS_WIRE.sessions.map(session);
/** This browser and an agent with a long, unknown user agent and no address. */
export const LONG_AGENT_SESSIONS: readonly AccountSession[] =
  LONG_AGENT_SESSIONS_WIRE.sessions.map(session);

/** The team: an owner (id 1, the signed-in one), admin, support, an invite, a disabled viewer. */
export const OPERATORS: readonly OperatorSummary[] = OPERATORS_WIRE.operators.map((o) => ({
  id: o.id,
  email: o.email,
  name: o.name,
  role: o.role as Role,
  status: o.status as OperatorSummary['status'],
  totpEnabled: o.totp_enabled,
  createdAt: o.created_at,
  lastSeenAt: o.last_seen_at,
  inviteExpiresAt: o.invite_expires_at,
}));

/** The set-up answer. */
export const SETUP = { secret: TOTP_SETUP_WIRE.secret, otpauthUrl: TOTP_SETUP_WIRE.otpauth_url };
/** The 10 recovery codes. */
export const RECOVERY_CODES: readonly string[] = RECOVERY_CODES_WIRE.recovery_codes;
