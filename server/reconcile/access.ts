/**
 * Whether a member's stored forum access is what a provider state asks for, by the webhook's
 * access rules (server/webhooks/common.ts applyAccess): a grant is active without an end; a revoke
 * on a date is active until that date (or already cancelled); a revoke now is cancelled; and a
 * revoke is no mismatch while another subscription of the customer still grants access.
 */

/** What a provider state asks of forum access. */
export type AccessExpectation =
  { kind: 'grant' } | { kind: 'revoke_at'; at: Date } | { kind: 'revoke_now' } | { kind: 'none' };

/** The stored member of a subscription's customer (all null without a members row). */
export interface StoredAccess {
  mg_status: string | null;
  expires_at: Date | null;
  /** Another subscription of the customer grants access now. */
  other_grants: boolean;
}

/** The member's access as text: `none`, `cancelled`, `active` or `active until <ISO>`. */
export function accessText(mg: string | null, expiresAt: Date | null): string {
  if (mg === null) return 'none';
  if (mg === 'active' && expiresAt !== null) return `active until ${expiresAt.toISOString()}`;
  return mg;
}

/** → {ours, theirs} when `stored` differs from `expect` at `now`, else null. */
export function accessMismatch(
  expect: AccessExpectation,
  stored: StoredAccess,
  now: Date,
): { ours: string; theirs: string } | null {
  let e = expect;
  if (e.kind === 'none') return null;
  if (e.kind === 'revoke_at' && e.at.getTime() <= now.getTime()) e = { kind: 'revoke_now' };
  const ours = accessText(stored.mg_status, stored.expires_at);
  if (e.kind === 'grant') {
    return stored.mg_status === 'active' && stored.expires_at === null
      ? null
      : { ours, theirs: 'active' };
  }
  if (stored.other_grants) return null;
  if (e.kind === 'revoke_at') {
    const ok =
      stored.mg_status === 'cancelled' ||
      (stored.mg_status === 'active' && stored.expires_at?.getTime() === e.at.getTime());
    return ok ? null : { ours, theirs: `active until ${e.at.toISOString()}` };
  }
  return stored.mg_status === 'cancelled' ? null : { ours, theirs: 'cancelled' };
}

/** An instant's text for a mismatch row (ISO UTC), or null. */
export const instantText = (d: Date | null | undefined): string | null =>
  d ? d.toISOString() : null;

/** Two optional instants are the same moment (or both absent). */
export function sameInstant(a: Date | null | undefined, b: Date | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.getTime() === b.getTime();
}
