/**
 * Starts the background side of the forum sync for one server instance: the forum worker
 * (server/outbox/worker.ts), the expiration scheduler (server/maintenance/scheduler.ts) and the
 * outbox retention (finished jobs are deleted after FORUM_OUTBOX_KEEP_DONE_DAYS days when done,
 * FORUM_OUTBOX_KEEP_FAILED_DAYS when failed; checked at start and then hourly). main.ts starts it
 * after the database is open and stops it before closing the database.
 */
import type { AppDeps } from '../context';
import type { Queryable } from '../db/types';
import { startExpirationScheduler, type ExpirationScheduler } from '../maintenance/scheduler';
import { ForumWorker, type ForumWorkerOptions } from './worker';

/** Days a done job is kept. */
export const FORUM_OUTBOX_KEEP_DONE_DAYS = 7;
/** Days a failed job is kept. */
export const FORUM_OUTBOX_KEEP_FAILED_DAYS = 30;

/** The running forum sync of one instance. */
export interface ForumSync {
  worker: ForumWorker;
  scheduler: ExpirationScheduler;
  /** Stops the scheduler, the retention timer and the worker (waiting for work in progress). */
  stop(): Promise<void>;
}

/** Deletes finished jobs past their retention at `now` → how many were deleted. */
export async function pruneForumOutbox(db: Queryable, now: Date): Promise<number> {
  const day = 86_400_000;
  const r = await db.query(
    `DELETE FROM forum_outbox
      WHERE (state = 'done' AND finished_at < $1) OR (state = 'failed' AND finished_at < $2)`,
    [
      new Date(now.getTime() - FORUM_OUTBOX_KEEP_DONE_DAYS * day),
      new Date(now.getTime() - FORUM_OUTBOX_KEEP_FAILED_DAYS * day),
    ],
  );
  return r.affectedRows ?? 0;
}

/** Starts the worker, the scheduler and the retention on `deps` (see module doc). */
export async function startForumSync(
  deps: AppDeps,
  opts: ForumWorkerOptions = {},
): Promise<ForumSync> {
  const worker = new ForumWorker(deps, opts);
  await worker.start();
  const scheduler = startExpirationScheduler(deps);
  let pruning: Promise<unknown> = Promise.resolve();
  const prune = () => {
    pruning = pruneForumOutbox(deps.db, deps.now()).catch((err: unknown) =>
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'forum outbox retention failed',
      ),
    );
  };
  prune();
  const timer = setInterval(prune, 3_600_000);
  timer.unref();
  return {
    worker,
    scheduler,
    stop: async () => {
      clearInterval(timer);
      await scheduler.stop();
      await worker.stop();
      await pruning;
    },
  };
}
