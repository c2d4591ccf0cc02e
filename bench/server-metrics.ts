/**
 * Benchmark of the Metrics and Integrated Tracking endpoints: a database seeded with the demo data
 * (server/seed, 100 000 customers by default; bench/support.ts), its ISR events topped up to
 * BENCH_ISR_EVENTS (default 1 000 000) with shifted copies of the seeded ones, then typical
 * requests through the real route handlers (`app.request` on a Hono app mounting the routers),
 * each BENCH_RUNS times (default 30) after 2 warm-up runs. Prints p50 / p95 in ms per request next
 * to the targets (/metrics/overview over 365 days ≤ 150 ms; ISR endpoints ≤ 50 ms), then the rows
 * over their target. Also prints the process CPU time per request (PGlite runs in-process,
 * single-threaded), which is less distorted than wall time on a shared, busy machine. Figures
 * only; nothing asserts them.
 *
 *   npx tsx bench/server-metrics.ts                                  # 100k customers, 1M ISR events
 *   BENCH_CUSTOMERS=20000 BENCH_ISR_EVENTS=200000 npx tsx bench/server-metrics.ts
 *   BENCH_DATA_DIR=/tmp/bench-metrics npx tsx bench/server-metrics.ts   # keep the database on disk and
 *                                                                      # reuse it next time (seeding is slow)
 *   DATABASE_URL=postgres://… npx tsx bench/server-metrics.ts         # on a real PostgreSQL
 *   npx tsx bench/server-metrics.ts --explain                        # + EXPLAIN (ANALYZE, BUFFERS) of the rows over target
 *   npx tsx bench/server-metrics.ts --explain-all                    # + the same for every row
 *
 * On a reused database the top-up adds only what is missing (a later run with a larger
 * BENCH_ISR_EVENTS adds the difference; a smaller one leaves the events as they are).
 */
import type { Db } from '../server/db/types';
import { isrRoutes } from '../server/routes/isr';
import { metricsRoutes } from '../server/routes/metrics';
import { createStatsRouter } from '../server/routes/stats';
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
const ISR_EVENTS = Number(process.env.BENCH_ISR_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 2;
const EXPLAIN = explainMode();
const NOW = new Date('2026-11-22T12:00:00.000Z');
/** The meta key holding the top-up's progress (TopUpState as JSON). */
const TOPUP_KEY = 'bench_isr_topup';
/** Rows copied per statement: short transactions, and progress kept if a run stops. */
const TOPUP_BATCH = 100_000;

/**
 * Where the ISR top-up stands: copies are made of the rows with id ≤ lastOriginalId, in rounds;
 * round r suffixes receipt and order id with '-D<r>', and `after` is the last id copied in it.
 */
interface TopUpState {
  lastOriginalId: number;
  round: number;
  after: number;
}

/**
 * Tops isr_events up to `target` rows with copies of the seeded rows (receipt and order id
 * suffixed '-D<round>', created_at moved back by up to a day), so the volume grows but the shape
 * (sources, long-tail affiliates, daily rhythm) stays the seed's. Adds only the difference to what
 * the table holds, in batches that each commit with their progress in `meta`, so a stopped or
 * repeated run resumes without copying a row twice in one round. Returns the rows added.
 */
async function topUpIsr(db: Db, target: number): Promise<number> {
  const have =
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM isr_events')).rows[0]?.n ?? 0;
  let need = target - have;
  if (need <= 0) return 0;
  const saved = (
    await db.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [TOPUP_KEY])
  ).rows[0];
  let state: TopUpState;
  if (saved) {
    state = JSON.parse(saved.value) as TopUpState;
  } else {
    // A database topped up before the progress was kept holds '-D<r>' copies: continue after them.
    const r = (
      await db.query<{ last: string | null; rounds: number | null }>(
        `SELECT max(id) FILTER (WHERE receipt IS NULL OR receipt NOT LIKE '%-D%') AS last,
                max(substring(receipt from '-D([0-9]+)$')::int) AS rounds
           FROM isr_events`,
      )
    ).rows[0];
    state = { lastOriginalId: Number(r?.last ?? 0), round: (r?.rounds ?? 0) + 1, after: 0 };
  }
  if (state.lastOriginalId <= 0) throw new Error('isr_events holds no seeded rows to copy');
  let added = 0;
  let reported = performance.now();
  const started = reported;
  while (need > 0) {
    const from = state;
    const copied = await db.transaction(async (tx) => {
      const suffix = `-D${from.round}`;
      const res = await tx.query<{ n: number; last: string | null }>(
        `WITH src AS (
           SELECT * FROM isr_events WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3
         ), ins AS (
           INSERT INTO isr_events (source, kind, order_id, receipt, product_id, amount_cents, currency, affiliate,
                                   subid, campaign, customer_email, referrer, created_at, raw)
           SELECT source, kind, order_id || $4, receipt || $4, product_id, amount_cents, currency,
                  affiliate, subid, campaign, customer_email, referrer,
                  created_at - make_interval(mins => ((id * 7919 + $5) % 1440)::int), raw
             FROM src
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM ins)::int AS n, (SELECT max(id) FROM src) AS last`,
        [from.after, from.lastOriginalId, Math.min(need, TOPUP_BATCH), suffix, from.round],
      );
      const n = res.rows[0]?.n ?? 0;
      const next: TopUpState =
        n > 0
          ? { ...from, after: Number(res.rows[0]?.last) }
          : { ...from, round: from.round + 1, after: 0 };
      await tx.query(
        `INSERT INTO meta (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [TOPUP_KEY, JSON.stringify(next)],
      );
      state = next;
      return n;
    });
    if (copied === 0 && from.after === 0) throw new Error('isr_events top-up copied nothing');
    added += copied;
    need -= copied;
    if (performance.now() - reported > 30_000) {
      reported = performance.now();
      console.log(
        `  ISR top-up: +${added} rows in ${((reported - started) / 1000).toFixed(0)} s, ${need} to go`,
      );
    }
  }
  await db.exec('VACUUM (ANALYZE) isr_events');
  return added;
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase({ customers: CUSTOMERS, seed: 42, now: NOW });
  const db = bench.db;
  const tTop0 = performance.now();
  const added = await topUpIsr(db, ISR_EVENTS);
  const tTop = performance.now();
  const c = (
    await db.query<{ subs: number; events: number; isr: number; md: number; mdp: number }>(
      `SELECT (SELECT count(*) FROM subscriptions)::int AS subs, (SELECT count(*) FROM subscription_events)::int AS events,
              (SELECT count(*) FROM isr_events)::int AS isr, (SELECT count(*) FROM metrics_daily)::int AS md,
              (SELECT count(*) FROM metrics_daily_provider)::int AS mdp`,
    )
  ).rows[0];
  console.log(
    describeBenchDatabase(bench, CUSTOMERS) +
      (added > 0
        ? `, ISR top-up +${added} rows in ${((tTop - tTop0) / 1000).toFixed(1)} s`
        : ', no ISR top-up needed') +
      `\n  ${c?.subs} subscriptions, ${c?.events} lifecycle events, ${c?.isr} ISR events, roll-ups ${c?.md} + ${c?.mdp} rows`,
  );

  const rec = recording(db);
  const deps = testDeps(rec.db, NOW, { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } });
  const app = testApp(deps, [metricsRoutes, isrRoutes, createStatsRouter]);

  const y = '&from=2025-11-23&to=2026-11-22';
  const d14 = 'from=2026-11-09%2000:00:00&to=2026-11-22%2023:59:59';
  const d30 = 'from=2026-10-24%2000:00:00&to=2026-11-22%2023:59:59';
  const t14 = 'time_from=2026-11-09%2000:00:00&time_to=2026-11-22%2023:59:59';
  const receipt =
    (
      await db.query<{ receipt: string }>(
        "SELECT receipt FROM isr_events WHERE source = 'clickbank' ORDER BY id LIMIT 1 OFFSET 5000",
      )
    ).rows[0]?.receipt ?? 'X';

  const queries: [string, string, number][] = [
    ['overview: default 28 days', '/metrics/overview', 150],
    ['overview: 365 days', `/metrics/overview?${y.slice(1)}`, 150],
    ['overview: 365 days provider=clickbank', `/metrics/overview?provider=clickbank${y}`, 150],
    ['overview: 365 days type=new', `/metrics/overview?type=new${y}`, 150],
    ['overview: 365 days plan=Pro', `/metrics/overview?plan=Pro${y}`, 150],
    ['overview: 365 days status=active', `/metrics/overview?status=active${y}`, 150],
    ['overview: 365 days source=google', `/metrics/overview?source=google${y}`, 150],
    ['overview: all time (to only)', '/metrics/overview?to=2026-11-22', 150],
    ['stats (dashboard, for reference)', '/stats', 0],
    ['isr summary: 14 days', `/isr-metrics/summary?${d14}`, 50],
    ['isr summary: 30 days', `/isr-metrics/summary?${d30}`, 50],
    ['isr daily: 14 days', `/isr-metrics/daily?${d14}`, 50],
    ['isr daily: 30 days', `/isr-metrics/daily?${d30}`, 50],
    ['isr affiliates: 14 days', `/isr-metrics/affiliates?${d14}&limit=12`, 50],
    ['isr affiliates: 30 days', `/isr-metrics/affiliates?${d30}&limit=12`, 50],
    [
      'isr events: source=clickbank, 14 days',
      `/isr-events?source=clickbank&${t14}&pageSize=50`,
      50,
    ],
    [
      'isr events: source=clickbank (all time, console default)',
      '/isr-events?source=clickbank',
      50,
    ],
    ['isr events: source=clickbank, page 2 (all time)', '/isr-events?source=clickbank&page=2', 50],
    ['isr events: 14 days, page 20', `/isr-events?${t14}&page=20&pageSize=50`, 50],
    ['isr events: q=superaff, 14 days', `/isr-events?q=superaff&source=clickbank&${t14}`, 50],
    ['isr events: q=<receipt>', `/isr-events?q=${encodeURIComponent(receipt.toLowerCase())}`, 50],
    ['isr events: q=example.org (all time)', '/isr-events?q=example.org', 50],
    ['isr events: affiliate=traffix (all time)', '/isr-events?affiliate=traffix', 50],
    ['isr events: subid=fb01 (all time)', '/isr-events?subid=fb01', 50],
    ['isr events: receipt exact', `/isr-events?receipt=${encodeURIComponent(receipt)}`, 50],
    ['isr summary: 365 days', '/isr-metrics/summary?from=2025-11-23&to=2026-11-22', 0],
    ['isr events: no filter (all time)', '/isr-events', 0],
  ];

  const results: {
    name: string;
    p50: number;
    p95: number;
    cpu50: number;
    cpu95: number;
    budgetMs: number;
    queries: QueryLog;
    note: string;
  }[] = [];
  for (const [name, path, target] of queries) {
    const times: number[] = [];
    const cpu: number[] = [];
    let note = '';
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
      if (i === 0) {
        const body = JSON.parse(text) as {
          total?: number;
          totalCapped?: boolean;
          total_events?: number;
          rows?: unknown[];
          series?: { lineDaily: unknown[] };
        };
        note =
          body.total !== undefined
            ? `total ${body.total}${body.totalCapped ? '+' : ''}`
            : body.total_events !== undefined
              ? `${body.total_events} events`
              : body.series
                ? `${body.series.lineDaily.length} days`
                : body.rows
                  ? `${body.rows.length} rows`
                  : '';
        recorded = [...rec.log];
      }
    }
    results.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu50: percentile(cpu, 50),
      cpu95: percentile(cpu, 95),
      budgetMs: target,
      queries: recorded,
      note,
    });
  }
  // Plans after the timings, so EXPLAIN ANALYZE does not warm or disturb what is measured.
  if (EXPLAIN === 'all') for (const r of results) await explainQueries(db, r.name, r.queries);

  const width = Math.max(...results.map((r) => r.name.length));
  console.log(
    `\n${'request'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'cpu p50'.padStart(8)}  ${'cpu p95'.padStart(8)}  ${'target'.padStart(6)}  answer`,
  );
  console.log(`${'-'.repeat(width)}  --------  --------  --------  --------  ------  ------`);
  for (const r of results) {
    const target = r.budgetMs > 0 ? `${isOverBudget(r) ? '>' : '≤'}${r.budgetMs}` : '—';
    console.log(
      `${r.name.padEnd(width)}  ${r.p50.toFixed(1).padStart(8)}  ${r.p95.toFixed(1).padStart(8)}  ${r.cpu50.toFixed(1).padStart(8)}  ${r.cpu95.toFixed(1).padStart(8)}  ${target.padStart(6)}  ${r.note}`,
    );
  }
  console.log(
    `\n${RUNS} runs per request after ${WARMUP} warm-up runs; ${CUSTOMERS} customers, ${c?.isr} ISR events; ${bench.label}; Node ${process.version}.` +
      '\nRows marked — have no target (shown for context: whole-history scans); > marks a p95 over its target.' +
      `\n${cpuNote(db)}.`,
  );
  await reportBudgets(db, results, { explain: EXPLAIN === 'over' });
  await db.close();
}

await main();
