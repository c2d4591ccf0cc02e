/**
 * The forum part of an action's answer (specification §3 "Action response" discourse object, §8
 * action messages): after its
 * transaction commits, an action waits briefly (OUTBOX_WAIT_MS, default 2000 ms) for the worker
 * to run its forum job once, then answers
 * - the job's outcome when it finished (done or failed) — the same objects as before the outbox:
 *   {ok:true, status}, {ok:true, invited:true, groupId, status}, {skipped:true, reason},
 *   {ok:false, status, error, payload?};
 * - otherwise `{queued:true, job_id, reason, next_attempt_at?, last_status?, last_error?}`: the
 *   forum update is queued and runs in the background (reason says why: not run yet, or the
 *   first attempt failed and when the next one is).
 * The wait watches the job's row (so a worker of another instance counts too) and wakes at once
 * on this process's workers' attempts.
 */
import type { Db } from '../db/types';
import type { AppDeps } from '../context';
import { DISCOURSE_NOT_CONFIGURED, type DiscourseOutcome } from '../discourse/client';
import { kickForumWorkers, outboxEvents, type ForumJobRow } from './worker';

/** The answer while a forum job has not finished (docs/api.md "discourse"). Instants ISO UTC. */
export interface QueuedForumOutcome {
  queued: true;
  job_id: number;
  /** Why it is queued, e.g. 'the forum is updated in the background'. */
  reason: string;
  next_attempt_at?: string;
  last_status?: number | null;
  last_error?: string;
}

/** An action's `discourse` object: a finished job's outcome, or queued. */
export type ForumAnswer = DiscourseOutcome | QueuedForumOutcome;

/** The default wait of an action for its forum job, in ms (OUTBOX_WAIT_MS). */
export const DEFAULT_ANSWER_WAIT_MS = 2000;

type JobView = Pick<
  ForumJobRow,
  | 'id'
  | 'state'
  | 'attempts'
  | 'outcome'
  | 'locked_until'
  | 'next_attempt_at'
  | 'last_status'
  | 'last_error'
>;

/** Settled for the answer: finished, or its first attempt is over (now waiting for a retry). */
function settled(j: JobView): boolean {
  return j.state !== 'pending' || (j.attempts > 0 && j.locked_until === null);
}

async function readJobs(db: Db, ids: number[]): Promise<Map<number, JobView>> {
  const r = await db.query<JobView>(
    `SELECT id, state, attempts, outcome, locked_until, next_attempt_at, last_status, last_error
       FROM forum_outbox WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(r.rows.map((j) => [Number(j.id), { ...j, id: Number(j.id) }]));
}

/**
 * Waits up to `waitMs` for jobs `ids` to settle (see settled) → their rows by id (a missing id is
 * absent). Polls every 25 ms and wakes on this process's workers; never throws on a timeout.
 */
export async function awaitForumJobs(
  db: Db,
  ids: number[],
  waitMs: number,
): Promise<Map<number, JobView>> {
  const deadline = Date.now() + Math.max(0, waitMs);
  kickForumWorkers(db);
  const wanted = new Set(ids);
  for (;;) {
    const jobs = await readJobs(db, ids);
    const open = [...jobs.values()].some((j) => !settled(j));
    const remaining = deadline - Date.now();
    if (!open || remaining <= 0) return jobs;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        outboxEvents.off('attempt', onAttempt);
        resolve();
      };
      const onAttempt = (d: Db, id: number) => {
        if (d === db && wanted.has(id)) done();
      };
      const timer = setTimeout(done, Math.min(25, remaining));
      outboxEvents.on('attempt', onAttempt);
    });
  }
}

/** The answer for one job row (see module doc); `undefined` row → queued without details. */
export function forumAnswerOf(id: number, job: JobView | undefined): ForumAnswer {
  if (job && job.state !== 'pending' && job.outcome) return job.outcome;
  if (job && job.attempts > 0 && job.locked_until === null && job.last_error) {
    return {
      queued: true,
      job_id: id,
      reason: `attempt ${job.attempts} failed: ${job.last_error}; retrying at ${job.next_attempt_at.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      next_attempt_at: job.next_attempt_at.toISOString(),
      last_status: job.last_status,
      last_error: job.last_error,
    };
  }
  return { queued: true, job_id: id, reason: 'the forum is updated in the background' };
}

/**
 * The `discourse` object for forum job `jobId` written by an action that just committed:
 * {skipped, reason:'Discourse not configured'} at once when Discourse is not configured (the
 * worker completes the job the same way), else the job's outcome after waiting up to
 * config.outbox.waitMs (default 2000 ms), else queued.
 */
export async function forumAnswer(deps: AppDeps, jobId: number): Promise<ForumAnswer> {
  if (deps.config.discourse === null) return DISCOURSE_NOT_CONFIGURED;
  const waitMs = deps.config.outbox?.waitMs ?? DEFAULT_ANSWER_WAIT_MS;
  const jobs = await awaitForumJobs(deps.db, [jobId], waitMs);
  return forumAnswerOf(jobId, jobs.get(jobId));
}
