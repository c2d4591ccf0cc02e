/**
 * A reconciliation run (docs/api.md "Reconciliation"): compares one provider's subscriptions with
 * the database and, unless it is a dry run, applies each difference.
 *
 * - A dry run reads the provider and the database and writes nothing.
 * - A real run holds the provider's run lock (server/db/lock.ts; across instances over one
 *   PostgreSQL, in-process on PGlite): a second real run of the same provider is refused with 409,
 *   and the scheduler skips its tick. Each subscription is fixed in its own transaction, which
 *   locks the customer as a webhook does, applies the provider's state through the webhook's code,
 *   and writes a `reconcile.<provider>` logs row and a `reconcile.apply` audit row. A fix that fails
 *   rolls back alone and is reported in `failed`; the others still apply. A second run right after
 *   finds nothing to fix.
 * - The last real run's outcome per provider is kept in memory and in the `meta` table (key
 *   `reconcile_last_run:<provider>`) for GET /maintenance/diag.
 */
import type { AppDeps } from '../context';
import type { Db } from '../db/types';
import { isLockHeld, tryExclusive, type LockKey } from '../db/lock';
import { ApiError } from '../errors';
import { insertLog } from '../logRows';
import { invalidateStatsCache } from '../stats/cache';
import { recordAudit, type AuditActor } from '../audit/audit';
import { lockCustomer } from '../webhooks/common';
import { compareClickbank, clickbankNotConfigured } from './clickbank';
import { ProviderError, type ProviderHttpOptions } from './http';
import { compareLemonSqueezy, lemonSqueezyNotConfigured } from './lemonsqueezy';
import type { Comparison, FailedRow, ReconcileProvider, ReconcileResult } from './types';

/** Run locks of the real reconciliation runs, one per provider: 'mg' 5 and 6. */
export const RECONCILE_RUN_LOCKS: Record<ReconcileProvider, LockKey> = {
  lemonsqueezy: [0x6d67, 5],
  clickbank: [0x6d67, 6],
};

/** What GET /maintenance/diag reports about a provider's last real run. Instants ISO UTC. */
export interface ReconcileRunRecord {
  started_at: string;
  finished_at: string;
  /** 'console' or 'scheduler'. */
  trigger: string;
  ok: boolean;
  checked: number | null;
  missing: number | null;
  mismatched: number | null;
  applied: number | null;
  failed: number | null;
  /** The error message when ok is false. */
  error: string | null;
}

/** Options of one run. */
export interface ReconcileOptions {
  provider: ReconcileProvider;
  dryRun: boolean;
  /** 'console' (POST /maintenance/reconcile) or 'scheduler'. */
  trigger: string;
  /** Who the audit rows name: the operator, or SYSTEM_ACTOR for the schedule. */
  actor: AuditActor;
  /** Provider HTTP options (tests shorten waits). */
  http?: ProviderHttpOptions;
}

/** The `meta` key of a provider's last real run. */
export const lastRunKey = (provider: ReconcileProvider) => `reconcile_last_run:${provider}`;

interface ProviderState {
  running: { started_at: string; trigger: string } | null;
  last: ReconcileRunRecord | null;
}
const states = new WeakMap<Db, Record<ReconcileProvider, ProviderState>>();

function stateOf(db: Db, provider: ReconcileProvider): ProviderState {
  let s = states.get(db);
  if (!s) {
    s = {
      lemonsqueezy: { running: null, last: null },
      clickbank: { running: null, last: null },
    };
    states.set(db, s);
  }
  return s[provider];
}

/** Why `provider` cannot be reconciled with `deps.config`, or null when it can. */
export function reconcileNotConfigured(
  deps: Pick<AppDeps, 'config'>,
  provider: ReconcileProvider,
): string | null {
  return provider === 'lemonsqueezy'
    ? lemonSqueezyNotConfigured(deps.config)
    : clickbankNotConfigured(deps.config);
}

/** A provider's run state for diagnostics: configured, running (any instance), last real run. */
export async function reconcileStatus(
  deps: AppDeps,
  provider: ReconcileProvider,
): Promise<{ configured: boolean; running: boolean; last_run: ReconcileRunRecord | null }> {
  const s = stateOf(deps.db, provider);
  let last = s.last;
  if (last === null) {
    try {
      const r = await deps.db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [
        lastRunKey(provider),
      ]);
      const raw = r.rows[0]?.value;
      if (raw) last = JSON.parse(raw) as ReconcileRunRecord;
    } catch {
      last = null;
    }
  }
  let running = s.running !== null;
  if (!running)
    running = await isLockHeld(deps.db, RECONCILE_RUN_LOCKS[provider]).catch(() => false);
  return { configured: reconcileNotConfigured(deps, provider) === null, running, last_run: last };
}

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 300);

async function compare(deps: AppDeps, opts: ReconcileOptions): Promise<Comparison> {
  try {
    return opts.provider === 'lemonsqueezy'
      ? await compareLemonSqueezy(deps, opts.http)
      : await compareClickbank(deps, opts.http);
  } catch (err) {
    if (err instanceof ProviderError) {
      throw new ApiError(424, 'provider_unavailable', err.message, {
        provider: opts.provider,
        provider_status: err.status,
      });
    }
    throw err;
  }
}

/**
 * Runs a reconciliation (module doc) → its result. Throws ApiError 409 `not_configured` when the
 * provider is not configured, 409 `conflict` when a real run of it is already running, and 424
 * `provider_unavailable` when the provider cannot be read.
 */
export async function runReconcile(
  deps: AppDeps,
  opts: ReconcileOptions,
): Promise<ReconcileResult> {
  const reason = reconcileNotConfigured(deps, opts.provider);
  if (reason) throw new ApiError(409, 'not_configured', reason, { provider: opts.provider });
  if (opts.dryRun) {
    const ranAt = deps.now().toISOString();
    const c = await compare(deps, opts);
    return resultOf(opts, c, 0, c.failed, ranAt);
  }
  const s = stateOf(deps.db, opts.provider);
  const outcome = await tryExclusive(deps.db, RECONCILE_RUN_LOCKS[opts.provider], () =>
    applyHoldingLock(deps, opts, s),
  );
  if (outcome.acquired) return outcome.value;
  throw new ApiError(
    409,
    'conflict',
    `A ${opts.provider} reconciliation is already running${s.running ? ` (started ${s.running.started_at})` : ''}; try again when it has finished`,
  );
}

function resultOf(
  opts: ReconcileOptions,
  c: Comparison,
  applied: number,
  failed: FailedRow[],
  ranAt: string,
): ReconcileResult {
  return {
    provider: opts.provider,
    dryRun: opts.dryRun,
    checked: c.checked,
    missing: c.fixes
      .filter((f) => f.isMissing)
      .map((f) => ({
        email: f.email,
        subscription_id: f.subscriptionId,
        provider_status: f.providerStatus,
      })),
    mismatched: c.fixes.flatMap((f) => f.mismatches),
    applied,
    failed,
    not_at_provider: c.notAtProvider?.rows ?? [],
    not_at_provider_total: c.notAtProvider?.total ?? 0,
    ran_at: ranAt,
  };
}

async function applyHoldingLock(
  deps: AppDeps,
  opts: ReconcileOptions,
  s: ProviderState,
): Promise<ReconcileResult> {
  const startedAt = deps.now().toISOString();
  s.running = { started_at: startedAt, trigger: opts.trigger };
  const record = async (
    rec: Omit<ReconcileRunRecord, 'started_at' | 'finished_at' | 'trigger'>,
  ) => {
    s.last = {
      started_at: startedAt,
      finished_at: deps.now().toISOString(),
      trigger: opts.trigger,
      ...rec,
    };
    try {
      await deps.db.query(
        'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
        [lastRunKey(opts.provider), JSON.stringify(s.last)],
      );
    } catch (err) {
      deps.log.warn({ err: errorText(err) }, 'could not record the reconciliation run');
    }
  };
  try {
    const c = await compare(deps, opts);
    const failed = [...c.failed];
    let applied = 0;
    const reason = `reconcile.${opts.provider}`;
    for (const fix of c.fixes) {
      try {
        // Provider look-ups happen before the transaction, so it never waits on the network.
        await fix.prepare?.();
        await deps.db.transaction(async (tx) => {
          const now = deps.now();
          await lockCustomer(tx, fix.email);
          const effects = await fix.apply(tx, now, reason);
          const fields = fix.mismatches.map((m) => m.field);
          await insertLog(tx, now, 'info', reason, {
            provider: opts.provider,
            subscription_id: fix.subscriptionId,
            email: fix.email,
            missing: fix.isMissing,
            fields,
            effects,
            trigger: opts.trigger,
          });
          await recordAudit(
            tx,
            opts.actor,
            {
              action: 'reconcile.apply',
              target: fix.email,
              outcome: 'ok',
              detail: {
                provider: opts.provider,
                subscription_id: fix.subscriptionId,
                missing: fix.isMissing,
                provider_status: fix.providerStatus,
                mismatched: fix.mismatches.slice(0, 10).map((m) => ({
                  field: m.field,
                  ours: m.ours,
                  theirs: m.theirs,
                })),
                effects,
                trigger: opts.trigger,
              },
            },
            now,
          );
        });
        applied++;
      } catch (err) {
        failed.push({
          email: fix.email,
          subscription_id: fix.subscriptionId,
          error: errorText(err),
        });
      }
    }
    // Fixes move the dashboard figures: drop the cached ones (server/stats/cache.ts).
    if (applied > 0) await invalidateStatsCache(deps);
    const result = resultOf(opts, c, applied, failed, startedAt);
    await insertLog(deps.db, deps.now(), failed.length > 0 ? 'warn' : 'info', `${reason}.run`, {
      provider: opts.provider,
      trigger: opts.trigger,
      checked: result.checked,
      missing: result.missing.length,
      mismatched: result.mismatched.length,
      not_at_provider: result.not_at_provider_total,
      applied,
      failed: failed.length,
    });
    await record({
      ok: true,
      checked: result.checked,
      missing: result.missing.length,
      mismatched: result.mismatched.length,
      applied,
      failed: failed.length,
      error: null,
    });
    return result;
  } catch (err) {
    await insertLog(deps.db, deps.now(), 'warn', `reconcile.${opts.provider}.failed`, {
      provider: opts.provider,
      trigger: opts.trigger,
      error: errorText(err),
    }).catch(() => undefined);
    await record({
      ok: false,
      checked: null,
      missing: null,
      mismatched: null,
      applied: null,
      failed: null,
      error: errorText(err),
    });
    throw err;
  } finally {
    s.running = null;
  }
}
