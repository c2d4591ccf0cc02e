/**
 * Cached dashboard figures: GET /stats and GET /status are computed
 * at most once per `STATS_CACHE_S` seconds (ServerConfig.statsCacheS, default 15; 0 = no cache)
 * for each database, with single flight (concurrent requests share one computation), and dropped
 * as soon as a committed change can have moved them.
 *
 * Freshness rules (docs/api.md "Dashboard and status"):
 * - **Fresh** (computed less than the interval ago, nothing changed since): served as is.
 * - **Changed** (a live event was committed — access actions, maintenance runs, provider
 *   webhooks all emit one, server/live/emit.ts — or `invalidateStatsCache` was called): never
 *   served again; the next request waits for a new computation, shared by every request that
 *   arrives meanwhile. So the console, which refetches the figures when a live event reaches it,
 *   gets figures that include the change.
 * - **Expired** (older than the interval, nothing known to have changed — only the clock moved
 *   the time-dependent figures): served for one more interval while one background computation
 *   refreshes it (stale-while-revalidate), so no request waits for it.
 * - A computation that fails (or a /status that answers db_ok false) is not kept: every request
 *   waiting for it gets its answer, and the next request computes again.
 *
 * The live events arrive through `LISTEN live_events` (Db.listen), and explicit invalidations
 * through `LISTEN stats_invalidate`, so every server instance over one PostgreSQL drops its figures
 * when any instance commits a change. A result computed while a change committed is not kept.
 * Entries are keyed by kind, reporting currency and rates, and the UTC day of the clock (the
 * "today" counts start over at midnight UTC).
 */
import { randomUUID } from 'node:crypto';
import { readDbOf, type AppDeps, type ServerConfig } from '../context';
import type { Db } from '../db/types';
import { LIVE_EVENTS_CHANNEL } from '../live/emit';
import {
  computeAdminStatus,
  computeDashboardStats,
  utcDayBounds,
  type AdminStatusBody,
  type DashboardStatsBody,
} from './index';

/** Default STATS_CACHE_S: the longest a figure is reused when nothing changed, in seconds. */
export const DEFAULT_STATS_CACHE_S = 15;

/**
 * NOTIFY channel of explicit invalidations, so other instances drop theirs too. The payload names
 * the cache that sent it: that cache has already dropped its figures, and on PostgreSQL its own
 * notification arrives later, when a new computation may be under way that it must not discard.
 */
export const STATS_INVALIDATE_CHANNEL = 'stats_invalidate';

/** How a figure is computed: the signature of computeDashboardStats / computeAdminStatus. */
export type StatsComputation<T> = (
  db: Db,
  config: ServerConfig,
  now: Date,
  log?: AppDeps['log'],
) => Promise<T>;

interface Entry {
  value: unknown;
  /** deps.now() when its computation started, in ms since the epoch. */
  computedAtMs: number;
  generation: number;
}

interface Flight {
  promise: Promise<unknown>;
  generation: number;
}

interface DbCache {
  /** Bumped by every invalidation; entries and flights of an older generation are not used. */
  generation: number;
  entries: Map<string, Entry>;
  flights: Map<string, Flight>;
  /** Resolves true once both LISTENs are active, false when they failed (then nothing is kept). */
  listening: Promise<boolean> | null;
  /** This cache's name in the payload of its own `NOTIFY stats_invalidate` (see STATS_INVALIDATE_CHANNEL). */
  origin: string;
}

const caches = new WeakMap<Db, DbCache>();

function cacheOf(db: Db): DbCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = {
      generation: 0,
      entries: new Map(),
      flights: new Map(),
      listening: null,
      origin: randomUUID(),
    };
    caches.set(db, cache);
  }
  return cache;
}

function dropAll(cache: DbCache): void {
  cache.generation += 1;
  cache.entries.clear();
}

/** The configured interval in ms (statsCacheS, default DEFAULT_STATS_CACHE_S); 0 = no cache. */
export function statsCacheMs(config: Pick<ServerConfig, 'statsCacheS'>): number {
  const s = config.statsCacheS ?? DEFAULT_STATS_CACHE_S;
  return Number.isFinite(s) && s > 0 ? s * 1000 : 0;
}

function ensureListening(cache: DbCache, deps: Pick<AppDeps, 'db' | 'log'>): Promise<boolean> {
  if (!cache.listening) {
    const listening = (async () => {
      const onChange = () => dropAll(cache);
      const stopLive = await deps.db.listen(LIVE_EVENTS_CHANNEL, onChange);
      try {
        await deps.db.listen(STATS_INVALIDATE_CHANNEL, (origin) => {
          if (origin !== cache.origin) dropAll(cache);
        });
      } catch (err) {
        await stopLive().catch(() => undefined);
        throw err;
      }
      return true;
    })().catch((err: unknown) => {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'stats cache: cannot LISTEN for changes; figures are computed on every request',
      );
      if (cache.listening === listening) cache.listening = null; // try again next time
      return false;
    });
    cache.listening = listening;
  }
  return cache.listening;
}

function keyOf(kind: string, config: ServerConfig, now: Date): string {
  const rates = Object.entries(config.fxRates)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, r]) => `${c}=${r}`)
    .join(',');
  const day = utcDayBounds(now).start.toISOString().slice(0, 10);
  return `${kind}|${config.reportingCurrency}|${rates}|${day}`;
}

/**
 * The figure `kind` for `deps` under the freshness rules above: `compute(db, config, now, log)`
 * at most once per interval and per change, shared by concurrent callers. `keep` says whether a
 * result may be reused (e.g. not a db_ok false status). Rejects with the computation's error
 * (never cached).
 */
export async function cachedFigures<T>(
  deps: AppDeps,
  kind: string,
  compute: StatsComputation<T>,
  keep: (value: T) => boolean = () => true,
): Promise<T> {
  const ttlMs = statsCacheMs(deps.config);
  if (ttlMs === 0) return compute(readDbOf(deps), deps.config, deps.now(), deps.log);
  const cache = cacheOf(deps.db);
  if (!(await ensureListening(cache, deps))) {
    return compute(readDbOf(deps), deps.config, deps.now(), deps.log);
  }
  const now = deps.now();
  const nowMs = now.getTime();
  const key = keyOf(kind, deps.config, now);
  const entry = cache.entries.get(key);
  const age = entry ? nowMs - entry.computedAtMs : Number.NaN;
  // Same generation (nothing changed since) and not from the future (a test clock moved back).
  const current = entry != null && entry.generation === cache.generation && age >= 0;
  if (current && age < ttlMs) return entry.value as T;

  let flight = cache.flights.get(key);
  if (!flight || flight.generation !== cache.generation) {
    const generation = cache.generation;
    const promise: Promise<T> = (async () => compute(readDbOf(deps), deps.config, now, deps.log))()
      .then((value) => {
        if (cache.generation === generation && keep(value)) {
          cache.entries.set(key, { value, computedAtMs: nowMs, generation });
          prune(cache, nowMs, ttlMs);
        }
        return value;
      })
      .finally(() => {
        if (cache.flights.get(key)?.promise === promise) cache.flights.delete(key);
      });
    // A background refresh nobody awaits must not become an unhandled rejection.
    promise.catch((err: unknown) =>
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), kind },
        'stats cache: computation failed (not cached)',
      ),
    );
    flight = { promise, generation };
    cache.flights.set(key, flight);
  }
  // Expired but unchanged: serve it once more while the flight refreshes it.
  if (current && age < 2 * ttlMs) return entry.value as T;
  return flight.promise as Promise<T>;
}

/** Drops entries of another generation or too old to be served even stale. */
function prune(cache: DbCache, nowMs: number, ttlMs: number): void {
  for (const [key, e] of cache.entries) {
    const age = nowMs - e.computedAtMs;
    if (e.generation !== cache.generation || age >= 2 * ttlMs || age < 0) {
      cache.entries.delete(key);
    }
  }
}

/** GET /stats through the cache (computeDashboardStats unless another computation is given). */
export function cachedDashboardStats(
  deps: AppDeps,
  compute: StatsComputation<DashboardStatsBody> = computeDashboardStats,
): Promise<DashboardStatsBody> {
  return cachedFigures(deps, 'stats', compute);
}

/** GET /status through the cache; an answer with db_ok false is never reused. */
export function cachedAdminStatus(
  deps: AppDeps,
  compute: StatsComputation<AdminStatusBody> = computeAdminStatus,
): Promise<AdminStatusBody> {
  return cachedFigures(deps, 'status', compute, (v) => v.db_ok);
}

/**
 * Drops the cached /stats and /status figures of `deps.db` now, and sends
 * `NOTIFY stats_invalidate` so every other server instance over the same database drops theirs.
 * Call it after committing a change that moves the figures without emitting a live event (the
 * expiration run, a provider refresh, the seed, a test's TRUNCATE). Never rejects: a failed
 * NOTIFY is logged when a logger is given.
 */
export async function invalidateStatsCache(
  deps: Pick<AppDeps, 'db'> & Partial<Pick<AppDeps, 'log'>>,
): Promise<void> {
  const cache = caches.get(deps.db);
  if (cache) dropAll(cache);
  try {
    await deps.db.query('SELECT pg_notify($1, $2)', [
      STATS_INVALIDATE_CHANNEL,
      cache?.origin ?? '',
    ]);
  } catch (err) {
    deps.log?.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'stats cache: NOTIFY stats_invalidate failed',
    );
  }
}
