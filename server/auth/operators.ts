/**
 * Operator accounts (docs/api.md "Operators"): the bootstrap owner, invites, role changes,
 * disabling, password changes, two-factor enrolment and recovery codes. Every change here runs in
 * one transaction with its audit row (server/audit/audit.ts), and ends the sessions it must in the
 * same transaction.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ServerConfig } from '../context';
import type { Queryable, Tx } from '../db/types';
import { ApiError, badRequest, notFound } from '../errors';
import { hashPassword } from './password';
import { passwordProblem } from './passwordPolicy';
import { isRole, type Role } from './roles';
import { newRecoveryCodes, recoveryCodeHash, sealSecret } from './totp';

/** The display name of the operator created from ADMIN_EMAIL / ADMIN_PASSWORD. */
export const BOOTSTRAP_NAME = 'Admin';
/** How long an invitation link stays valid (ms): 72 hours. */
export const INVITE_TTL_MS = 72 * 3600_000;

/** An operator as the API shows it (never its hash or secret). */
export interface OperatorView {
  id: number;
  email: string;
  name: string;
  role: Role;
  /** 'active', 'disabled', or 'invited' (no password set yet). */
  status: 'active' | 'disabled' | 'invited';
  totp_enabled: boolean;
  created_at: string;
  /** Last time one of its sessions was seen (ISO 8601 UTC), or null. */
  last_seen_at: string | null;
  /** For an invited operator: when the newest invite expires (ISO 8601 UTC). */
  invite_expires_at: string | null;
}

/** A stored operator, as the sign-in and account code need it. */
export interface OperatorRow {
  id: number;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  disabled_at: Date | string | null;
  totp_secret: string | null;
  totp_enabled_at: Date | string | null;
  totp_last_step: number | null;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const iso = (v: Date | string | null) => (v == null ? null : new Date(v).toISOString());

/**
 * Creates the first operator (role owner, name "Admin") from config.adminEmail and
 * config.adminPasswordHash when, and only when, the operators table is empty. Safe to call from
 * several instances at once. Returns true when it created the owner.
 */
export async function ensureBootstrapOwner(
  db: Queryable,
  config: Pick<ServerConfig, 'adminEmail' | 'adminPasswordHash'>,
  now: Date,
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO operators (email, name, role, password_hash, password_changed_at, created_at, updated_at)
     SELECT $1, $2, 'owner', $3, $4, $4, $4
      WHERE NOT EXISTS (SELECT 1 FROM operators)
     ON CONFLICT (email) DO NOTHING`,
    [config.adminEmail.toLowerCase(), BOOTSTRAP_NAME, config.adminPasswordHash, now.toISOString()],
  );
  return (res.affectedRows ?? 0) > 0;
}

/** The operator with `email` (lower-cased), or null. */
export async function findOperatorByEmail(
  db: Queryable,
  email: string,
): Promise<OperatorRow | null> {
  const res = await db.query<OperatorRow>(
    `SELECT id::int AS id, email, name, role, password_hash, disabled_at, totp_secret,
            totp_enabled_at, totp_last_step::float8 AS totp_last_step
       FROM operators WHERE email = $1`,
    [email.toLowerCase()],
  );
  return res.rows[0] ?? null;
}

/** The operator with `id`, or null; `lock` takes a row lock (inside a transaction). */
export async function findOperatorById(
  db: Queryable,
  id: number,
  lock = false,
): Promise<OperatorRow | null> {
  const res = await db.query<OperatorRow>(
    `SELECT id::int AS id, email, name, role, password_hash, disabled_at, totp_secret,
            totp_enabled_at, totp_last_step::float8 AS totp_last_step
       FROM operators WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return res.rows[0] ?? null;
}

/** Every operator, owners first, then by name. */
export async function listOperators(db: Queryable): Promise<OperatorView[]> {
  const res = await db.query<{
    id: number;
    email: string;
    name: string;
    role: string;
    password_hash: string | null;
    disabled_at: string | null;
    totp_enabled_at: string | null;
    created_at: string;
    last_seen_at: string | null;
    invite_expires_at: string | null;
  }>(
    `SELECT o.id::int AS id, o.email, o.name, o.role, o.password_hash, o.disabled_at,
            o.totp_enabled_at, o.created_at,
            (SELECT max(s.last_seen_at) FROM admin_sessions s WHERE s.operator_id = o.id) AS last_seen_at,
            (SELECT max(i.expires_at) FROM operator_invites i
              WHERE i.operator_id = o.id AND i.accepted_at IS NULL) AS invite_expires_at
       FROM operators o
      ORDER BY CASE o.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'support' THEN 2 ELSE 3 END,
               lower(o.name), o.id`,
  );
  return res.rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: isRole(r.role) ? r.role : 'viewer',
    status: r.disabled_at ? 'disabled' : r.password_hash ? 'active' : 'invited',
    totp_enabled: r.totp_enabled_at != null,
    created_at: iso(r.created_at) ?? '',
    last_seen_at: iso(r.last_seen_at),
    invite_expires_at: r.password_hash ? null : iso(r.invite_expires_at),
  }));
}

/** A new invitation: its one-time token (shown once) and when it expires. */
export interface Invite {
  token: string;
  expires_at: string;
}

/**
 * Creates operator `email` with `name` and `role` (no password yet) and an invitation valid for
 * 72 hours, in `tx`. A second invite for an operator who has not accepted yet replaces the first.
 * Errors: 409 when an operator with that email has already set a password.
 */
export async function inviteOperator(
  tx: Tx,
  input: { email: string; name: string; role: Role; invitedBy: number },
  now: Date,
): Promise<{ operator: OperatorRow; invite: Invite }> {
  const email = input.email.toLowerCase();
  const existing = await findOperatorByEmail(tx, email);
  if (existing?.password_hash) {
    throw new ApiError(409, 'conflict', `An operator with email ${email} already exists.`, {
      ok: false,
      code: 'OPERATOR_EXISTS',
    });
  }
  let id: number;
  if (existing) {
    id = existing.id;
    await tx.query(
      'UPDATE operators SET name = $2, role = $3, disabled_at = NULL, updated_at = $4 WHERE id = $1',
      [id, input.name, input.role, now.toISOString()],
    );
    await tx.query('DELETE FROM operator_invites WHERE operator_id = $1 AND accepted_at IS NULL', [
      id,
    ]);
  } else {
    const res = await tx.query<{ id: number }>(
      `INSERT INTO operators (email, name, role, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4) RETURNING id::int AS id`,
      [email, input.name, input.role, now.toISOString()],
    );
    id = res.rows[0]!.id;
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
  await tx.query(
    `INSERT INTO operator_invites (token_hash, operator_id, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [sha256Hex(token), id, input.invitedBy, now.toISOString(), expiresAt.toISOString()],
  );
  const operator = (await findOperatorById(tx, id))!;
  return { operator, invite: { token, expires_at: expiresAt.toISOString() } };
}

/** The 400 of a password the rule refuses: `{code:'WEAK_PASSWORD', message}`. */
export function weakPassword(message: string): ApiError {
  return new ApiError(400, 'bad_request', message, { ok: false, code: 'WEAK_PASSWORD' });
}

/** The 404 of an invitation link that is unknown, used, expired or whose operator was disabled. */
export function invalidInvite(): ApiError {
  return new ApiError(
    404,
    'not_found',
    'This invitation link is not valid any more. Ask an owner for a new one.',
    { ok: false, code: 'INVITE_INVALID' },
  );
}

/** Who invitation `token` is for, while it can still be accepted at `now`; null otherwise. */
export async function inviteDetails(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ email: string; name: string; role: Role; expires_at: string } | null> {
  const res = await db.query<{ email: string; name: string; role: string; expires_at: string }>(
    `SELECT o.email, o.name, o.role, i.expires_at
       FROM operator_invites i JOIN operators o ON o.id = i.operator_id
      WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > $2
        AND o.disabled_at IS NULL AND o.password_hash IS NULL`,
    [sha256Hex(token), now.toISOString()],
  );
  const row = res.rows[0];
  if (!row || !isRole(row.role)) return null;
  return {
    email: row.email,
    name: row.name,
    role: row.role,
    expires_at: iso(row.expires_at) ?? '',
  };
}

/**
 * Accepts invitation `token` with `password` in `tx`: sets the operator's password (scrypt) and
 * marks the invite used. Errors: 400 WEAK_PASSWORD; 404 INVITE_INVALID when the token is unknown,
 * used or past its 72 hours, or the operator was disabled since.
 */
export async function acceptInvite(
  tx: Tx,
  token: string,
  password: string,
  now: Date,
  hash: (password: string) => Promise<string> = (p) => hashPassword(p),
): Promise<OperatorRow> {
  const res = await tx.query<{
    operator_id: number;
    expires_at: string;
    accepted_at: string | null;
  }>(
    `SELECT operator_id::int AS operator_id, expires_at, accepted_at
       FROM operator_invites WHERE token_hash = $1 FOR UPDATE`,
    [sha256Hex(token)],
  );
  const invite = res.rows[0];
  const operator = invite ? await findOperatorById(tx, invite.operator_id, true) : null;
  if (
    !invite ||
    !operator ||
    invite.accepted_at != null ||
    new Date(invite.expires_at).getTime() <= now.getTime() ||
    operator.disabled_at != null ||
    operator.password_hash != null
  ) {
    throw invalidInvite();
  }
  const problem = passwordProblem(password, operator.email);
  if (problem) throw weakPassword(problem);
  await tx.query(
    `UPDATE operators SET password_hash = $2, password_changed_at = $3, updated_at = $3 WHERE id = $1`,
    [operator.id, await hash(password), now.toISOString()],
  );
  await tx.query('UPDATE operator_invites SET accepted_at = $2 WHERE token_hash = $1', [
    sha256Hex(token),
    now.toISOString(),
  ]);
  return operator;
}

/** The 409 of a change that would leave no active owner. */
function lastOwner(): ApiError {
  return new ApiError(
    409,
    'conflict',
    'The last active owner cannot be demoted or disabled. Make another operator an owner first.',
    { ok: false, code: 'LAST_OWNER' },
  );
}

/**
 * Changes operator `id`'s role and/or disabled state in `tx` → {before, after}. The owners are
 * locked first, so two owners demoting each other at once cannot leave none. Errors: 404 unknown
 * operator; 409 LAST_OWNER.
 */
export async function updateOperator(
  tx: Tx,
  id: number,
  change: { role?: Role; disabled?: boolean },
  now: Date,
): Promise<{ before: OperatorRow; after: OperatorRow }> {
  // Lock every owner row in id order (the same order in every transaction: no deadlock).
  await tx.query("SELECT id FROM operators WHERE role = 'owner' ORDER BY id FOR UPDATE");
  const before = await findOperatorById(tx, id, true);
  if (!before) throw notFound(`No operator with id ${id}`);
  const role = change.role ?? before.role;
  const disabled = change.disabled ?? before.disabled_at != null;
  const wasActiveOwner = before.role === 'owner' && before.disabled_at == null;
  if (wasActiveOwner && (role !== 'owner' || disabled)) {
    const others = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM operators
        WHERE role = 'owner' AND disabled_at IS NULL AND password_hash IS NOT NULL AND id <> $1`,
      [id],
    );
    if ((others.rows[0]?.n ?? 0) === 0) throw lastOwner();
  }
  await tx.query(
    `UPDATE operators
        SET role = $2,
            disabled_at = CASE WHEN $3::boolean THEN coalesce(disabled_at, $4::timestamptz) ELSE NULL END,
            updated_at = $4
      WHERE id = $1`,
    [id, role, disabled, now.toISOString()],
  );
  const after = (await findOperatorById(tx, id))!;
  return { before, after };
}

/**
 * Sets operator `id`'s password in `tx` after the rule (400 WEAK_PASSWORD). The caller ends the
 * operator's other sessions in the same transaction.
 */
export async function setOperatorPassword(
  tx: Tx,
  operator: Pick<OperatorRow, 'id' | 'email'>,
  password: string,
  now: Date,
  hash: (password: string) => Promise<string> = (p) => hashPassword(p),
): Promise<void> {
  const problem = passwordProblem(password, operator.email);
  if (problem) throw weakPassword(problem);
  await tx.query(
    'UPDATE operators SET password_hash = $2, password_changed_at = $3, updated_at = $3 WHERE id = $1',
    [operator.id, await hash(password), now.toISOString()],
  );
}

/** Stores a new, not yet confirmed TOTP secret for operator `id` (sealed). */
export async function storePendingTotpSecret(
  db: Queryable,
  config: Pick<ServerConfig, 'jwtSecret'>,
  id: number,
  base32: string,
  now: Date,
): Promise<void> {
  const res = await db.query(
    `UPDATE operators SET totp_secret = $2, totp_last_step = NULL, updated_at = $3
      WHERE id = $1 AND totp_enabled_at IS NULL`,
    [id, sealSecret(config, base32), now.toISOString()],
  );
  if ((res.affectedRows ?? 0) === 0) {
    throw new ApiError(409, 'conflict', 'Two-factor sign-in is already on. Turn it off first.', {
      ok: false,
      code: 'TOTP_ALREADY_ENABLED',
    });
  }
}

/**
 * Accepts time step `step` for operator `id` when it is above the last accepted one (so each code
 * is used once) → whether it was accepted. Atomic: two requests with one code cannot both pass.
 */
export async function claimTotpStep(db: Queryable, id: number, step: number): Promise<boolean> {
  const res = await db.query(
    `UPDATE operators SET totp_last_step = $2
      WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [id, step],
  );
  return (res.affectedRows ?? 0) > 0;
}

/** Turns two-factor sign-in on for `id` in `tx` and replaces its recovery codes → the new codes. */
export async function enableTotp(tx: Tx, id: number, now: Date): Promise<string[]> {
  await tx.query('UPDATE operators SET totp_enabled_at = $2, updated_at = $2 WHERE id = $1', [
    id,
    now.toISOString(),
  ]);
  await tx.query('DELETE FROM operator_recovery_codes WHERE operator_id = $1', [id]);
  const codes = newRecoveryCodes();
  for (const code of codes) {
    await tx.query('INSERT INTO operator_recovery_codes (operator_id, code_hash) VALUES ($1, $2)', [
      id,
      recoveryCodeHash(code),
    ]);
  }
  return codes;
}

/** Turns two-factor sign-in off for `id` in `tx` (secret and recovery codes deleted). */
export async function disableTotp(tx: Tx, id: number, now: Date): Promise<void> {
  await tx.query(
    `UPDATE operators SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL,
            updated_at = $2 WHERE id = $1`,
    [id, now.toISOString()],
  );
  await tx.query('DELETE FROM operator_recovery_codes WHERE operator_id = $1', [id]);
}

/** Uses recovery code `code` of operator `id` → whether it was valid and unused (then it is used). */
export async function useRecoveryCode(
  db: Queryable,
  id: number,
  code: string,
  now: Date,
): Promise<boolean> {
  const res = await db.query(
    `UPDATE operator_recovery_codes SET used_at = $3
      WHERE operator_id = $1 AND code_hash = $2 AND used_at IS NULL`,
    [id, recoveryCodeHash(code), now.toISOString()],
  );
  return (res.affectedRows ?? 0) > 0;
}

/** Recovery codes of `id` not used yet. */
export async function unusedRecoveryCodes(db: Queryable, id: number): Promise<number> {
  const res = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM operator_recovery_codes WHERE operator_id = $1 AND used_at IS NULL',
    [id],
  );
  return res.rows[0]?.n ?? 0;
}

/** Whether an owner requires two-factor sign-in of every operator. */
export async function requireTotpPolicy(db: Queryable): Promise<boolean> {
  const res = await db.query<{ on: boolean }>(
    "SELECT value = 'true'::jsonb AS on FROM console_settings WHERE key = 'require_totp'",
  );
  return res.rows[0]?.on === true;
}

/** Sets the two-factor policy in `tx`. */
export async function setRequireTotpPolicy(tx: Tx, on: boolean, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO console_settings (key, value, updated_at) VALUES ('require_totp', $1::jsonb, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [JSON.stringify(on), now.toISOString()],
  );
}

/** An operator's own session, for Settings → My account. */
export interface SessionView {
  /** Opaque id of the session (a prefix of its hash; never the session id itself). */
  id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
  /** True for the session making the request. */
  current: boolean;
}

/** Length of the public session id (hex characters of the stored hash). */
const SESSION_VIEW_ID_LENGTH = 16;

/** Live sessions of operator `id` at `now`, newest first; `currentHash` marks the caller's own. */
export async function listOperatorSessions(
  db: Queryable,
  id: number,
  now: Date,
  idleS: number,
  currentHash: string,
): Promise<SessionView[]> {
  const res = await db.query<{
    id_hash: string;
    created_at: string;
    last_seen_at: string;
    expires_at: string;
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT id_hash, created_at, last_seen_at, expires_at, ip, user_agent
       FROM admin_sessions
      WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at > $3
      ORDER BY created_at DESC
      LIMIT 100`,
    [id, now.toISOString(), new Date(now.getTime() - idleS * 1000).toISOString()],
  );
  return res.rows.map((r) => ({
    id: r.id_hash.slice(0, SESSION_VIEW_ID_LENGTH),
    created_at: iso(r.created_at) ?? '',
    last_seen_at: iso(r.last_seen_at) ?? '',
    expires_at: iso(r.expires_at) ?? '',
    ip: r.ip,
    user_agent: r.user_agent,
    current: r.id_hash === currentHash,
  }));
}

/**
 * Ends operator `id`'s session whose public id is `viewId` in `tx` → whether one ended.
 * Errors: 400 for an id that is not 16 hex digits.
 */
export async function endOperatorSession(
  tx: Tx,
  id: number,
  viewId: string,
  now: Date,
): Promise<boolean> {
  if (!/^[0-9a-f]{16}$/.test(viewId)) throw badRequest('A session id is 16 hexadecimal digits');
  const res = await tx.query(
    `UPDATE admin_sessions SET revoked_at = $3
      WHERE operator_id = $1 AND left(id_hash, 16) = $2 AND revoked_at IS NULL`,
    [id, viewId, now.toISOString()],
  );
  return (res.affectedRows ?? 0) > 0;
}
