/**
 * Benchmark of the revenue endpoints (GET /metrics/revenue, /metrics/revenue/movements/:date,
 * /metrics/cohorts): a Db seeded with the demo data (server/seed, 100 000 customers by default,
 * their MRR history included), then typical requests through the real route handlers, each
 * BENCH_RUNS times (default 30) after 2 warm-up runs. Prints p50 / p95 in ms, the process CPU
 * time per request (p50 / p95; a busy machine inflates wall time, CPU time much less) and the load
 * average next to the targets (/metrics/revenue over 24 months ≤ 150 ms p95,
 * /metrics/cohorts ≤ 250 ms p95; the daily ranges are held to 150 ms too), then the rows over
 * their target. Figures only; nothing asserts them.
 *
 *   npx tsx bench/server-revenue.ts                          # 100k customers
 *   BENCH_CUSTOMERS=20000 npx tsx bench/server-revenue.ts
 *   BENCH_DATA_DIR=/tmp/bench-revenue npx tsx bench/server-revenue.ts   # keep and reuse the database
 *   DATABASE_URL=postgres://… npx tsx bench/server-revenue.ts           # on a real PostgreSQL
 *   npx tsx bench/server-revenue.ts --explain                # + EXPLAIN (ANALYZE, BUFFERS) of the rows over target
 *   npx tsx bench/server-revenue.ts --explain-all            # + the same for every row
 */
import { availableParallelism, loadavg } from 'node:os';
import { revenueRoutes } from '../server/revenue/routes';
import { testApp, testDeps } from '../server/testing/app';
import {
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
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 2;
const EXPLAIN = explainMode();
const NOW = new Date('2026-11-22T12:00:00.000Z');

async function main(): Promise<void> {
  const bench = await openBenchDatabase({ customers: CUSTOMERS, seed: 42, now: NOW });
  const db = bench.db;
  const c = (
    await db.query<{
      spans: number;
      movements: number;
      daily: number;
      monthly: number;
      cohort: number;
      customers: number;
    }>(
      `SELECT (SELECT count(*) FROM revenue_spans)::int AS spans, (SELECT count(*) FROM revenue_movements)::int AS movements,
              (SELECT count(*) FROM revenue_daily)::int AS daily, (SELECT count(*) FROM revenue_monthly)::int AS monthly,
              (SELECT count(*) FROM revenue_cohort_monthly)::int AS cohort,
              ((SELECT count(*) FROM revenue_customers_daily) + (SELECT count(*) FROM revenue_customers_monthly))::int AS customers`,
    )
  ).rows[0];
  console.log(
    `${describeBenchDatabase(bench, CUSTOMERS)}\n  ${c?.spans} spans, ${c?.movements} movements; roll-ups: daily ${c?.daily}, monthly ${c?.monthly}, cohort ${c?.cohort}, recurring customers ${c?.customers} rows`,
  );
  const rec = recording(db);
  const app = testApp(testDeps(rec.db, NOW, { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } }), [
    revenueRoutes,
  ]);
  const queries: [string, string, number][] = [
    ['revenue: 24 months, monthly', '/metrics/revenue?from=2024-11-01&interval=month', 150],
    [
      'revenue: 24 months, plan=Pro',
      '/metrics/revenue?from=2024-11-01&interval=month&plan=Pro',
      150,
    ],
    [
      'revenue: 24 months, provider=clickbank cadence=monthly',
      '/metrics/revenue?from=2024-11-01&interval=month&provider=clickbank&cadence=monthly',
      150,
    ],
    ['revenue: default range', '/metrics/revenue', 150],
    [
      'revenue: default range, provider=lemonsqueezy cadence=monthly',
      '/metrics/revenue?provider=lemonsqueezy&cadence=monthly',
      150,
    ],
    ['revenue: default range, plan=Pro', '/metrics/revenue?plan=Pro', 150],
    [
      'revenue: default range, provider=lemonsqueezy',
      '/metrics/revenue?provider=lemonsqueezy',
      150,
    ],
    ['revenue: default range, cadence=monthly', '/metrics/revenue?cadence=monthly', 150],
    ['revenue: 28 days, daily', '/metrics/revenue?from=2026-10-26&interval=day', 150],
    ['revenue: 365 days, daily', '/metrics/revenue?from=2025-11-23&interval=day', 150],
    ['cohorts: 24 months', '/metrics/cohorts?from=2024-11-01', 250],
    [
      'cohorts: 24 months, provider=lemonsqueezy',
      '/metrics/cohorts?from=2024-11-01&provider=lemonsqueezy',
      250,
    ],
    [
      'movements: one month, churn',
      '/metrics/revenue/movements/2026-10-01?interval=month&kind=churn',
      0,
    ],
  ];
  const rows: Array<{
    name: string;
    p50: number;
    p95: number;
    cpu50: number;
    cpu95: number;
    budgetMs: number;
    queries: QueryLog;
  }> = [];
  for (const [name, path, target] of queries) {
    const times: number[] = [];
    const cpu: number[] = [];
    let recorded: QueryLog = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      rec.log.length = 0;
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      const res = await app.request(path);
      const text = await res.text();
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu0);
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${text}`);
      if (i >= WARMUP) {
        times.push(ms);
        cpu.push((used.user + used.system) / 1000);
      }
      if (i === 0) recorded = [...rec.log];
    }
    rows.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu50: percentile(cpu, 50),
      cpu95: percentile(cpu, 95),
      budgetMs: target,
      queries: recorded,
    });
  }
  // Plans after the timings, so EXPLAIN ANALYZE does not warm or disturb what is measured.
  if (EXPLAIN === 'all') for (const r of rows) await explainQueries(db, r.name, r.queries);
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `\n${'request'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'cpu p50'.padStart(8)}  ${'cpu p95'.padStart(8)}  target`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${r.p50.toFixed(1).padStart(8)}  ${r.p95.toFixed(1).padStart(8)}  ${r.cpu50.toFixed(1).padStart(8)}  ${r.cpu95.toFixed(1).padStart(8)}  ${r.budgetMs > 0 ? `${isOverBudget(r) ? '>' : '≤'}${r.budgetMs}` : '—'}`,
    );
  }
  console.log(
    `\n${RUNS} runs per request after ${WARMUP} warm-up runs; ${CUSTOMERS} customers; Node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${availableParallelism()} CPUs; ${bench.label}.` +
      `\n> marks a p95 over its target. ${cpuNote(db)}.`,
  );
  await reportBudgets(db, rows, { explain: EXPLAIN === 'over' });
  await db.close();
}

await main();
