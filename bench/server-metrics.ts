/**
 * Benchmark of the Metrics and Integrated Tracking endpoints: a Db database seeded
 * with the demo data (server/seed, 100 000 customers by default), its ISR events topped up to
 * BENCH_ISR_EVENTS (default 1 000 000) with shifted copies of the seeded ones, then typical
 * requests through the real route handlers (`app.request` on a Hono app mounting the routers),
 * each BENCH_RUNS times (default 30) after 2 warm-up runs. Prints p50 / p95 in ms per request next
 * to the targets (/metrics/overview over 365 days ≤ 150 ms; ISR endpoints ≤ 50 ms).
 * Also prints the process CPU time per request (Db runs in-process, single-threaded), which
 * is less distorted than wall time on a shared, busy machine. Figures only; nothing asserts them.
 *
 *   npx tsx bench/server-metrics.ts                                  # 100k customers, 1M ISR events
 *   BENCH_CUSTOMERS=20000 BENCH_ISR_EVENTS=200000 npx tsx bench/server-metrics.ts
 *   BENCH_DATA_DIR=/tmp/bench-metrics npx tsx bench/server-metrics.ts   # keep the database on disk and
 *                                                                      # reuse it next time (seeding is slow)
 *   npx tsx bench/server-metrics.ts --explain                        # also print the plan of every query
 */
import type { Db } from '../server/db/types';
import { openDatabase } from '../server/db';
import { seedDemoData } from '../server/seed';
import { isrRoutes } from '../server/routes/isr';
import { metricsRoutes } from '../server/routes/metrics';
import { createStatsRouter } from '../server/routes/stats';
import { testApp, testDeps } from '../server/testing/app';
import { percentile, recording } from './support';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const ISR_EVENTS = Number(process.env.BENCH_ISR_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 2;
const EXPLAIN = process.argv.includes('--explain');
const NOW = new Date('2026-11-22T12:00:00.000Z');

/**
 * Tops isr_events up to `target` rows with copies of the seeded rows (receipt and order id
 * suffixed '-D<round>', created_at moved back by up to a day), so the volume grows but the shape
 * (sources, long-tail affiliates, daily rhythm) stays the seed's. Returns the rows added.
 */
async function topUpIsr(db: Db, target: number): Promise<number> {
  let added = 0;
  for (let round = 1; round < 100; round++) {
    const have =
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM isr_events')).rows[0]?.n ?? 0;
    const need = target - have;
    if (need <= 0) break;
    const res = await db.query(
      `INSERT INTO isr_events (source, kind, order_id, receipt, product_id, amount_cents, currency, affiliate, subid,
                               campaign, customer_email, referrer, created_at, raw)
       SELECT source, kind, order_id || '-D${round}', receipt || '-D${round}', product_id, amount_cents, currency,
              affiliate, subid, campaign, customer_email, referrer,
              created_at - make_interval(mins => ((id * 7919 + ${round}) % 1440)::int), raw
         FROM isr_events WHERE receipt NOT LIKE '%-D%' ORDER BY id LIMIT $1`,
      [need],
    );
    added += res.affectedRows ?? 0;
  }
  if (added > 0) await db.exec('VACUUM (ANALYZE) isr_events');
  return added;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const dataDir = process.env.BENCH_DATA_DIR ?? 'memory';
  const db = await openDatabase(dataDir);
  const tOpen = performance.now();
  const have =
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers')).rows[0]?.n ?? 0;
  let seedLine = 'reused';
  if (have === 0) {
    const s = await seedDemoData(db, { customers: CUSTOMERS, seed: 42, now: NOW });
    seedLine = `seeded ${CUSTOMERS} customers (${s.isrEvents} ISR events) in ${(s.durationMs / 1000).toFixed(1)} s`;
  } else if (have !== CUSTOMERS) {
    throw new Error(
      `${dataDir} holds ${have} customers, not ${CUSTOMERS}; use another BENCH_DATA_DIR`,
    );
  }
  const tSeed = performance.now();
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
    `database (${dataDir}): open ${((tOpen - t0) / 1000).toFixed(1)} s, ${seedLine}` +
      (added > 0 ? `, ISR top-up +${added} rows in ${((tTop - tSeed) / 1000).toFixed(1)} s` : '') +
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
    target: number;
    note: string;
  }[] = [];
  for (const [name, path, target] of queries) {
    const times: number[] = [];
    const cpu: number[] = [];
    let note = '';
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
        if (EXPLAIN) await explain(db, name, rec.log);
      }
    }
    results.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu50: percentile(cpu, 50),
      cpu95: percentile(cpu, 95),
      target,
      note,
    });
  }

  const width = Math.max(...results.map((r) => r.name.length));
  console.log(
    `\n${'request'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'cpu p50'.padStart(8)}  ${'cpu p95'.padStart(8)}  ${'target'.padStart(6)}  answer`,
  );
  console.log(`${'-'.repeat(width)}  --------  --------  --------  --------  ------  ------`);
  for (const r of results) {
    const target = r.target > 0 ? `≤${r.target}` : '—';
    console.log(
      `${r.name.padEnd(width)}  ${r.p50.toFixed(1).padStart(8)}  ${r.p95.toFixed(1).padStart(8)}  ${r.cpu50.toFixed(1).padStart(8)}  ${r.cpu95.toFixed(1).padStart(8)}  ${target.padStart(6)}  ${r.note}`,
    );
  }
  console.log(
    `\n${RUNS} runs per request after ${WARMUP} warm-up runs; ${CUSTOMERS} customers, ${c?.isr} ISR events; Node ${process.version}.` +
      "\nRows marked — have no target (shown for context: whole-history scans). cpu = this process's" +
      '\nuser+system CPU time per request (Db runs in-process), less sensitive to a shared, busy machine.',
  );
  await db.close();
}

/** Prints the plan of each SELECT / WITH query the last request sent (EXPLAIN ANALYZE, same parameters). */
async function explain(
  db: Db,
  name: string,
  log: { sql: string; params: unknown[] }[],
): Promise<void> {
  console.log(`\n=== ${name}`);
  for (const q of log) {
    if (!/^\s*(SELECT|WITH)/i.test(q.sql)) continue;
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${q.sql}`, q.params);
    console.log(plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n'));
  }
}

await main();
