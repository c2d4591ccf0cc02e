/**
 * Writing forum jobs (issue 9 "Forum sync through an outbox"): every access change writes its
 * Discourse job in the same transaction as the change, so the forum can never miss a committed
 * change nor see one that rolled back. `NOTIFY forum_outbox` wakes the worker at commit.
 */
import type { Queryable } from '../db/types';

/** The NOTIFY channel that wakes the forum worker; the payload is the job's email. */
export const FORUM_OUTBOX_CHANNEL = 'forum_outbox';

/** A forum job to write: grant or revoke forum access for `email` (lower-case), and why. */
export interface ForumJobInput {
  email: string;
  action: 'grant' | 'revoke';
  /** What caused it, e.g. 'access.grant', 'webhook.lemonsqueezy.subscription_created', 'expiration'. */
  reason: string;
  /** The instant of the change (UTC); the job is due at once. */
  at: Date;
}

/** Queues `job` in the caller's transaction → its id. Rejects (rolling the change back) when the row is refused. */
export async function enqueueForumJob(tx: Queryable, job: ForumJobInput): Promise<number> {
  const email = job.email.toLowerCase();
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO forum_outbox (email, action, reason, created_at, next_attempt_at)
     VALUES ($1, $2, $3, $4, $4) RETURNING id`,
    [email, job.action, job.reason, job.at],
  );
  await tx.query('SELECT pg_notify($1, $2)', [FORUM_OUTBOX_CHANNEL, email]);
  return Number(inserted.rows[0]?.id);
}
