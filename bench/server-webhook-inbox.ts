/**
 * Benchmark of GET /webhook-deliveries: an in-memory PGlite with BENCH_INBOX_ROWS inbox rows
 * (default 1 000 000, spread over 90 days: both providers, the outcome mix of a live store with a
 * few refusals and failures, 10 000 customer emails, bodies of about 1.5 KB), then the Webhooks
 * screen's typical requests through the real route handler, each BENCH_RUNS times (default 20)
 * after 2 warm-up runs. Prints p50 / p95 in ms per request (budget: p95 ≤ 25 ms). Timings are
 * measurements only; no test asserts them.
 *
 *   npx tsx bench/server-webhook-inbox.ts
 *   BENCH_INBOX_ROWS=200000 BENCH_RUNS=10 npx tsx bench/server-webhook-inbox.ts
 *   npx tsx bench/server-webhook-inbox.ts --explain   # also print the plan of each query
 *
 * Besides wall time it prints the process CPU time per request, which a busy machine inflates
 * far less.
 */
import { loadavg } from 'node:os';
import { openDatabase } from '../server/db';
import {
  parseWebhookDeliveriesQuery,
  webhookDeliveriesRoutes,
  webhookListSql,
} from '../server/routes/webhookDeliveries';
import { testApp, testDeps } from '../server/testing/app';
import { percentile } from './support';

const ROWS = Number(process.env.BENCH_INBOX_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const EXPLAIN = process.argv.includes('--explain');

async function main() {
  const started = performance.now();
  const db = await openDatabase('memory');
  // Deterministic rows generated in SQL. Outcomes per 1 000: 900 applied, 50 duplicate, 30 ignored,
  // 10 ignored_test, 6 invalid, 3 refused_signature, 1 failed.
  await db.query(
    `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, error,
                                     email, subscription_id, dedup_key, effects, body, body_size,
                                     headers)
     SELECT $1::timestamptz - ((i * 2654435761::bigint) % 7776000) * interval '1 second',
            CASE WHEN i % 3 = 0 THEN 'clickbank' ELSE 'lemonsqueezy' END,
            CASE WHEN i % 3 = 0 THEN ($2::text[])[1 + (i % 5)] ELSE ($3::text[])[1 + (i % 7)] END,
            o.outcome,
            CASE o.outcome WHEN 'refused_signature' THEN 401 WHEN 'failed' THEN 500 ELSE 200 END,
            CASE WHEN o.outcome IN ('applied', 'duplicate') THEN NULL ELSE 'reason ' || (i % 13) END,
            CASE WHEN o.outcome = 'refused_signature' THEN NULL
                 ELSE 'user' || ((i::bigint * 7919) % 10000) || '@example.com' END,
            (100000 + i % 50000)::text,
            'key:' || i,
            '["subscription.updated"]'::jsonb,
            CASE WHEN o.outcome = 'refused_signature' THEN NULL ELSE repeat('x', 1500) END,
            1500,
            '{"content-type":"application/json","user-agent":"LemonSqueezy"}'::jsonb
       FROM generate_series(1, $4::int) AS s(i)
       CROSS JOIN LATERAL (SELECT CASE
            WHEN i % 1000 < 900 THEN 'applied' WHEN i % 1000 < 950 THEN 'duplicate'
            WHEN i % 1000 < 980 THEN 'ignored' WHEN i % 1000 < 990 THEN 'ignored_test'
            WHEN i % 1000 < 996 THEN 'invalid' WHEN i % 1000 < 999 THEN 'refused_signature'
            ELSE 'failed' END AS outcome) AS o`,
    [
      NOW.toISOString(),
      ['SALE', 'BILL', 'RFND', 'CANCEL-REBILL', 'TEST'],
      [
        'subscription_created',
        'subscription_updated',
        'subscription_payment_success',
        'order_created',
        'subscription_cancelled',
        'license_key_created',
        'order_refunded',
      ],
      ROWS,
    ],
  );
  // What the retention job leaves behind every 15 minutes (pruneWebhookDeliveries).
  await db.exec('VACUUM (ANALYZE) webhook_deliveries');
  console.log(`${ROWS} inbox rows ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const app = testApp(testDeps(db, NOW), [webhookDeliveriesRoutes]);
  const cases: Array<[string, string]> = [
    ['newest 50 (no filter)', 'page=1&pageSize=50'],
    ['page 5 of 200 rows (deepest)', 'page=5&pageSize=200'],
    ['provider=clickbank', 'provider=clickbank'],
    ['outcome=failed (rare)', 'outcome=failed'],
    ['outcome=applied (common)', 'outcome=applied'],
    ['event=order_refunded', 'event=order_refunded'],
    ['email=one customer', 'email=user4242@example.com'],
    ['last day', 'from=2026-11-21%2012:00:00'],
    ['one day a month ago', 'from=2026-10-22&to=2026-10-22'],
    ['provider + outcome=invalid', 'provider=lemonsqueezy&outcome=invalid'],
    ['email + outcome (no match)', 'email=user4242@example.com&outcome=failed'],
  ];
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
  );
  console.log('\nrequest                          p50 ms   p95 ms  cpu p50  cpu p95   total');
  for (const [label, qs] of cases) {
    const times: number[] = [];
    const cpus: number[] = [];
    let total = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const res = await app.request(`/webhook-deliveries?${qs}`);
      const body = (await res.json()) as { total: number };
      const cpu = process.cpuUsage(cpu0);
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${qs} → ${res.status}`);
      total = body.total;
      if (i >= WARMUP) {
        times.push(ms);
        cpus.push((cpu.user + cpu.system) / 1000);
      }
    }
    const f = (n: number) => n.toFixed(1).padStart(7);
    console.log(
      `${label.padEnd(32)} ${f(percentile(times, 50))}  ${f(percentile(times, 95))}  ${f(percentile(cpus, 50))}  ${f(percentile(cpus, 95))}   ${total}`,
    );
    if (EXPLAIN) {
      for (const sql of webhookListSql(
        parseWebhookDeliveriesQuery(Object.fromEntries(new URLSearchParams(qs))),
      )) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN ANALYZE ${sql.text}`,
          sql.params,
        );
        console.log(plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
      }
    }
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
  );
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
