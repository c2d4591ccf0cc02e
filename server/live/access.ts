/**
 * Live events of forum access changes (issue 9 item 5; CONTRACT.md "Live events"):
 * `access.granted` when a grant takes effect, `access.revoked` when access actually ends
 * (revoke_now, or the expiration of a dated/deferred revocation). A scheduled revocation emits
 * nothing when it is scheduled — the member keeps access — but `access.revoked` when it applies.
 */
import type { Queryable } from '../db/types';
import { emitLiveEvent, type LiveEventMessage } from './emit';

/**
 * Emits `type` for the customer `email` inside the caller's transaction `tx` (delivered at commit;
 * rolled back with it). provider = the provider of the member's subscription (else the
 * customer's latest subscription, else null); amount and currency are null (no payment).
 */
export async function emitAccessEvent(
  tx: Queryable,
  type: 'access.granted' | 'access.revoked',
  email: string,
  at: Date,
): Promise<LiveEventMessage> {
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

/** The live event an access action emits when it commits, or null (scheduled revocations). */
export function accessEventOf(
  kind: 'grant' | 'grant_on_date' | 'revoke_now' | 'revoke_deferred' | 'revoke_on_date',
): 'access.granted' | 'access.revoked' | null {
  if (kind === 'grant' || kind === 'grant_on_date') return 'access.granted';
  if (kind === 'revoke_now') return 'access.revoked';
  return null;
}
