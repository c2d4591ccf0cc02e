/**
 * Benchmark of the dashboard figures: GET /stats and GET /status at BENCH_CUSTOMERS demo customers
 * (default 100 000), in two phases on one database (bench/support.ts).
 *
 * - **before** (BENCH_STATS_BEFORE=1; the default on PGlite, off when DATABASE_URL is set): the
 *   single-statement reference computation (server/testing/statsReference.ts) on every request,
 *   no cache, without the indexes of migrations 013 and 023 (dropped for this phase and rebuilt
 *   afterwards, so the reference cannot borrow them);
 * - **after**: the real routes (server/routes/stats.ts): the computation from roll-ups and short
 *   index reads (server/stats/aggregate.ts, migration 023) behind the cache (server/stats/cache.ts).
 *
 * Printed per phase: /stats and /status latency cold (computed: before = every request; after =
 * the first request after an invalidation; wall clock and process CPU time) and warm (after:
 * served from the cache), the CPU time of the longest single SQL statement of one computation
 * (what any other request may wait behind on PGlite's one connection), and the latency of
 * GET /users?page=1 sent back to back while /stats is being computed (p50 / p95 / max), next to
 * its latency on an idle server. The after figures must equal
 * the before figures: the bench says so (or stops). Then the rows over budget (after: /stats and
 * /status computed p95 ≤ 300 ms, /users?page=1 idle ≤ 25 ms).
 *
 *   npx tsx bench/server-stats.ts                                   # 100k customers, 20 runs
 *   BENCH_CUSTOMERS=20000 BENCH_RUNS=10 npx tsx bench/server-stats.ts
 *   BENCH_DATA_DIR=/tmp/bench-stats npx tsx bench/server-stats.ts   # keep the seeded database and reuse it
 *   DATABASE_URL=postgres://… npx tsx bench/server-stats.ts         # on PostgreSQL, "after" only
 *   BENCH_STATS_BEFORE=0 npx tsx bench/server-stats.ts              # skip "before" on PGlite too
 *   npx tsx bench/server-stats.ts --explain                         # + EXPLAIN (ANALYZE, BUFFERS) of the rows over budget
 *   npx tsx bench/server-stats.ts --explain-all                     # + the same for every budgeted row
 *
 * The indexes dropped for "before" are recorded in `meta` first and rebuilt when the phase ends,
 * fails or is interrupted (SIGINT, SIGTERM); a run killed outright leaves the record, and the
 * next run on the same database rebuilds them before measuring.
 *
 * Timings are measurements only; no test asserts them. Figures: bench/README.md "Dashboard stats".
 */
import { Hono } from 'hono';
import type { AppDeps } from '../server/context';
import type { Db } from '../server/db/types';
import { createStatsRouter } from '../server/routes/stats';
import { usersRoutes } from '../server/routes/users';
import { invalidateStatsCache } from '../server/stats/cache';
import { testApp, testDeps } from '../server/testing/app';
import { referenceAdminStatus, referenceDashboardStats } from '../server/testing/statsReference';
import {
  type BudgetRow,
  cpuNote,
  describeBenchDatabase,
  explainMode,
  explainQueries,
  isOverBudget,
  openBenchDatabase,
  percentile,
  type QueryLog,
  recording,
  reportBudgets,
} from './support';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const NOW = new Date('2026-11-22T12:00:00.000Z');
const EXPLAIN = explainMode();
/**
 * Whether to measure the "before" phase: dropping and rebuilding migration 013's indexes is quick
 * on PGlite at 100k customers but slow on a large PostgreSQL, where only "after" is asked for.
 */
const BEFORE = process.env.BENCH_STATS_BEFORE
  ? process.env.BENCH_STATS_BEFORE !== '0'
  : !process.env.DATABASE_URL?.trim();
/** The meta key recording the indexes dropped for "before" (JSON: [{ name, def }]). */
const DROPPED_MARK = 'bench_stats_dropped_indexes';
/** p95 budgets of the after phase, ms, by row name. */
const BUDGETS_MS: Record<string, number> = {
  'GET /stats cold (computed)': 300,
  'GET /status cold (computed)': 300,
  'GET /users?page=1, idle': 25,
};
/** Indexes of migrations 013 and 023, dropped for the "before" phase. */
const NEW_INDEXES = [
  'subscriptions_stats_slice_idx',
  'members_stats_expiry_idx',
  'subscription_events_refund_idx',
  'subscriptions_stats_end_idx',
  'subscriptions_stats_cancelled_idx',
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
  // PGlite answers through promises alone, so a run of requests never reaches the event loop's
  // poll phase, where signals are delivered: one turn of the loop per request (untimed) lets
  // SIGINT / SIGTERM rebuild the dropped indexes mid-phase.
  await new Promise((resolve) => setImmediate(resolve));
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

/**
 * Rebuilds the indexes recorded under DROPPED_MARK that are missing, then drops the record (and
 * refreshes the planner statistics when it rebuilt any) → the names rebuilt.
 */
async function restoreDroppedIndexes(db: Db): Promise<string[]> {
  const saved = (
    await db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [DROPPED_MARK])
  ).rows[0];
  if (!saved) return [];
  const defs = JSON.parse(saved.value) as { name: string; def: string }[];
  const present = new Set(
    (
      await db.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes
          WHERE schemaname = current_schema() AND indexname = ANY($1)`,
        [defs.map((d) => d.name)],
      )
    ).rows.map((r) => r.name),
  );
  const rebuilt: string[] = [];
  for (const ix of defs) {
    if (present.has(ix.name)) continue;
    await db.exec(ix.def);
    rebuilt.push(ix.name);
  }
  await db.query('DELETE FROM meta WHERE key = $1', [DROPPED_MARK]);
  if (rebuilt.length > 0)
    await db.exec('VACUUM ANALYZE subscriptions, members, subscription_events');
  return rebuilt;
}

/**
 * Runs `fn` with migration 013's indexes dropped: they are recorded in `meta` before the drop and
 * rebuilt afterwards, also when `fn` throws or the process is asked to stop.
 */
async function withoutNewIndexes<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const defs = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = current_schema() AND indexname = ANY($1)`,
    [NEW_INDEXES],
  );
  await db.query(
    `INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [DROPPED_MARK, JSON.stringify(defs.rows)],
  );
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: rebuilding migration 013's indexes before exiting`);
    void restoreDroppedIndexes(db).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const ix of defs.rows) await db.exec(`DROP INDEX "${ix.name}"`);
    return await fn();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await restoreDroppedIndexes(db);
  }
}

/** The queries of one cold request for `path` (after `recompute`), from the recording proxy. */
async function recordCold(
  app: Hono,
  log: QueryLog,
  path: string,
  recompute: () => Promise<void>,
): Promise<QueryLog> {
  await recompute();
  log.length = 0;
  await get(app, path);
  return [...log];
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase({ customers: CUSTOMERS, seed: 42, now: NOW });
  const raw = bench.db;
  console.log(describeBenchDatabase(bench, CUSTOMERS));
  const rebuilt = await restoreDroppedIndexes(raw);
  if (rebuilt.length > 0) {
    console.log(`rebuilt indexes a stopped earlier run left dropped: ${rebuilt.join(', ')}`);
  }
  const rec = recording(raw);
  const { db, durations } = timed(rec.db);
  const deps = testDeps(db, NOW, { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } });

  // Before: no migration 013 indexes, the reference computation on every request.
  const before = BEFORE
    ? await withoutNewIndexes(raw, () =>
        phase(testApp(deps, [beforeStatsRouter, usersRoutes]), durations, () => Promise.resolve()),
      )
    : null;
  if (!before) console.log('before phase skipped (BENCH_STATS_BEFORE=0, or DATABASE_URL set)');

  // After: the real routes, cache included.
  const afterApp = testApp(deps, [createStatsRouter, usersRoutes]);
  const recompute = () => invalidateStatsCache(deps);
  const after = await phase(afterApp, durations, recompute);
  const queries: Record<string, QueryLog> = {
    'GET /stats cold (computed)': await recordCold(afterApp, rec.log, '/stats', recompute),
    'GET /status cold (computed)': await recordCold(afterApp, rec.log, '/status', recompute),
    'GET /users?page=1, idle': await recordCold(afterApp, rec.log, '/users?page=1', () =>
      Promise.resolve(),
    ),
  };

  console.log(`\n/stats  ${after.statsBody}`);
  let same = true;
  if (before) {
    const sameStats = before.statsBody === after.statsBody;
    const statusBefore = JSON.parse(before.statusBody) as Record<string, unknown>;
    const statusAfter = JSON.parse(after.statusBody) as Record<string, unknown>;
    const sameStatus = Object.entries(statusBefore).every(
      ([k, v]) => JSON.stringify(statusAfter[k]) === JSON.stringify(v),
    );
    console.log(
      `figures unchanged: /stats ${sameStats ? 'yes' : 'NO'}, /status ${sameStatus ? 'yes' : 'NO'}`,
    );
    same = sameStats && sameStatus;
  }

  const pick = (f: PhaseFigures | null, k: keyof Omit<PhaseFigures, 'statsBody' | 'statusBody'>) =>
    f ? f[k] : [];
  const rows: [string, number[], number[]][] = [
    ['GET /stats cold (computed)', pick(before, 'statsCold'), after.statsCold],
    ['GET /stats cold, CPU', pick(before, 'statsColdCpu'), after.statsColdCpu],
    ['GET /stats warm (cached)', pick(before, 'statsWarm'), after.statsWarm],
    ['GET /status cold (computed)', pick(before, 'statusCold'), after.statusCold],
    ['GET /status cold, CPU', pick(before, 'statusColdCpu'), after.statusColdCpu],
    ['GET /status warm (cached)', pick(before, 'statusWarm'), after.statusWarm],
    [
      'longest statement of /stats, CPU',
      pick(before, 'longestStatsStatement'),
      after.longestStatsStatement,
    ],
    ['GET /users?page=1, idle', pick(before, 'usersIdle'), after.usersIdle],
    ['GET /users?page=1 during /stats', pick(before, 'usersDuring'), after.usersDuring],
  ];
  const budgetRows: BudgetRow[] = rows.map(([name, , a]) => ({
    name,
    p95: percentile(a, 95),
    budgetMs: BUDGETS_MS[name] ?? 0,
    queries: queries[name] ?? [],
  }));
  const width = Math.max(...rows.map((r) => r[0].length));
  const head = ['before p50', 'p95', 'max', 'after p50', 'p95', 'max', 'n (b/a)', 'budget'];
  console.log(`\n${'ms'.padEnd(width)}  ${head.map((h) => h.padStart(10)).join('')}`);
  for (const [i, [name, b, a]] of rows.entries()) {
    const figures = [
      percentile(b, 50),
      percentile(b, 95),
      b.length > 0 ? Math.max(...b) : NaN,
      percentile(a, 50),
      percentile(a, 95),
      Math.max(...a),
    ].map((v) => (Number.isNaN(v) ? '—' : v.toFixed(1)).padStart(10));
    const r = budgetRows[i];
    const budget = r && r.budgetMs > 0 ? `${isOverBudget(r) ? '>' : '≤'}${r.budgetMs}` : '—';
    console.log(
      `${name.padEnd(width)}  ${figures.join('')}${`${b.length}/${a.length}`.padStart(10)}${budget.padStart(10)}`,
    );
  }
  console.log(
    `\n${RUNS} runs per figure after 2 warm-up runs; ${CUSTOMERS} customers; ${bench.label}; Node ${process.version}. ` +
      'Before: one statement per figure, every request computes. After: roll-ups and short index reads behind the cache ' +
      '(cold = first request after invalidateStatsCache). Wall-clock ms, except the CPU rows: ' +
      `${cpuNote(raw)}. budget: the after p95, ms (> marks a row over it).`,
  );
  if (EXPLAIN === 'all') {
    for (const r of budgetRows)
      if (r.queries.length > 0) await explainQueries(raw, r.name, r.queries);
  }
  await reportBudgets(raw, budgetRows, { explain: EXPLAIN === 'over' });
  if (!same) process.exitCode = 1;
  await raw.close();
}

await main();
