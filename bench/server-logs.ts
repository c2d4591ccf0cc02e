/**
 * Benchmark of GET /logs: an in-memory PGlite with BENCH_LOG_ROWS log rows (default
 * 1 000 000, spread over 30 days, the seed's message vocabulary and contexts with emails and
 * receipts), then typical Logs screen requests sent through the real route handler, each
 * BENCH_RUNS times (default 20) after 2 warm-up runs. Prints p50 / p95 in ms per request.
 * Timings are measurements only; no test asserts them.
 *
 *   npx tsx bench/server-logs.ts
 *   BENCH_LOG_ROWS=200000 BENCH_RUNS=10 npx tsx bench/server-logs.ts
 *   npx tsx bench/server-logs.ts --explain     # also print the plan of each page query
 */
import { openDatabase } from '../server/db';
import { logsRoutes, parseLogsQuery } from '../server/routes/logs';
import { LOG_TEMPLATES } from '../server/seed/vocabulary';
import { testApp, testDeps } from '../server/testing/app';
import { percentile } from './support';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const EXPLAIN = process.argv.includes('--explain');
const NOW = new Date('2026-11-22T12:00:00.000Z');

async function main() {
  const started = performance.now();
  const db = await openDatabase('memory');
  const levels = LOG_TEMPLATES.map((t) => t[0]);
  const msgs = LOG_TEMPLATES.map((t) => t[1]);
  // Deterministic rows generated in SQL (fast): template by i, ts spread over 30 days, context
  // with an email (10 000 distinct), a receipt-like token and a number.
  await db.query(
    `INSERT INTO logs (ts, level, msg, context)
     SELECT $1::timestamptz - ((i * 2654435761::bigint) % 2592000) * interval '1 second',
            ($2::text[])[1 + (i % $4)], ($3::text[])[1 + (i % $4)],
            jsonb_build_object('email', 'user' || ((i::bigint * 7919) % 10000) || '@example.com',
                               'receipt', upper(substr(md5(i::text), 1, 8)), 'ms', i % 997)
       FROM generate_series(1, $5::int) AS s(i)`,
    [NOW.toISOString(), levels, msgs, LOG_TEMPLATES.length, ROWS],
  );
  await db.exec('ANALYZE logs');
  console.log(`${ROWS} log rows ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const app = testApp(testDeps(db, NOW), [logsRoutes]);
  const cases: Array<[string, string]> = [
    ['newest 50 (no filter)', 'page=1&pageSize=50'],
    ['page 20 of 200 rows', 'page=20&pageSize=200'],
    ['level=error', 'level=error&pageSize=50'],
    ['level=fatal (rare)', 'level=fatal&pageSize=50'],
    ['q=an email', 'q=user4242@example.com'],
    ['q=a receipt fragment', 'q=' + 'C4CA4238'.slice(0, 6)],
    ['q=word in message (common)', 'q=Discourse'],
    ['level=warn + q=rate limited', 'level=warn&q=rate%20limited'],
    ['q=no match', 'q=zzzz-nothing-here'],
    ['q=letters only, no match', 'q=nothinghere'],
    ['q=in every row (@example.com)', 'q=%40example.com'],
  ];
  console.log('\nrequest                          p50 ms   p95 ms   total');
  for (const [label, qs] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const res = await app.request(`/logs?${qs}`);
      const body = (await res.json()) as { total: number };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${qs} → ${res.status}`);
      total = body.total;
      if (i >= WARMUP) times.push(ms);
    }
    console.log(
      `${label.padEnd(32)} ${percentile(times, 50).toFixed(1).padStart(7)}  ${percentile(times, 95).toFixed(1).padStart(7)}   ${total}`,
    );
    if (EXPLAIN) {
      const q = parseLogsQuery(Object.fromEntries(new URLSearchParams(qs)));
      const where = [
        q.level ? `level = '${q.level}'` : null,
        q.q ? `(msg || ' ' || coalesce(context::text, '')) ILIKE '%${q.q}%'` : null,
      ]
        .filter(Boolean)
        .join(' AND ');
      const w = where ? `WHERE ${where}` : '';
      for (const sql of [
        `SELECT id, ts, level, msg, context FROM logs ${w} ORDER BY ts DESC, id DESC LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
        `SELECT count(*) FROM (SELECT 1 FROM logs ${w} LIMIT 1001) m`,
      ]) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${sql}`);
        console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
      }
    }
  }
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
