/**
 * Benchmark of the dashboard figures: GET /stats and GET /status at BENCH_CUSTOMERS demo customers
 * (default 100 000), in two phases on one database.
 *
 * - **before**: the single-statement reference computation (server/testing/statsReference.ts)
 *   on every request, no cache, without migration 013's indexes (dropped for this phase and
 *   rebuilt afterwards, so the reference cannot borrow them);
 * - **after**: the real routes (server/routes/stats.ts): the sliced computation
 *   (server/stats/aggregate.ts) behind the cache (server/stats/cache.ts).
 *
 * Printed per phase: /stats and /status latency cold (computed: before = every request; after =
 * the first request after an invalidation; wall clock and process CPU time) and warm (after:
 * served from the cache), the CPU time of the longest single SQL statement of one computation
 * (what any other request may wait behind on PGlite's one connection), and the latency of
 * GET /users?page=1 sent back to back while /stats is being computed (p50 / p95 / max), next to
 * its latency on an idle server. The after figures must equal
 * the before figures: the bench says so (or stops).
 *
 *   npx tsx bench/server-stats.ts                                   # 100k customers, 20 runs
 *   BENCH_CUSTOMERS=20000 BENCH_RUNS=10 npx tsx bench/server-stats.ts
 *   BENCH_DATA_DIR=/tmp/bench-stats npx tsx bench/server-stats.ts   # keep the seeded database and reuse it
 *
 * (A run stopped during the "before" phase leaves migration 013's indexes dropped in a kept
 * BENCH_DATA_DIR: seed a new folder then.)
 *
 * Timings are measurements only; no test asserts them. Figures: bench/README.md "Dashboard stats".
 */
import { Hono } from 'hono';
import type { AppDeps } from '../server/context';
import { openDatabase } from '../server/db';
import type { Db } from '../server/db/types';
import { createStatsRouter } from '../server/routes/stats';
import { usersRoutes } from '../server/routes/users';
import { seedDemoData } from '../server/seed';
import { invalidateStatsCache } from '../server/stats/cache';
import { testApp, testDeps } from '../server/testing/app';
import { referenceAdminStatus, referenceDashboardStats } from '../server/testing/statsReference';
import { percentile } from './support';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const NOW = new Date('2026-11-22T12:00:00.000Z');
/** Indexes of migration 013, dropped for the "before" phase. */
const NEW_INDEXES = [
  'subscriptions_stats_slice_idx',
  'members_stats_expiry_idx',
  'subscription_events_refund_idx',
];

/** CPU time of this process (user + system) in ms since `since` (PGlite runs in this thread). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

/**
 * A Db whose query() records every statement's process CPU time into `durations` (ms): with
 * nothing else running, that is the work the statement holds PGlite's one connection for, far
 * steadier than wall clock on a shared machine.
 */
function timed(db: Db): { db: Db; durations: number[] } {
  const durations: number[] = [];
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return async (sql: string, params?: unknown[]) => {
          const cpu = process.cpuUsage();
          try {
            return await target.query(sql, params);
          } finally {
            durations.push(cpuMs(cpu));
          }
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: proxy, durations };
}

/** The "before" routes: the reference computation on every request. */
function beforeStatsRouter(deps: AppDeps): Hono {
  const router = new Hono();
  router.get('/stats', async (c) =>
    c.json(await referenceDashboardStats(deps.db, deps.config, deps.now(), deps.log)),
  );
  router.get('/status', async (c) =>
    c.json(await referenceAdminStatus(deps.db, deps.config, deps.now(), deps.log)),
  );
  return router;
}

async function get(app: Hono, path: string): Promise<{ ms: number; cpu: number; body: string }> {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const res = await app.request(path);
  const body = await res.text();
  const ms = performance.now() - t;
  const cpu = cpuMs(cpu0);
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${body}`);
  return { ms, cpu, body };
}

interface PhaseFigures {
  statsCold: number[];
  statsColdCpu: number[];
  statsWarm: number[];
  statusCold: number[];
  statusColdCpu: number[];
  statusWarm: number[];
  longestStatsStatement: number[];
  usersIdle: number[];
  usersDuring: number[];
  statsBody: string;
  statusBody: string;
}

/**
 * Measures one phase. `recompute` prepares a cold request (after: drops the cache; before:
 * nothing, every request computes).
 */
async function phase(app: Hono, durations: number[], recompute: () => Promise<void>) {
  const f: PhaseFigures = {
    statsCold: [],
    statsColdCpu: [],
    statsWarm: [],
    statusCold: [],
    statusColdCpu: [],
    statusWarm: [],
    longestStatsStatement: [],
    usersIdle: [],
    usersDuring: [],
    statsBody: '',
    statusBody: '',
  };
  // Untimed warm-up: WebAssembly tier-up and catalog caches, as on a running server.
  for (let i = 0; i < 2; i++) {
    await recompute();
    await get(app, '/stats');
    await get(app, '/status');
    await get(app, '/users?page=1');
  }
  for (let i = 0; i < RUNS; i++) {
    await recompute();
    durations.length = 0;
    const cold = await get(app, '/stats');
    f.statsCold.push(cold.ms);
    f.statsColdCpu.push(cold.cpu);
    f.longestStatsStatement.push(Math.max(...durations));
    f.statsBody = cold.body;
    f.statsWarm.push((await get(app, '/stats')).ms);
    await recompute();
    const status = await get(app, '/status');
    f.statusCold.push(status.ms);
    f.statusColdCpu.push(status.cpu);
    f.statusBody = status.body;
    f.statusWarm.push((await get(app, '/status')).ms);
    f.usersIdle.push((await get(app, '/users?page=1')).ms);
  }
  // A cheap request sent back to back while /stats is being computed.
  for (let i = 0; i < RUNS; i++) {
    await recompute();
    let done = false;
    const stats = get(app, '/stats').finally(() => {
      done = true;
    });
    while (!done) f.usersDuring.push((await get(app, '/users?page=1')).ms);
    await stats;
  }
  return f;
}

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR ?? 'memory';
  const t0 = performance.now();
  const raw = await openDatabase(dataDir);
  const have =
    (await raw.query<{ n: number }>('SELECT count(*)::int AS n FROM customers')).rows[0]?.n ?? 0;
  if (have === 0) {
    await seedDemoData(raw, { customers: CUSTOMERS, seed: 42, now: NOW });
  } else if (have !== CUSTOMERS) {
    throw new Error(
      `${dataDir} holds ${have} customers, not ${CUSTOMERS}; use another BENCH_DATA_DIR`,
    );
  }
  console.log(
    `database (${dataDir}): ${have === 0 ? 'seeded' : 'reused'} in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${CUSTOMERS} customers`,
  );
  const { db, durations } = timed(raw);
  const deps = testDeps(db, NOW, { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } });

  // Before: no migration 013 indexes, the reference computation on every request.
  const defs = await raw.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = current_schema() AND indexname = ANY($1)`,
    [NEW_INDEXES],
  );
  for (const ix of defs.rows) await raw.exec(`DROP INDEX "${ix.name}"`);
  const before = await phase(testApp(deps, [beforeStatsRouter, usersRoutes]), durations, () =>
    Promise.resolve(),
  );
  for (const ix of defs.rows) await raw.exec(ix.def);
  await raw.exec('VACUUM ANALYZE subscriptions, members, subscription_events');

  // After: the real routes, cache included.
  const after = await phase(testApp(deps, [createStatsRouter, usersRoutes]), durations, () =>
    invalidateStatsCache(deps),
  );

  const sameStats = before.statsBody === after.statsBody;
  const statusBefore = JSON.parse(before.statusBody) as Record<string, unknown>;
  const statusAfter = JSON.parse(after.statusBody) as Record<string, unknown>;
  const sameStatus = Object.entries(statusBefore).every(
    ([k, v]) => JSON.stringify(statusAfter[k]) === JSON.stringify(v),
  );
  console.log(`\n/stats  ${after.statsBody}`);
  console.log(
    `figures unchanged: /stats ${sameStats ? 'yes' : 'NO'}, /status ${sameStatus ? 'yes' : 'NO'}`,
  );

  const rows: [string, number[], number[]][] = [
    ['GET /stats cold (computed)', before.statsCold, after.statsCold],
    ['GET /stats cold, CPU', before.statsColdCpu, after.statsColdCpu],
    ['GET /stats warm (cached)', before.statsWarm, after.statsWarm],
    ['GET /status cold (computed)', before.statusCold, after.statusCold],
    ['GET /status cold, CPU', before.statusColdCpu, after.statusColdCpu],
    ['GET /status warm (cached)', before.statusWarm, after.statusWarm],
    ['longest statement of /stats, CPU', before.longestStatsStatement, after.longestStatsStatement],
    ['GET /users?page=1, idle', before.usersIdle, after.usersIdle],
    ['GET /users?page=1 during /stats', before.usersDuring, after.usersDuring],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const head = ['before p50', 'p95', 'max', 'after p50', 'p95', 'max', 'n (b/a)'];
  console.log(`\n${'ms'.padEnd(width)}  ${head.map((h) => h.padStart(10)).join('')}`);
  for (const [name, b, a] of rows) {
    const figures = [
      percentile(b, 50),
      percentile(b, 95),
      Math.max(...b),
      percentile(a, 50),
      percentile(a, 95),
      Math.max(...a),
    ].map((v) => v.toFixed(1).padStart(10));
    console.log(
      `${name.padEnd(width)}  ${figures.join('')}${`${b.length}/${a.length}`.padStart(10)}`,
    );
  }
  console.log(
    `\n${RUNS} runs per figure after 2 warm-up runs; ${CUSTOMERS} customers; Node ${process.version}. ` +
      'Before: one statement per figure, every request computes. After: sliced statements behind the cache ' +
      '(cold = first request after invalidateStatsCache). Wall-clock ms, except the CPU rows: process CPU ms ' +
      '(PGlite runs in this thread: the work done, far less disturbed by other load on the machine).',
  );
  if (!sameStats || !sameStatus) process.exitCode = 1;
  await raw.close();
}

await main();
