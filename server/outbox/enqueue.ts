/**
 * Writing forum jobs: every access change writes its
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

/**
 * Queues one job per entry of `jobs`, in that order (ids ascending), in the caller's transaction
 * with a single statement and one NOTIFY → their ids in the same order. For bulk changes such as
 * the expiration run; an empty list writes nothing.
 */
export async function enqueueForumJobs(tx: Queryable, jobs: ForumJobInput[]): Promise<number[]> {
  if (jobs.length === 0) return [];
  const inserted = await tx.query<{ id: number; ord: number }>(
    `INSERT INTO forum_outbox (email, action, reason, created_at, next_attempt_at)
     SELECT lower(x.email), x.action, x.reason, x.at::timestamptz, x.at::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
            WITH ORDINALITY AS x(email, action, reason, at, ord)
      ORDER BY x.ord
     RETURNING id`,
    [
      jobs.map((j) => j.email),
      jobs.map((j) => j.action),
      jobs.map((j) => j.reason),
      jobs.map((j) => j.at.toISOString()),
    ],
  );
  await tx.query('SELECT pg_notify($1, $2)', [FORUM_OUTBOX_CHANNEL, '*']);
  return inserted.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}
