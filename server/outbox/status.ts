/**
 * The forum outbox's backlog and failures for GET /status and GET /maintenance/diag:
 * how many jobs are pending, how old the oldest is, how many failed, and the last error.
 */
import type { Queryable } from '../db/types';

/** The outbox figures (flat, as /status reports them). Ages in whole seconds, instants ISO UTC. */
export interface ForumOutboxStatus {
  /** Jobs not finished yet (waiting for their first attempt or for a retry). */
  forum_pending: number;
  /** Age of the oldest pending job at `now` in seconds; null when none is pending. */
  forum_oldest_pending_s: number | null;
  /**
   * Failed jobs not since superseded: no later job of the same email finished done. (A failed
   * job whose email later synced is resolved; see forum_failed_total in diag for all of them.)
   */
  forum_failed: number;
  /** The most recent failed attempt's error (any job, also one retried later) and its instant. */
  forum_last_error: string | null;
  forum_last_error_at: string | null;
}

/** Reads the outbox figures at `now`; rejects when the database fails (callers decide). */
export async function forumOutboxStatus(db: Queryable, now: Date): Promise<ForumOutboxStatus> {
  const r = await db.query<{
    pending: number;
    oldest: Date | null;
    failed: number;
  }>(
    `SELECT (SELECT count(*)::int FROM forum_outbox WHERE state = 'pending') AS pending,
            (SELECT min(created_at) FROM forum_outbox WHERE state = 'pending') AS oldest,
            (SELECT count(*)::int FROM forum_outbox f
              WHERE f.state = 'failed'
                AND NOT EXISTS (SELECT 1 FROM forum_outbox d
                                 WHERE d.email = f.email AND d.id > f.id AND d.state = 'done')) AS failed`,
  );
  const last = await db.query<{ last_error: string | null; last_error_at: Date }>(
    `SELECT last_error, last_error_at FROM forum_outbox
      WHERE last_error_at IS NOT NULL ORDER BY last_error_at DESC, id DESC LIMIT 1`,
  );
  const row = r.rows[0];
  const oldest = row?.oldest ?? null;
  return {
    forum_pending: row?.pending ?? 0,
    forum_oldest_pending_s:
      oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)),
    forum_failed: row?.failed ?? 0,
    forum_last_error: last.rows[0]?.last_error ?? null,
    forum_last_error_at: last.rows[0]?.last_error_at?.toISOString() ?? null,
  };
}

/** The same figures with nulls, for a database that cannot answer. */
export const FORUM_OUTBOX_STATUS_UNKNOWN: {
  [K in keyof ForumOutboxStatus]: null;
} = {
  forum_pending: null,
  forum_oldest_pending_s: null,
  forum_failed: null,
  forum_last_error: null,
  forum_last_error_at: null,
};

/** The diag section: the /status figures plus all failed jobs and a few recent failures. */
export async function forumOutboxDiag(db: Queryable, now: Date): Promise<Record<string, unknown>> {
  const status = await forumOutboxStatus(db, now);
  const totals = await db.query<{ done: number; failed: number; retrying: number }>(
    `SELECT count(*) FILTER (WHERE state = 'done')::int AS done,
            count(*) FILTER (WHERE state = 'failed')::int AS failed,
            count(*) FILTER (WHERE state = 'pending' AND attempts > 0)::int AS retrying
       FROM forum_outbox`,
  );
  const recent = await db.query<{
    id: number;
    email: string;
    action: string;
    attempts: number;
    last_status: number | null;
    last_error: string;
    finished_at: Date | null;
  }>(
    `SELECT id, email, action, attempts, last_status, last_error, finished_at FROM forum_outbox
      WHERE state = 'failed' ORDER BY id DESC LIMIT 5`,
  );
  return {
    pending: status.forum_pending,
    retrying: totals.rows[0]?.retrying ?? 0,
    oldest_pending_s: status.forum_oldest_pending_s,
    failed: status.forum_failed,
    failed_total: totals.rows[0]?.failed ?? 0,
    done_total: totals.rows[0]?.done ?? 0,
    last_error: status.forum_last_error,
    last_error_at: status.forum_last_error_at,
    recent_failures: recent.rows.map((f) => ({
      id: Number(f.id),
      email: f.email,
      action: f.action,
      attempts: f.attempts,
      status: f.last_status,
      error: f.last_error,
      failed_at: f.finished_at?.toISOString() ?? null,
    })),
  };
}
