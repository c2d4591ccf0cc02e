/**
 * The audit trail (docs/api.md "Audit"): one append-only `audit_log` row (migration 014) per
 * state-changing request, written through the same transaction as the change, so a row exists
 * exactly when the change committed. Failures that change nothing (a failed sign-in, a wrong
 * current password, a refused forum retry) are written on their own; a 403 of requireRole writes
 * nothing (the request logs keep it). The table refuses UPDATE, TRUNCATE and any DELETE but the
 * retention purge (a trigger, on PGlite and PostgreSQL alike).
 */
import type { Context } from 'hono';
import type { AppDeps } from '../context';
import type { Queryable } from '../db/types';
import { clientAddress, trustedHops } from '../auth/client';
import type { AuthEnv } from '../auth/session';

/** Who made a change, and from where. `operatorId`/`email` are null for an unknown caller. */
export interface AuditActor {
  operatorId: number | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Outcome of an audited request. */
export type AuditOutcome = 'ok' | 'failed' | 'refused';

/**
 * One audited event: a dotted action (e.g. 'access.grant', 'operator.create',
 * 'auth.login_failed'), its target (a customer email, an operator's email), the outcome, and a
 * short before/after detail (JSON object, kept under 2 KB).
 */
export interface AuditEntry {
  action: string;
  target?: string | null;
  outcome?: AuditOutcome;
  detail?: Record<string, unknown> | null;
}

/** Longest stored detail JSON (characters); longer details are replaced by a truncation note. */
const MAX_DETAIL_CHARS = 2000;

/** Inserts one audit row at `at` through `q` (the change's transaction, or the database). */
export async function recordAudit(
  q: Queryable,
  actor: AuditActor,
  entry: AuditEntry,
  at: Date,
): Promise<void> {
  let detail = entry.detail == null ? null : JSON.stringify(entry.detail);
  if (detail !== null && detail.length > MAX_DETAIL_CHARS) {
    detail = JSON.stringify({ truncated: true, excerpt: detail.slice(0, MAX_DETAIL_CHARS - 100) });
  }
  await q.query(
    `INSERT INTO audit_log (at, operator_id, operator_email, action, target, outcome, ip, user_agent, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      at.toISOString(),
      actor.operatorId,
      actor.email,
      entry.action,
      entry.target?.slice(0, 320) ?? null,
      entry.outcome ?? 'ok',
      actor.ip?.slice(0, 100) ?? null,
      actor.userAgent?.slice(0, 300) ?? null,
      detail,
    ],
  );
}

/** The actor of a request: its signed-in operator (when there is one), address and browser. */
export function requestActor(c: Context, deps: Pick<AppDeps, 'config'>): AuditActor {
  const admin = (c as Context<AuthEnv>).get('admin') as AuthEnv['Variables']['admin'] | undefined;
  return {
    operatorId: admin?.operatorId ?? null,
    email: admin?.email ?? null,
    ip: clientAddress(c, trustedHops(deps.config)),
    userAgent: c.req.header('user-agent') ?? null,
  };
}

/** The actor of work no operator started (the expiration schedule, webhooks): `system`. */
export const SYSTEM_ACTOR: AuditActor = {
  operatorId: null,
  email: null,
  ip: null,
  userAgent: null,
};

/** Default audit retention in days (AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

/**
 * Deletes audit rows older than `retentionDays` before `now` (never younger than 30 days: the
 * table's trigger refuses those). Returns the number deleted.
 */
export async function purgeAudit(
  deps: Pick<AppDeps, 'db'>,
  retentionDays: number,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  return deps.db.transaction(async (tx) => {
    await tx.query("SELECT set_config('mg.audit_purge', 'on', true)");
    // The trigger refuses rows younger than 30 days, so they are never asked for.
    const res = await tx.query(
      "DELETE FROM audit_log WHERE at < $1 AND at < now() - interval '30 days'",
      [cutoff.toISOString()],
    );
    return res.affectedRows ?? 0;
  });
}
