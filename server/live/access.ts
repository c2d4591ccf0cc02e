/**
 * Live events of forum access changes (CONTRACT.md "Live events"):
 * `access.granted` when a grant takes effect, `access.revoked` when access actually ends
 * (revoke_now, or the expiration of a dated/deferred revocation). A scheduled revocation emits
 * nothing when it is scheduled — the member keeps access — but `access.revoked` when it applies.
 */
import type { Queryable } from '../db/types';
import { enqueueForumJob } from '../outbox/enqueue';
import { emitLiveEvent, type LiveEventMessage } from './emit';

/**
 * Emits `type` for the customer `email` inside the caller's transaction `tx` (delivered at commit;
 * rolled back with it). provider = `provider` when the caller knows it (a webhook), else the
 * provider of the member's subscription (else the customer's latest subscription, else null);
 * amount and currency are null (no payment).
 */
export async function emitAccessEvent(
  tx: Queryable,
  type: 'access.granted' | 'access.revoked',
  email: string,
  at: Date,
  provider?: 'lemonsqueezy' | 'clickbank' | null,
): Promise<LiveEventMessage> {
  if (provider !== undefined) {
    return emitLiveEvent(tx, { type, email, provider, amount_cents: null, currency: null, at });
  }
  const r = await tx.query<{ provider: 'lemonsqueezy' | 'clickbank' | null }>(
    `SELECT COALESCE(
              (SELECT s.provider FROM subscriptions s WHERE s.id = m.subscription_id),
              (SELECT s2.provider FROM subscriptions s2 WHERE s2.customer_id = c.id
                ORDER BY s2.start_date DESC, s2.id DESC LIMIT 1)) AS provider
       FROM customers c LEFT JOIN members m ON m.customer_id = c.id
      WHERE c.email = $1`,
    [email],
  );
  return emitLiveEvent(tx, {
    type,
    email,
    provider: r.rows[0]?.provider ?? null,
    amount_cents: null,
    currency: null,
    at,
  });
}

/** A change of forum access that takes effect now: grant or revoke for `email`, and why. */
export interface AccessChange {
  email: string;
  action: 'grant' | 'revoke';
  /** What caused it, e.g. 'access.grant', 'webhook.lemonsqueezy.subscription_created'. */
  reason: string;
  /** The instant of the change (UTC). */
  at: Date;
  /** The subscription's provider when the caller knows it; else looked up (emitAccessEvent). */
  provider?: 'lemonsqueezy' | 'clickbank' | null;
}

/**
 * The two writes of every access change that takes effect now, in the caller's
 * transaction: its forum job (enqueueForumJob) and its live event (access.granted /
 * access.revoked) → the job's id. Scheduled revocations call it when they apply, not when set.
 */
export async function recordAccessChange(tx: Queryable, change: AccessChange): Promise<number> {
  const jobId = await enqueueForumJob(tx, {
    email: change.email,
    action: change.action,
    reason: change.reason,
    at: change.at,
  });
  await emitAccessEvent(
    tx,
    change.action === 'grant' ? 'access.granted' : 'access.revoked',
    change.email,
    change.at,
    change.provider,
  );
  return jobId;
}
