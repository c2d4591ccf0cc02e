/**
 * The expiration run as a job (specification §2 Maintenance "Expire cancelled access", §4
 * "Only one action runs at a time"):
 *
 * - a real run (dryRun false) cannot run twice at once, per database — also across several server
 *   instances over one PostgreSQL: a second start while one runs is refused with 409
 *   `{error:'conflict', message:'An expiration run is already running…'}`. The whole job holds the
 *   run lock of server/db/lock.ts (EXPIRATION_RUN_LOCK; in-process on PGlite), and the run's own
 *   transaction also takes the advisory lock EXPIRATION_LOCK_KEY (server/access/expiration.ts), so
 *   console runs and scheduler runs (trigger 'scheduler', server/maintenance/scheduler.ts) of all
 *   instances exclude each other;
 * - dry runs never write and may run any time; the dry run and the real run select with the same
 *   condition (server/access/expiration.ts: mg_status active AND expires_at ≤ now), so a real run
 *   applies what a dry run at that moment previews, and a dry run right after shows 0;
 * - the last real run's outcome (started/finished, ok, counts, sample emails, or the error) is
 *   kept in memory and in the `meta` table (key expiration_last_run) for GET /maintenance/diag.
 */
import type { Db } from '../db/types';
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { runExpiration, type ExpirationResult } from '../access/expiration';
import { invalidateStatsCache } from '../stats/cache';
import { EXPIRATION_RUN_LOCK, isLockHeld, tryExclusive } from '../db/lock';

/** What GET /maintenance/diag reports about the last real expiration run. Instants ISO UTC. */
export interface ExpirationRunRecord {
  started_at: string;
  finished_at: string;
  /** 'console' (POST run-expiration) or another trigger name (a scheduler). */
  trigger: string;
  ok: boolean;
  processed: number | null;
  affected_count: number | null;
  /** At most 5 emails. */
  sample_emails: string[];
  /** Members whose forum revoke had failed by the time the run answered (the worker retries). */
  forum_failures: number;
  /** The error message when ok is false. */
  error: string | null;
}

/** The `meta` key that keeps the last run (JSON). */
export const LAST_RUN_META_KEY = 'expiration_last_run';
/** The `meta` key naming the run in progress ({started_at, trigger}), for other instances' 409 and status. */
export const RUNNING_META_KEY = 'expiration_running';

interface JobState {
  running: { started_at: string; trigger: string } | null;
  last: ExpirationRunRecord | null;
}

const states = new WeakMap<Db, JobState>();

function stateOf(db: Db): JobState {
  let s = states.get(db);
  if (!s) {
    s = { running: null, last: null };
    states.set(db, s);
  }
  return s;
}

/** The job's current state for `db`: the run in progress (or null) and the last finished run (memory, else `meta`). */
export async function expirationJobStatus(
  db: Db,
): Promise<{ running: JobState['running']; last_run: ExpirationRunRecord | null }> {
  const s = stateOf(db);
  let last = s.last;
  if (last === null) {
    try {
      const r = await db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [
        LAST_RUN_META_KEY,
      ]);
      const raw = r.rows[0]?.value;
      if (raw) last = JSON.parse(raw) as ExpirationRunRecord;
    } catch {
      last = null;
    }
  }
  return { running: s.running ?? (await runningElsewhere(db)), last_run: last };
}

/** The run another instance is doing now (its meta record while it holds the lock), else null. */
async function runningElsewhere(db: Db): Promise<JobState['running']> {
  try {
    if (!(await isLockHeld(db, EXPIRATION_RUN_LOCK))) return null;
    const r = await db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [
      RUNNING_META_KEY,
    ]);
    const raw = r.rows[0]?.value;
    return raw ? (JSON.parse(raw) as NonNullable<JobState['running']>) : null;
  } catch {
    return null;
  }
}

/**
 * Runs the expiration: a dry run → runExpiration(dryRun true) as is; a real run → takes the
 * per-database lock (409 ApiError when held), runs, records the outcome (also on failure, then
 * rethrows) and releases the lock.
 */
export async function runExpirationJob(
  deps: AppDeps,
  opts: { dryRun: boolean; trigger?: string; waitMs?: number },
): Promise<ExpirationResult> {
  if (opts.dryRun) return runExpiration(deps, { dryRun: true });
  const s = stateOf(deps.db);
  const trigger = opts.trigger ?? 'console';
  const outcome = await tryExclusive(deps.db, EXPIRATION_RUN_LOCK, () =>
    runHoldingLock(deps, s, trigger, opts.waitMs),
  );
  if (outcome.acquired) return outcome.value;
  const running = s.running ?? (await runningElsewhere(deps.db));
  const since = running?.started_at ?? 'just now';
  throw new ApiError(
    409,
    'conflict',
    `An expiration run is already running (started ${since}); try again when it has finished`,
    running ? { running_since: running.started_at } : {},
  );
}

/** The real run, while this instance holds the run lock: records the outcome (also on failure, then rethrows). */
async function runHoldingLock(
  deps: AppDeps,
  s: JobState,
  trigger: string,
  waitMs: number | undefined,
): Promise<ExpirationResult> {
  const startedAt = deps.now().toISOString();
  s.running = { started_at: startedAt, trigger };
  await setMeta(deps, RUNNING_META_KEY, JSON.stringify(s.running));
  try {
    const result = await runExpiration(deps, { dryRun: false, trigger, waitMs });
    // Revocations move the dashboard figures: drop the cached ones (server/stats/cache.ts).
    if (result.affected_count > 0) await invalidateStatsCache(deps);
    await record(deps, s, {
      started_at: startedAt,
      finished_at: deps.now().toISOString(),
      trigger,
      ok: true,
      processed: result.processed,
      affected_count: result.affected_count,
      sample_emails: result.sample_emails,
      forum_failures: result.details.filter(
        (d) =>
          d.discourse !== undefined &&
          (('ok' in d.discourse && d.discourse.ok === false) ||
            ('queued' in d.discourse && d.discourse.last_error !== undefined)),
      ).length,
      error: null,
    });
    return result;
  } catch (err) {
    // Another instance was running it: nothing ran here, so the last run stays as it was.
    if (err instanceof ApiError && err.status === 409) throw err;
    await record(deps, s, {
      started_at: startedAt,
      finished_at: deps.now().toISOString(),
      trigger,
      ok: false,
      processed: null,
      affected_count: null,
      sample_emails: [],
      forum_failures: 0,
      error: err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300),
    });
    throw err;
  } finally {
    s.running = null;
  }
}

/** Upserts a `meta` row; a failure is logged, not thrown (the run itself matters more). */
async function setMeta(deps: AppDeps, key: string, value: string): Promise<void> {
  try {
    await deps.db.query(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [key, value],
    );
  } catch (err) {
    deps.log.warn(
      { err: err instanceof Error ? err.message : String(err), key },
      'could not write the expiration job state',
    );
  }
}

async function record(deps: AppDeps, s: JobState, rec: ExpirationRunRecord): Promise<void> {
  s.last = rec;
  await setMeta(deps, LAST_RUN_META_KEY, JSON.stringify(rec));
}
