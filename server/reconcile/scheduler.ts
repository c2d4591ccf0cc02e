/**
 * The reconciliation schedule: every RECONCILE_INTERVAL_S seconds (default 3600; 0 = off) a real
 * reconciliation of each configured provider, one after the other, audited as the system.
 *
 * Every instance runs a schedule, but a provider's real runs hold its run lock
 * (server/reconcile/job.ts), so a tick that finds it held on any instance is skipped quietly (a
 * debug line). A provider that is not configured is skipped with its reason in the process log
 * (once, and again when the reason changes); a provider that cannot be read is a warning, and the
 * next tick tries again. The first run happens one interval after start.
 */
import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import { SYSTEM_ACTOR } from '../audit/audit';
import type { ProviderHttpOptions } from './http';
import { reconcileNotConfigured, runReconcile } from './job';
import { RECONCILE_PROVIDERS, type ReconcileProvider, type ReconcileResult } from './types';

/** The default of RECONCILE_INTERVAL_S, in seconds. */
export const DEFAULT_RECONCILE_INTERVAL_S = 3600;

/** A running schedule. */
export interface ReconcileScheduler {
  /** Interval in seconds (0 when off). */
  intervalS: number;
  /** Runs one tick now → each provider's result, or its skip reason. Never rejects. */
  tick(): Promise<Record<ReconcileProvider, ReconcileResult | { skipped: string }>>;
  /** Stops the timer and waits for a tick in progress. Idempotent. */
  stop(): Promise<void>;
}

/** Starts the schedule on `deps` (interval default deps.config.reconcileIntervalS, else 3600). */
export function startReconcileScheduler(
  deps: AppDeps,
  intervalS: number = deps.config.reconcileIntervalS ?? DEFAULT_RECONCILE_INTERVAL_S,
  http?: ProviderHttpOptions,
): ReconcileScheduler {
  let stopped = false;
  let current: ReturnType<ReconcileScheduler['tick']> | null = null;
  const lastSkip = new Map<ReconcileProvider, string>();

  const one = async (
    provider: ReconcileProvider,
  ): Promise<ReconcileResult | { skipped: string }> => {
    const reason = reconcileNotConfigured(deps, provider);
    if (reason) {
      if (lastSkip.get(provider) !== reason) {
        deps.log.info({ provider, reason }, 'scheduled reconciliation skipped');
        lastSkip.set(provider, reason);
      }
      return { skipped: reason };
    }
    lastSkip.delete(provider);
    try {
      const result = await runReconcile(deps, {
        provider,
        dryRun: false,
        trigger: 'scheduler',
        actor: SYSTEM_ACTOR,
        http,
      });
      if (result.applied > 0 || result.failed.length > 0) {
        deps.log.info(
          { provider, applied: result.applied, failed: result.failed.length },
          'scheduled reconciliation applied provider changes',
        );
      }
      return result;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof ApiError && err.status === 409) {
        deps.log.debug({ provider, reason: message }, 'scheduled reconciliation skipped');
      } else if (!stopped) {
        deps.log.warn(
          { provider, err: message },
          'scheduled reconciliation failed; the next interval tries again',
        );
      }
      return { skipped: message };
    }
  };

  const tick: ReconcileScheduler['tick'] = () => {
    current ??= (async () => {
      const out = {} as Record<ReconcileProvider, ReconcileResult | { skipped: string }>;
      for (const provider of RECONCILE_PROVIDERS) out[provider] = await one(provider);
      return out;
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
