/**
 * The forum side of one customer (docs/api.md "Customers"): the outbox jobs of the email, the
 * membership state the server can vouch for, the invitations Discourse was asked to send, and
 * "retry now" for a failed job.
 *
 * The server never reads the forum's membership back; it knows what it asked the forum to do and
 * what the forum answered. The state says exactly that:
 * | state     | when                                                                                   |
 * |-----------|----------------------------------------------------------------------------------------|
 * | `unknown` | the email's latest job is pending or failed: the forum has not confirmed the latest change |
 * | `none`    | otherwise, when the customer has no access (no member row, or mg_status cancelled)      |
 * | `invited` | otherwise, when the latest finished grant invited the address (no forum account yet)   |
 * | `member`  | otherwise (access granted and confirmed, or nothing was asked of the forum yet)        |
 * A job skipped because Discourse is not configured counts as finished.
 */
import type { AppDeps } from '../context';
import type { Queryable } from '../db/types';
import type { DiscourseOutcome } from '../discourse/client';
import { ApiError, notFound } from '../errors';
import { iso } from '../access/params';
import { insertLog } from '../logRows';
import { recordAudit, type AuditActor } from '../audit/audit';
import { FORUM_OUTBOX_CHANNEL } from '../outbox/enqueue';
import { kickForumWorkers } from '../outbox/worker';

/** At most this many jobs (newest first) are shown on the customer page. */
export const CUSTOMER_FORUM_JOBS = 50;

/** One outbox job on the wire. Instants ISO UTC; `status` 'sent' is the table's 'done'. */
export interface ForumJobJson {
  id: number;
  /** 'grant' or 'revoke'. */
  op: string;
  status: 'pending' | 'sent' | 'failed';
  /** Attempts made so far (429 answers included). */
  attempts: number;
  last_error: string | null;
  created_at: string;
  /** The job's last attempt or its finish, null before the first attempt. */
  updated_at: string | null;
  /** When the worker runs it next; null unless pending. */
  next_attempt_at: string | null;
}

/** An invitation the forum was asked to send: when, and what became of it. */
export interface ForumInviteJson {
  created_at: string;
  /** Discourse keeps the invitation's expiry to itself: always null. */
  expires_at: null;
  /** 'pending' (nothing since), 'accepted' (a later grant found the account), 'withdrawn' (a later revoke), 'resent'. */
  status: 'pending' | 'accepted' | 'withdrawn' | 'resent';
}

/** The `forum` object of GET /customers/:email. */
export interface CustomerForumJson {
  state: 'member' | 'invited' | 'none' | 'unknown';
  /** The forum username; the server does not keep it: always null. */
  username: null;
  jobs: ForumJobJson[];
  invites: ForumInviteJson[];
}

/** A forum_outbox row as this module reads it. */
export interface ForumJobRowView {
  id: number;
  action: string;
  reason: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  finished_at: Date | null;
  outcome: DiscourseOutcome | null;
}

const JOB_COLUMNS = `id, action, reason, state, attempts, last_error, created_at, next_attempt_at,
  last_attempt_at, finished_at, outcome`;

/** A stored job → its wire shape. */
export function forumJobJson(j: ForumJobRowView): ForumJobJson {
  return {
    id: Number(j.id),
    op: j.action,
    status: j.state === 'done' ? 'sent' : j.state,
    attempts: Number(j.attempts),
    last_error: j.last_error,
    created_at: iso(j.created_at) ?? '',
    updated_at: iso(j.finished_at ?? j.last_attempt_at),
    next_attempt_at: j.state === 'pending' ? iso(j.next_attempt_at) : null,
  };
}

const invited = (o: DiscourseOutcome | null): boolean =>
  o !== null && 'invited' in o && o.invited === true;
const skipped = (o: DiscourseOutcome | null): boolean => o !== null && 'skipped' in o;

/**
 * The forum object from the email's jobs (newest first, as read) and whether the server grants
 * access (`hasAccess`: a member row with mg_status active), by the rule of the module table.
 */
export function customerForum(jobs: ForumJobRowView[], hasAccess: boolean): CustomerForumJson {
  const latest = jobs[0] ?? null;
  // Finished jobs the forum answered, oldest first (a skipped job told the forum nothing).
  const answered = jobs.filter((j) => j.state === 'done' && !skipped(j.outcome)).reverse();
  const invites: ForumInviteJson[] = [];
  answered.forEach((j, i) => {
    if (j.action !== 'grant' || !invited(j.outcome)) return;
    const next = answered[i + 1];
    invites.push({
      created_at: iso(j.finished_at ?? j.created_at) ?? '',
      expires_at: null,
      status: !next
        ? 'pending'
        : next.action === 'revoke'
          ? 'withdrawn'
          : invited(next.outcome)
            ? 'resent'
            : 'accepted',
    });
  });
  invites.reverse();
  let state: CustomerForumJson['state'];
  if (latest && latest.state !== 'done') state = 'unknown';
  else if (!hasAccess) state = 'none';
  else {
    const last = answered[answered.length - 1];
    state = last && last.action === 'grant' && invited(last.outcome) ? 'invited' : 'member';
  }
  return { state, username: null, jobs: jobs.map(forumJobJson), invites };
}

/** The newest CUSTOMER_FORUM_JOBS jobs of `email` (lower case), newest first. */
export async function forumJobsOf(db: Queryable, email: string): Promise<ForumJobRowView[]> {
  const r = await db.query<ForumJobRowView>(
    `SELECT ${JOB_COLUMNS} FROM forum_outbox WHERE email = $1 ORDER BY id DESC LIMIT ${CUSTOMER_FORUM_JOBS}`,
    [email],
  );
  return r.rows.map((j) => ({ ...j, id: Number(j.id) }));
}

/**
 * Re-queues the failed forum job `jobId` of `email` now (POST /customers/:email/forum-jobs/:id/retry)
 * → the job as it is now (pending, next attempt now, attempts counted afresh so the retry policy
 * applies in full). In one transaction with an audit row `forum.retry` and an info log row; the
 * worker is woken at once.
 *
 * Only the email's latest job may run again: a later job carries a newer access state, and the
 * worker runs an email's jobs in id order, so running an older one after it would undo it.
 * Errors: 404 when the email has no job `jobId`; 409 `{code:'NOT_FAILED'}` when it is pending or
 * sent; 409 `{code:'SUPERSEDED'}` when a later job of the email exists.
 */
export async function retryForumJob(
  deps: AppDeps,
  email: string,
  jobId: number,
  actor: AuditActor,
): Promise<ForumJobJson> {
  const now = deps.now();
  const job = await deps.db.transaction(async (tx) => {
    const found = await tx.query<ForumJobRowView & { later: number | null }>(
      `SELECT ${JOB_COLUMNS},
              (SELECT min(l.id) FROM forum_outbox l WHERE l.email = o.email AND l.id > o.id) AS later
         FROM forum_outbox o WHERE o.id = $1 AND o.email = $2 FOR UPDATE`,
      [jobId, email],
    );
    const row = found.rows[0];
    if (!row) throw notFound(`No forum job ${jobId} for ${email}`);
    if (row.state !== 'failed') {
      throw new ApiError(
        409,
        'conflict',
        `Forum job ${jobId} is ${row.state === 'done' ? 'sent' : row.state}; only a failed job can be retried`,
        { ok: false, code: 'NOT_FAILED' },
      );
    }
    if (row.later !== null) {
      throw new ApiError(
        409,
        'conflict',
        `Forum job ${jobId} was superseded by job ${Number(row.later)}, which carries the newer access state`,
        { ok: false, code: 'SUPERSEDED', superseded_by: Number(row.later) },
      );
    }
    const updated = await tx.query<ForumJobRowView>(
      `UPDATE forum_outbox
          SET state = 'pending', next_attempt_at = $2, attempts = 0, rate_limited = 0,
              finished_at = NULL, locked_until = NULL, claim_token = NULL
        WHERE id = $1
        RETURNING ${JOB_COLUMNS}`,
      [jobId, now],
    );
    const previous = { attempts: Number(row.attempts), last_error: row.last_error };
    await recordAudit(
      tx,
      actor,
      {
        action: 'forum.retry',
        target: email,
        detail: { job_id: jobId, action: row.action, reason: row.reason, previous },
      },
      now,
    );
    await insertLog(tx, now, 'info', 'forum.retry', {
      email,
      job_id: jobId,
      action: row.action,
      previous_attempts: previous.attempts,
      ...(actor.email ? { actor: actor.email } : {}),
    });
    await tx.query('SELECT pg_notify($1, $2)', [FORUM_OUTBOX_CHANNEL, email]);
    const out = updated.rows[0];
    if (!out) throw notFound(`No forum job ${jobId} for ${email}`);
    return { ...out, id: Number(out.id) };
  });
  // The customer's email stays in the logs table row; the process log names the job.
  deps.log.info({ job_id: jobId, actor: actor.email }, 'forum job re-queued');
  kickForumWorkers(deps.db);
  return forumJobJson(job);
}
