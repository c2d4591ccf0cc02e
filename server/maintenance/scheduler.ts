/**
 * The expiration scheduler: every
 * EXPIRATION_INTERVAL_S seconds (default 300; 0 disables it) it runs the real expiration job with
 * trigger 'scheduler', so dated (grant until / revoke on a date) and deferred (revoke at renewal)
 * revocations take effect on time, and their forum revoke jobs are written in the same transaction.
 *
 * Every server instance runs a scheduler, but only one run happens at a time across instances:
 * the run's transaction takes a database advisory lock (server/access/expiration.ts), and a run
 * that finds it held — or a console run in progress in this process — is skipped quietly (a debug
 * line), not recorded. The first run happens one interval after start. The scheduler does not wait
 * for forum outcomes (the worker runs the jobs in the background).
 */
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import type { ExpirationResult } from '../access/expiration';
import { runExpirationJob } from './expirationJob';

/** The default of EXPIRATION_INTERVAL_S, in seconds. */
export const DEFAULT_EXPIRATION_INTERVAL_S = 300;

/** A running scheduler. */
export interface ExpirationScheduler {
  /** Interval in seconds (0 when disabled). */
  intervalS: number;
  /**
   * Runs one scheduled expiration now → its result, or null when skipped because another run
   * holds the lock. Other failures are logged and resolve null (the next tick tries again).
   */
  tick(): Promise<ExpirationResult | null>;
  /** Stops the timer and waits for a run in progress. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts the scheduler on `deps` with `intervalS` (default deps.config.expirationIntervalS, else
 * 300; 0 → a scheduler whose tick still works but that never runs by itself).
 */
export function startExpirationScheduler(
  deps: AppDeps,
  intervalS: number = deps.config.expirationIntervalS ?? DEFAULT_EXPIRATION_INTERVAL_S,
): ExpirationScheduler {
  let stopped = false;
  let current: Promise<ExpirationResult | null> | null = null;

  const tick = (): Promise<ExpirationResult | null> => {
    current ??= (async () => {
      try {
        const result = await runExpirationJob(deps, {
          dryRun: false,
          trigger: 'scheduler',
          waitMs: 0,
        });
        if (result.processed > 0) {
          deps.log.info(
            { processed: result.processed, sample_emails: result.sample_emails },
            'scheduled expiration applied due revocations',
          );
        }
        return result;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          deps.log.debug({ reason: err.message }, 'scheduled expiration skipped');
        } else if (!stopped) {
          deps.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'scheduled expiration failed; the next interval tries again',
          );
        }
        return null;
      }
    })().finally(() => {
      current = null;
    });
    return current;
  };

  const timer =
    intervalS > 0
      ? setInterval(() => {
          if (!stopped) void tick();
        }, intervalS * 1000)
      : null;
  timer?.unref();

  return {
    intervalS,
    tick,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await current;
    },
  };
}
