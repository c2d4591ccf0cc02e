/**
 * The stats cache (server/stats/cache.ts): single flight, the
 * interval on an injected clock, stale-while-revalidate after expiry, invalidation by a committed
 * live event (not by a rolled-back one) and by invalidateStatsCache, failures never cached, and
 * the routes wired through it.
 */
import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../context';
import { emitLiveEvent } from '../live/emit';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { createStatsRouter } from '../routes/stats';
import { runExpirationJob } from '../maintenance/expirationJob';
import {
  cachedAdminStatus,
  cachedFigures,
  DEFAULT_STATS_CACHE_S,
  invalidateStatsCache,
  type StatsComputation,
} from './cache';
import { computeDashboardStats, type AdminStatusBody } from '.';

const T0 = new Date('2026-11-20T12:00:00.000Z');
const TTL_MS = DEFAULT_STATS_CACHE_S * 1000;

let db: Db;

beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db?.close();
});

/** Deps over the shared database whose clock the test moves (`clock.now`). */
function depsAt(clock: { now: Date }, statsCacheS?: number): AppDeps {
  const base = testDeps(db, clock.now, statsCacheS === undefined ? {} : { statsCacheS });
  return { ...base, now: () => new Date(clock.now.getTime()) };
}

/** A computation that counts its calls and answers the call number; `gate` holds it until released. */
function counter() {
  const state = {
    calls: 0,
    release: null as null | (() => void),
    fail: null as null | Error,
    gated: false,
  };
  const compute: StatsComputation<number> = async () => {
    state.calls += 1;
    const n = state.calls;
    if (state.gated) await new Promise<void>((resolve) => (state.release = resolve));
    if (state.fail) throw state.fail;
    return n;
  };
  return { state, compute };
}

/** Resolves once every notification committed before this call has reached this process's listeners. */
async function settle(): Promise<void> {
  let arrived!: () => void;
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  const stop = await db.listen('stats_cache_test_sentinel', () => arrived());
  await db.query("SELECT pg_notify('stats_cache_test_sentinel', 'x')");
  await seen;
  await stop();
}

async function commitLiveEvent(): Promise<void> {
  await db.transaction(async (tx) => {
    await emitLiveEvent(tx, {
      type: 'access.granted',
      email: 'someone@example.com',
      provider: null,
      amount_cents: null,
      currency: null,
      at: T0,
    });
  });
  await settle();
}

describe('cachedFigures', () => {
  it('runs one computation for concurrent requests (single flight)', async () => {
    const { state, compute } = counter();
    state.gated = true;
    const deps = depsAt({ now: T0 });
    const waiting = Array.from({ length: 12 }, () => cachedFigures(deps, 'single', compute));
    await new Promise((r) => setTimeout(r, 20));
    expect(state.calls).toBe(1);
    state.release?.();
    expect(await Promise.all(waiting)).toEqual(Array(12).fill(1));
    // Served from the cache afterwards.
    expect(await cachedFigures(deps, 'single', compute)).toBe(1);
    expect(state.calls).toBe(1);
  });

  it('reuses a figure for the interval, then serves it once more while one refresh runs', async () => {
    const { state, compute } = counter();
    const clock = { now: T0 };
    const deps = depsAt(clock);
    expect(await cachedFigures(deps, 'interval', compute)).toBe(1);
    clock.now = new Date(T0.getTime() + TTL_MS - 1);
    expect(await cachedFigures(deps, 'interval', compute)).toBe(1);
    expect(state.calls).toBe(1);

    // Expired, nothing changed: the old figure answers at once and one refresh starts.
    state.gated = true;
    clock.now = new Date(T0.getTime() + TTL_MS);
    const stale = await Promise.all([
      cachedFigures(deps, 'interval', compute),
      cachedFigures(deps, 'interval', compute),
    ]);
    expect(stale).toEqual([1, 1]);
    expect(state.calls).toBe(2);
    state.gated = false;
    state.release?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(await cachedFigures(deps, 'interval', compute)).toBe(2);
    expect(state.calls).toBe(2);

    // Older than twice the interval: too old to serve, the request waits for a new figure.
    clock.now = new Date(T0.getTime() + TTL_MS + 2 * TTL_MS);
    expect(await cachedFigures(deps, 'interval', compute)).toBe(3);
  });

  it('computes again on a new UTC day ("today" starts over) and when the clock moves back', async () => {
    const { state, compute } = counter();
    const clock = { now: new Date('2026-11-20T23:59:59.000Z') };
    const deps = depsAt(clock);
    expect(await cachedFigures(deps, 'day', compute)).toBe(1);
    clock.now = new Date('2026-11-21T00:00:00.000Z');
    expect(await cachedFigures(deps, 'day', compute)).toBe(2);
    clock.now = new Date('2026-11-20T23:59:58.000Z');
    expect(await cachedFigures(deps, 'day', compute)).toBe(3);
    expect(state.calls).toBe(3);
  });

  it('drops the figures when a live event commits, not when its transaction rolls back', async () => {
    const { state, compute } = counter();
    const deps = depsAt({ now: T0 });
    expect(await cachedFigures(deps, 'live', compute)).toBe(1);

    await expect(
      db.transaction(async (tx) => {
        await emitLiveEvent(tx, {
          type: 'subscription.new',
          email: 'rolled.back@example.com',
          provider: 'lemonsqueezy',
          amount_cents: 1900,
          currency: 'USD',
          at: T0,
        });
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    await settle();
    expect(await cachedFigures(deps, 'live', compute)).toBe(1);

    await commitLiveEvent();
    expect(await cachedFigures(deps, 'live', compute)).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('does not serve a changed figure even within the stale window', async () => {
    const { compute } = counter();
    const clock = { now: T0 };
    const deps = depsAt(clock);
    expect(await cachedFigures(deps, 'changed', compute)).toBe(1);
    clock.now = new Date(T0.getTime() + TTL_MS + 1);
    await commitLiveEvent();
    expect(await cachedFigures(deps, 'changed', compute)).toBe(2);
  });

  it('drops the figures on invalidateStatsCache', async () => {
    const { state, compute } = counter();
    const deps = depsAt({ now: T0 });
    expect(await cachedFigures(deps, 'explicit', compute)).toBe(1);
    await invalidateStatsCache(deps);
    expect(await cachedFigures(deps, 'explicit', compute)).toBe(2);
    expect(await cachedFigures(deps, 'explicit', compute)).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('keeps no result computed while a change committed, and starts a new computation for later requests', async () => {
    const { state, compute } = counter();
    state.gated = true;
    const deps = depsAt({ now: T0 });
    const before = cachedFigures(deps, 'racing', compute);
    await new Promise((r) => setTimeout(r, 10));
    const release1 = state.release;
    await invalidateStatsCache(deps);
    const after = cachedFigures(deps, 'racing', compute);
    await new Promise((r) => setTimeout(r, 10));
    expect(state.calls).toBe(2);
    const release2 = state.release;
    state.gated = false;
    release1?.();
    release2?.();
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await cachedFigures(deps, 'racing', compute)).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('rejects every waiter of a failed computation, caches nothing, and retries on the next call', async () => {
    const { state, compute } = counter();
    state.gated = true;
    state.fail = new Error('database hiccup');
    const deps = depsAt({ now: T0 });
    const waiting = Array.from({ length: 5 }, () =>
      cachedFigures(deps, 'errors', compute).then(
        () => 'resolved',
        (err: Error) => err.message,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    state.release?.();
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('database hiccup'));
    expect(state.calls).toBe(1);
    state.gated = false;
    state.fail = null;
    expect(await cachedFigures(deps, 'errors', compute)).toBe(2);
    expect(await cachedFigures(deps, 'errors', compute)).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('never reuses a /status answer with db_ok false', async () => {
    let calls = 0;
    const down: StatsComputation<AdminStatusBody> = async () => {
      calls += 1;
      return { db_ok: false } as AdminStatusBody;
    };
    const deps = depsAt({ now: T0 });
    await invalidateStatsCache(deps);
    expect((await cachedAdminStatus(deps, down)).db_ok).toBe(false);
    expect((await cachedAdminStatus(deps, down)).db_ok).toBe(false);
    expect(calls).toBe(2);
  });

  it('computes on every request with STATS_CACHE_S=0', async () => {
    const { state, compute } = counter();
    const deps = depsAt({ now: T0 }, 0);
    expect(await cachedFigures(deps, 'off', compute)).toBe(1);
    expect(await cachedFigures(deps, 'off', compute)).toBe(2);
    expect(state.calls).toBe(2);
  });

  it('honours a configured interval', async () => {
    const { compute } = counter();
    const clock = { now: T0 };
    const deps = depsAt(clock, 2);
    expect(await cachedFigures(deps, 'configured', compute)).toBe(1);
    clock.now = new Date(T0.getTime() + 1999);
    expect(await cachedFigures(deps, 'configured', compute)).toBe(1);
    clock.now = new Date(T0.getTime() + 4000); // beyond twice the interval: waits for a new one
    expect(await cachedFigures(deps, 'configured', compute)).toBe(2);
  });
});

describe('GET /stats and /status through the cache', () => {
  it('answers the cached figures until a live event commits, then the new ones', async () => {
    await resetDb(db);
    await db.exec(`
      INSERT INTO customers (id, email) VALUES (1, 'one@example.com'), (2, 'two@example.com');
      INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end)
        VALUES (1, 1, 'lemonsqueezy', 'ls-1', 'active', 'monthly', 'Pro', 1900, 'USD', '2026-01-01T00:00:00Z', '2026-12-01T00:00:00Z');
    `);
    const deps = testDeps(db, T0);
    const app = testApp(deps, [createStatsRouter]);
    const first = await call(app, 'GET', '/stats');
    expect(first.body).toMatchObject({ activeSubscribers: 1, mrr_cents: 1900 });
    expect((await call(app, 'GET', '/status')).body).toMatchObject({ active_total: 1, mrr: 1900 });

    // A write that emits nothing (as no route does) is not seen until the interval ends…
    await db.exec(`
      INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency, start_date, current_period_end)
        VALUES (2, 2, 'clickbank', 'CB-2', 'active', 'yearly', 'Pro', 12000, 'USD', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z');
    `);
    expect((await call(app, 'GET', '/stats')).body).toEqual(first.body);

    // …while a committed live event makes the next answer include it.
    await commitLiveEvent();
    const after = await call(app, 'GET', '/stats');
    expect(after.body).toEqual(await computeDashboardStats(db, deps.config, T0));
    expect(after.body).toMatchObject({ activeSubscribers: 2, mrr_cents: 2900 });
    expect((await call(app, 'GET', '/status')).body).toMatchObject({ active_total: 2, mrr: 2900 });
  });

  it('answers new figures right after an expiration run (which invalidates explicitly)', async () => {
    await resetDb(db);
    await db.exec(`
      INSERT INTO customers (id, email) VALUES (1, 'due@example.com');
      INSERT INTO members (customer_id, subscription_id, mg_status, expires_at)
        VALUES (1, NULL, 'active', '2026-11-19T00:00:00Z');
    `);
    const deps = testDeps(db, T0);
    const app = testApp(deps, [createStatsRouter]);
    expect((await call(app, 'GET', '/status')).body).toMatchObject({ pending_expire: 1 });
    const run = await runExpirationJob(deps, { dryRun: false, trigger: 'test' });
    expect(run.affected_count).toBe(1);
    expect((await call(app, 'GET', '/status')).body).toMatchObject({ pending_expire: 0 });
  });
});
