/**
 * Expiration of scheduled revocations (specification §2 Maintenance "Expire cancelled access",
 * §3 "Maintenance result", §4 Maintenance): members whose access is still active but whose
 * expires_at has arrived (expires_at ≤ now) are set to cancelled.
 *
 * A dry run only lists them. A real run updates them and writes one 'access.expired' info row and
 * one forum revoke job per user in ONE transaction (re-checking the condition, so
 * a concurrent grant is not undone). That transaction first takes the database-wide advisory lock
 * EXPIRATION_LOCK_KEY (pg_try_advisory_xact_lock), so two runs never overlap across server
 * instances: the second is refused with 409. After the commit, when Discourse is configured, it
 * waits up to `waitMs` for the forum worker and reports each user's forum outcome (or queued);
 * forum failures are retried by the worker and logged as warn rows, never rolled back.
 */
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { enqueueForumJobs } from '../outbox/enqueue';
import {
  awaitForumJobs,
  DEFAULT_ANSWER_WAIT_MS,
  forumAnswerOf,
  type ForumAnswer,
} from '../outbox/answer';
import { iso } from './params';
import { emitAccessEvent } from '../live/access';

/**
 * The advisory lock key of the real expiration run (any fixed 64-bit number unique to this use:
 * 'mgexpire' in ASCII, truncated). Held for the run's transaction only.
 */
export const EXPIRATION_LOCK_KEY = 0x6d67_6578_7069;

/** One affected user. expires_at is ISO UTC; discourse is present after a real run. */
export interface ExpirationDetail {
  email: string;
  expires_at: string | null;
  discourse?: ForumAnswer;
}

/** §3 Maintenance result. */
export interface ExpirationResult {
  /** Members changed (0 on a dry run). */
  processed: number;
  /** Members due (dry run) or changed (real run). */
  affected_count: number;
  affected: string[];
  details: ExpirationDetail[];
  /** At most 5 emails (§9). */
  sample_emails: string[];
  dryRun: boolean;
  /** Present on dry runs: what a real run would change. */
  preview?: { affected: number; users: string[] };
  meta: { ran_at: string };
}

/** How many example emails a result carries (§9 "examples list at most 5 emails"). */
export const SAMPLE_EMAILS = 5;

/**
 * The email of member `m`, looked up by the customers key per due member. The planner cannot see
 * that active members past their expiry are few (the columns correlate), and with a join it hashes
 * every customer; a lookup per row reads only the due ones.
 */
const EMAIL_OF_MEMBER = '(SELECT c.email FROM customers c WHERE c.id = m.customer_id)';

/** Due members in the order a run reports them: soonest expiry first, then member id. */
const byExpiry = (a: { id: number; expires_at: Date }, b: { id: number; expires_at: Date }) =>
  a.expires_at.getTime() - b.expires_at.getTime() || a.id - b.id;

/**
 * Finds members with mg_status active and expires_at ≤ now (deps.now()); unless `dryRun`, cancels
 * them (one transaction with their log rows and forum revoke jobs, reason 'expiration.{trigger}')
 * and waits up to `waitMs` (default OUTBOX_WAIT_MS, 2000; 0 = do not wait) for their forum
 * outcomes → ExpirationResult. A real run while another holds the lock → 409 ApiError.
 */
export async function runExpiration(
  deps: AppDeps,
  opts: { dryRun: boolean; trigger?: string; waitMs?: number },
): Promise<ExpirationResult> {
  const now = deps.now();
  const meta = { ran_at: now.toISOString() };
  if (opts.dryRun) {
    // Ordered by expires_at alone, the due members come straight off the (mg_status, expires_at)
    // index; the id tie-break is applied here, as for a real run.
    const due = await deps.db.query<{ id: number; email: string; expires_at: Date }>(
      `SELECT m.id, ${EMAIL_OF_MEMBER} AS email, m.expires_at FROM members m
        WHERE m.mg_status = 'active' AND m.expires_at <= $1 ORDER BY m.expires_at`,
      [now],
    );
    const details = [...due.rows]
      .sort(byExpiry)
      .map((r) => ({ email: r.email, expires_at: iso(r.expires_at) }));
    const affected = details.map((d) => d.email);
    return {
      processed: 0,
      affected_count: affected.length,
      affected,
      details,
      sample_emails: affected.slice(0, SAMPLE_EMAILS),
      dryRun: true,
      preview: { affected: affected.length, users: affected },
      meta,
    };
  }

  const trigger = opts.trigger ?? 'console';
  const changed = await deps.db.transaction(async (tx) => {
    const lock = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
      EXPIRATION_LOCK_KEY,
    ]);
    if (lock.rows[0]?.ok !== true) {
      throw new ApiError(
        409,
        'conflict',
        'An expiration run is already running on another server instance; try again when it has finished',
      );
    }
    const r = await tx.query<{ id: number; email: string; expires_at: Date }>(
      `UPDATE members m SET mg_status = 'cancelled', updated_at = $1
        WHERE m.mg_status = 'active' AND m.expires_at <= $1
        RETURNING m.id, ${EMAIL_OF_MEMBER} AS email, m.expires_at`,
      [now],
    );
    const rows = [...r.rows].sort(byExpiry);
    if (rows.length > 0) {
      await tx.query(
        `INSERT INTO logs (ts, level, msg, context)
         SELECT $1, 'info', 'access.expired',
                jsonb_build_object('email', x.email, 'action', 'expire', 'mg_status', 'cancelled', 'expires_at', x.expires_at)
           FROM unnest($2::text[], $3::text[]) AS x(email, expires_at)`,
        [now, rows.map((x) => x.email), rows.map((x) => x.expires_at.toISOString())],
      );
    }
    // One access.revoked live event per member, in this transaction.
    for (const row of rows) await emitAccessEvent(tx, 'access.revoked', row.email, now);
    const jobIds = await enqueueForumJobs(
      tx,
      rows.map((x) => ({
        email: x.email,
        action: 'revoke',
        reason: `expiration.${trigger}`,
        at: now,
      })),
    );
    return rows.map((x, i) => ({ ...x, jobId: jobIds[i] ?? 0 }));
  });

  const waitMs = opts.waitMs ?? deps.config.outbox?.waitMs ?? DEFAULT_ANSWER_WAIT_MS;
  const jobs =
    deps.config.discourse !== null && changed.length > 0
      ? await awaitForumJobs(
          deps.db,
          changed.map((x) => x.jobId),
          waitMs,
        )
      : null;
  const details: ExpirationDetail[] = changed.map((row) => {
    const detail: ExpirationDetail = { email: row.email, expires_at: iso(row.expires_at) };
    if (jobs) detail.discourse = forumAnswerOf(row.jobId, jobs.get(row.jobId));
    return detail;
  });
  const affected = details.map((d) => d.email);
  return {
    processed: affected.length,
    affected_count: affected.length,
    affected,
    details,
    sample_emails: affected.slice(0, SAMPLE_EMAILS),
    dryRun: false,
    meta,
  };
}
