/**
 * POST /maintenance/enforce-now {email} (specification §7): applies one user's due access
 * state now, without waiting for the expiration run.
 *
 * - Access: a member still active whose expires_at has arrived (≤ now) is set to cancelled, with
 *   an 'access.expired' info row (action 'enforce_now'), in one transaction — the same condition
 *   as the expiration run. Any other member keeps its state.
 * - Forum: the member's resulting state is pushed to the forum — a revoke job when cancelled, a
 *   grant job when active (scheduled members keep access until their date) — written in the same
 *   transaction and run by the forum worker. The answer waits briefly for it
 *   (server/outbox/answer.ts): the job's outcome, or `{queued:true, …}`. Forum failures are
 *   retried by the worker and logged as warn rows, never rolled back.
 *
 * Answer: `{ok:true, email, mg_status, expires_at, changed, action, discourse}`; action is
 * 'expired' (access ended now) or 'none' (already in its due state). 400 for a missing or invalid
 * email, 404 `{error:'not_found'}` for an email with no member.
 */
import { recordAudit, type AuditActor } from '../audit/audit';
import type { AppDeps } from '../context';
import { notFound } from '../errors';
import { insertLog } from '../logRows';
import { enqueueForumJob } from '../outbox/enqueue';
import { forumAnswer, type ForumAnswer } from '../outbox/answer';
import { iso } from '../access/params';
import { recordAccessChange } from '../live/access';

/** The enforce-now answer (docs/api.md). */
export interface EnforceResult {
  ok: true;
  email: string;
  mg_status: 'active' | 'cancelled';
  expires_at: string | null;
  changed: boolean;
  action: 'expired' | 'none';
  discourse: ForumAnswer;
}

/** Applies `email`'s due access state now (see module doc) → EnforceResult; 404 ApiError for an unknown email. */
export async function enforceNow(
  deps: AppDeps,
  email: string,
  actor: AuditActor | null = null,
): Promise<EnforceResult> {
  const now = deps.now();
  const state = await deps.db.transaction(async (tx) => {
    const found = await tx.query<{
      id: number;
      mg_status: 'active' | 'cancelled';
      expires_at: Date | null;
    }>(
      `SELECT m.id, m.mg_status, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id
        WHERE c.email = $1 FOR UPDATE OF m`,
      [email],
    );
    const member = found.rows[0];
    if (!member) throw notFound(`No user with email ${email}`);
    const due =
      member.mg_status === 'active' &&
      member.expires_at !== null &&
      member.expires_at.getTime() <= now.getTime();
    const enqueue = (action: 'grant' | 'revoke') =>
      enqueueForumJob(tx, { email, action, reason: 'maintenance.enforce_now', at: now });
    if (actor) {
      await recordAudit(
        tx,
        actor,
        {
          action: 'maintenance.enforce_now',
          target: email,
          detail: {
            before: { mg_status: member.mg_status, expires_at: iso(member.expires_at) },
            changed: due,
          },
        },
        now,
      );
    }
    if (!due) {
      const jobId = await enqueue(member.mg_status === 'cancelled' ? 'revoke' : 'grant');
      return { mgStatus: member.mg_status, expiresAt: member.expires_at, changed: false, jobId };
    }
    await tx.query(`UPDATE members SET mg_status = 'cancelled', updated_at = $1 WHERE id = $2`, [
      now,
      member.id,
    ]);
    await insertLog(tx, now, 'info', 'access.expired', {
      email,
      action: 'enforce_now',
      mg_status: 'cancelled',
      expires_at: iso(member.expires_at),
    });
    // Access ended now: its forum job and live event in this transaction.
    const jobId = await recordAccessChange(tx, {
      email,
      action: 'revoke',
      reason: 'maintenance.enforce_now',
      at: now,
    });
    return { mgStatus: 'cancelled' as const, expiresAt: member.expires_at, changed: true, jobId };
  });

  const discourse = await forumAnswer(deps, state.jobId);
  return {
    ok: true,
    email,
    mg_status: state.mgStatus,
    expires_at: iso(state.expiresAt),
    changed: state.changed,
    action: state.changed ? 'expired' : 'none',
    discourse,
  };
}
