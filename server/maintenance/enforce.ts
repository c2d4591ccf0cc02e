/**
 * POST /maintenance/enforce-now {email} (specification §7; issue 8): applies one user's due access
 * state now, without waiting for the expiration run.
 *
 * - Access: a member still active whose expires_at has arrived (≤ now) is set to cancelled, with
 *   an 'access.expired' info row (action 'enforce_now'), in one transaction — the same condition
 *   as the expiration run. Any other member keeps its state.
 * - Forum: the member's resulting state is pushed to Discourse when configured — revoke when
 *   cancelled, grant when active (scheduled members keep access until their date). Failures are
 *   reported in `discourse` and logged as a warn row, never rolled back.
 *
 * Answer: `{ok:true, email, mg_status, expires_at, changed, action, discourse}`; action is
 * 'expired' (access ended now) or 'none' (already in its due state). 400 for a missing or invalid
 * email, 404 `{error:'not_found'}` for an email with no member.
 */
import type { AppDeps } from '../context';
import { notFound } from '../errors';
import { syncForumAccess, type DiscourseOutcome } from '../discourse/client';
import { insertLog, logDiscourseFailure } from '../access/actions';
import { iso } from '../access/params';
import { emitAccessEvent } from '../live/access';

/** The enforce-now answer (docs/api.md). */
export interface EnforceResult {
  ok: true;
  email: string;
  mg_status: 'active' | 'cancelled';
  expires_at: string | null;
  changed: boolean;
  action: 'expired' | 'none';
  discourse: DiscourseOutcome;
}

/** Applies `email`'s due access state now (see module doc) → EnforceResult; 404 ApiError for an unknown email. */
export async function enforceNow(deps: AppDeps, email: string): Promise<EnforceResult> {
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
    if (!due) return { mgStatus: member.mg_status, expiresAt: member.expires_at, changed: false };
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
    // Live event in the same transaction (issue 9): access ended now.
    await emitAccessEvent(tx, 'access.revoked', email, now);
    return { mgStatus: 'cancelled' as const, expiresAt: member.expires_at, changed: true };
  });

  const discourse = await syncForumAccess(
    deps.config.discourse,
    state.mgStatus === 'cancelled' ? 'revoke' : 'grant',
    email,
  );
  if ('ok' in discourse && discourse.ok === false)
    await logDiscourseFailure(deps, email, 'enforce_now', discourse);
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
