/**
 * Benchmark of the customer page and find-anything search: a database seeded with the demo data
 * (server/seed, BENCH_CUSTOMERS customers, default 100 000; bench/support.ts), a background of other
 * customers' webhook deliveries, log rows and forum jobs, and one customer with a history of
 * BENCH_EVENTS timeline entries (default 5 000: deliveries, renewals, refunds, audit rows, forum
 * jobs, ISR events, log rows over two years). Then, through the real route handlers, each request
 * BENCH_RUNS times (default 30) after 2 warm-up runs:
 *
 * - GET /search for the palette's typical texts (one letter, an email and a name prefix, an exact
 *   and a partial receipt, LemonSqueezy ids, an affiliate, a TID, a screen, no match);
 * - GET /customers/:email for the heavy customer and an ordinary one;
 * - GET /customers/:email/timeline: the first page, a deep page (the cursor after 4 000 entries), a
 *   page filtered to a sparse kind, and an ordinary customer's.
 *
 * Prints p50 / p95 in ms per request, wall clock and the process CPU time (PGlite runs in this
 * thread, so CPU time is the request's own work, which other load on a shared machine disturbs
 * far less), and the load average, then the rows over budget (p95 ≤ 50 ms for each). Timings are
 * measurements only; no test asserts them.
 *
 *   npx tsx bench/server-customers.ts                      # 100k customers, 30 runs
 *   BENCH_CUSTOMERS=20000 BENCH_RUNS=10 npx tsx bench/server-customers.ts
 *   BENCH_DATA_DIR=/tmp/bench-customers npx tsx bench/server-customers.ts   # keep the seeded
 *                                                          # database on disk and reuse it
 *   DATABASE_URL=postgres://… npx tsx bench/server-customers.ts   # on a real PostgreSQL
 *   npx tsx bench/server-customers.ts --explain            # + EXPLAIN (ANALYZE, BUFFERS) of the rows over budget
 *   npx tsx bench/server-customers.ts --explain-all        # + the same for every row
 *
 * The heavy history and the background are written once per database (a `meta` row marks them),
 * so a reused database keeps the history of the run that wrote it, whatever BENCH_EVENTS says now.
 */
import { loadavg } from 'node:os';
import type { Db } from '../server/db/types';
import { customersRoutes } from '../server/routes/customers';
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
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 2;
const EXPLAIN = explainMode();
const NOW = new Date('2026-11-22T12:00:00.000Z');
/** The meta key naming the customer whose history the bench wrote (one of the seeded ones). */
const HEAVY_MARK = 'bench_heavy_customer';
/** The meta key holding the number of timeline entries written for that customer. */
const HEAVY_EVENTS_MARK = 'bench_heavy_customer_events';
/** p95 budget of every request, ms. */
const BUDGET_MS = 50;

async function main(): Promise<void> {
  const bench = await openBenchDatabase({ customers: CUSTOMERS, seed: 42, now: NOW });
  const db = bench.db;
  const t0 = performance.now();
  const heavy = await ensureHistory(db);
  console.log(
    `${describeBenchDatabase(bench, CUSTOMERS)}; ` +
      (heavy.written
        ? `history of ${heavy.email} (${heavy.events} entries) and background written in ${((performance.now() - t0) / 1000).toFixed(1)} s`
        : `history of ${heavy.email} (${heavy.events} entries) already there`),
  );
  if (heavy.events !== EVENTS) {
    console.log(
      `note: the reused history holds ${heavy.events} entries, not BENCH_EVENTS=${EVENTS}; the row names say ${EVENTS}`,
    );
  }

  const rec = recording(db);
  const app = testApp(testDeps(rec.db, NOW), [customersRoutes]);
  const picks = await db.query<{
    email: string;
    name: string;
    receipt: string;
    ls_id: string;
    ls_order: string;
    affiliate: string;
    tid: string;
  }>(
    `SELECT c.email, c.name,
            (SELECT receipt FROM clickbank_orders ORDER BY id LIMIT 1 OFFSET $1) AS receipt,
            (SELECT provider_id FROM subscriptions WHERE provider = 'lemonsqueezy' ORDER BY id LIMIT 1 OFFSET $1) AS ls_id,
            (SELECT payload -> 'attributes' ->> 'order_id' FROM subscriptions
              WHERE provider = 'lemonsqueezy' ORDER BY id LIMIT 1 OFFSET $1) AS ls_order,
            (SELECT affiliate FROM isr_events WHERE affiliate IS NOT NULL ORDER BY id LIMIT 1) AS affiliate,
            (SELECT subid FROM isr_events WHERE subid IS NOT NULL ORDER BY id LIMIT 1) AS tid
       FROM customers c WHERE c.name IS NOT NULL ORDER BY c.id LIMIT 1 OFFSET $1`,
    [Math.floor(CUSTOMERS / 3)],
  );
  const p = picks.rows[0];
  if (!p) throw new Error('no customers to search for');
  const enc = encodeURIComponent;
  const heavyPath = `/customers/${enc(heavy.email)}`;
  const ordinaryPath = `/customers/${enc(p.email)}`;
  // 4 000 entries deep, or 80 % of a smaller history (whole pages of 200).
  const wanted = Math.min(4_000, Math.floor((heavy.events * 0.8) / 200) * 200);
  const { cursor: deepCursor, depth } = await cursorAfter(app, heavyPath, wanted);
  if (depth < wanted) {
    console.log(
      `note: the timeline ends before ${wanted} entries (a server on this database deleted the oldest ` +
        `logs and deliveries: LOG_RETENTION_DAYS, WEBHOOK_RETENTION_DAYS); the deep page starts after ${depth}`,
    );
  }
  const entries = heavy.events.toLocaleString('en-US');

  const cases: [string, string][] = [
    ["search 'a' (one letter)", `/search?q=a`],
    [`search email prefix '${p.email.slice(0, 6)}'`, `/search?q=${enc(p.email.slice(0, 6))}`],
    [`search name prefix '${p.name.slice(0, 4)}'`, `/search?q=${enc(p.name.slice(0, 4))}`],
    [`search exact receipt`, `/search?q=${enc(p.receipt)}`],
    [
      `search receipt prefix (3, lower case)`,
      `/search?q=${enc(p.receipt.slice(0, 3).toLowerCase())}`,
    ],
    [`search LemonSqueezy subscription id`, `/search?q=${enc(p.ls_id)}`],
    [`search LemonSqueezy order prefix`, `/search?q=${enc(p.ls_order.slice(0, 5))}`],
    [`search affiliate prefix`, `/search?q=${enc(p.affiliate.slice(0, 3))}`],
    [`search TID prefix`, `/search?q=${enc(p.tid.slice(0, 2))}`],
    ["search screen 'logs'", '/search?q=logs'],
    ['search no match', '/search?q=zzqxj'],
    [`customer page (${entries}-entry history)`, heavyPath],
    ['customer page (ordinary)', ordinaryPath],
    [`timeline first page (${entries} entries)`, `${heavyPath}/timeline`],
    [
      `timeline deep page (after ${depth.toLocaleString('en-US')})`,
      `${heavyPath}/timeline?before=${enc(deepCursor)}`,
    ],
    ['timeline kind=access (sparse)', `${heavyPath}/timeline?kind=access`],
    ['timeline kind=subscription,refund', `${heavyPath}/timeline?kind=subscription,refund`],
    ['timeline first page (ordinary)', `${ordinaryPath}/timeline`],
  ];

  // One untimed pass first, so the first rows do not pay for warming the engine.
  for (const [, path] of cases) await (await app.request(path)).text();

  const results: {
    name: string;
    p50: number;
    p95: number;
    cpu50: number;
    cpu95: number;
    n: string;
    budgetMs: number;
    queries: QueryLog;
  }[] = [];
  for (const [name, path] of cases) {
    const times: number[] = [];
    const cpus: number[] = [];
    let n = '';
    let recorded: QueryLog = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      rec.log.length = 0;
      const cpu0 = process.cpuUsage();
      const started = performance.now();
      const res = await app.request(path);
      const text = await res.text();
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpu0);
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${text}`);
      if (i >= WARMUP) {
        times.push(ms);
        cpus.push((cpu.user + cpu.system) / 1000);
      }
      if (i === 0) {
        const body = JSON.parse(text) as {
          results?: unknown[];
          items?: unknown[];
          payments?: unknown[];
        };
        n = String(body.results?.length ?? body.items?.length ?? body.payments?.length ?? '');
        recorded = [...rec.log];
      }
    }
    results.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu50: percentile(cpus, 50),
      cpu95: percentile(cpus, 95),
      n,
      budgetMs: BUDGET_MS,
      queries: recorded,
    });
  }
  // Plans after the timings, so EXPLAIN ANALYZE does not warm or disturb what is measured.
  if (EXPLAIN === 'all') for (const r of results) await explainQueries(db, r.name, r.queries);

  const width = Math.max(...results.map((r) => r.name.length));
  console.log(
    `\n${'request'.padEnd(width)}  ${['p50 ms', 'p95 ms', 'cpu p50', 'cpu p95', 'rows', 'budget'].map((c) => c.padStart(8)).join('  ')}`,
  );
  for (const r of results) {
    const f = (v: number) => v.toFixed(1).padStart(8);
    console.log(
      `${r.name.padEnd(width)}  ${f(r.p50)}  ${f(r.p95)}  ${f(r.cpu50)}  ${f(r.cpu95)}  ${r.n.padStart(8)}  ${`${isOverBudget(r) ? '>' : '≤'}${r.budgetMs}`.padStart(8)}`,
    );
  }
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `\n${RUNS} runs per request after ${WARMUP} warm-up runs; ${CUSTOMERS} customers; ` +
      `${heavy.events}-entry history; ${bench.label}; Node ${process.version}; load average ${load.join(' ')}.\n` +
      `p50/p95: wall-clock ms per request; ${cpuNote(db)}. Budget: p95 ≤ ${BUDGET_MS} ms (> marks a row over it).`,
  );
  await reportBudgets(db, results, { explain: EXPLAIN === 'over' });
  await db.close();
}

/**
 * Writes the heavy customer's history of EVENTS entries, plus a background of other customers'
 * rows in the same tables, once per database: the rows and the `meta` marks naming the customer
 * commit together, and a database holding the marks (reused through BENCH_DATA_DIR or
 * DATABASE_URL) is left as it is → the customer's email, the entries its history was written
 * with, and whether this call wrote them.
 */
async function ensureHistory(db: Db): Promise<{ email: string; events: number; written: boolean }> {
  const marks = new Map(
    (
      await db.query<{ key: string; value: string }>(
        `SELECT key, value FROM meta WHERE key IN ($1, $2)`,
        [HEAVY_MARK, HEAVY_EVENTS_MARK],
      )
    ).rows.map((r) => [r.key, r.value]),
  );
  const marked = marks.get(HEAVY_MARK);
  if (marked) {
    // A history written before the entry count was kept holds the default 5 000.
    return { email: marked, events: Number(marks.get(HEAVY_EVENTS_MARK) ?? 5_000), written: false };
  }
  const pick = await db.query<{ id: number; email: string; sub: number; provider_id: string }>(
    `SELECT c.id, c.email, s.id AS sub, s.provider_id FROM customers c
       JOIN subscriptions s ON s.customer_id = c.id
      WHERE s.provider = 'lemonsqueezy' ORDER BY c.id LIMIT 1 OFFSET $1`,
    [Math.floor(CUSTOMERS / 2)],
  );
  const h = pick.rows[0];
  if (!h) throw new Error('no LemonSqueezy customer to give a history');
  const span = 2 * 365 * 86_400; // seconds
  // The share of each source in the heavy history (sums to 1).
  const share = {
    webhook: 0.3,
    renewal: 0.15,
    refund: 0.01,
    audit: 0.04,
    forum: 0.1,
    isr: 0.2,
    log: 0.2,
  };
  const n = (k: keyof typeof share) => Math.max(1, Math.round(EVENTS * share[k]));
  const at = `$1::timestamptz - ((i * 7919) % ${span}) * interval '1 second'`;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, email,
                                       subscription_id, effects, body_size)
       SELECT ${at}, 'lemonsqueezy',
              (ARRAY['subscription_updated', 'subscription_payment_success', 'order_created'])[1 + i % 3],
              CASE WHEN i % 50 = 0 THEN 'duplicate' ELSE 'applied' END, 200, $2, $3,
              CASE WHEN i % 40 = 0 THEN '["access.grant"]'::jsonb ELSE '["subscription.updated"]'::jsonb END, 1500
         FROM generate_series(1, $4::int) AS g(i)`,
      [NOW, h.email, h.provider_id, n('webhook')],
    );
    await tx.query(
      `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
       SELECT $2, 'renewal', ${at}, 1900, 'USD' FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.sub, n('renewal')],
    );
    await tx.query(
      `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
       SELECT $2, 'refund', ${at}, 1900, 'USD' FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.sub, n('refund')],
    );
    await tx.query(
      `INSERT INTO audit_log (at, operator_id, operator_email, action, target, outcome, detail)
       SELECT ${at}, 1, 'admin@example.com',
              (ARRAY['access.grant', 'access.revoke_now', 'access.revoke_deferred', 'forum.retry'])[1 + i % 4],
              $2, 'ok', '{"before":{"mg_status":"active"},"after":{"mg_status":"cancelled"}}'::jsonb
         FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.email, n('audit')],
    );
    await tx.query(
      `INSERT INTO forum_outbox (email, action, reason, state, attempts, created_at, next_attempt_at,
                                 last_error, finished_at, outcome)
       SELECT $2, CASE WHEN i % 2 = 0 THEN 'grant' ELSE 'revoke' END, 'webhook.lemonsqueezy.subscription_updated',
              CASE WHEN i % 25 = 0 THEN 'failed' ELSE 'done' END, 1, ${at}, ${at},
              CASE WHEN i % 25 = 0 THEN 'Discourse answered HTTP 422' END, ${at}, '{"ok":true,"status":200}'::jsonb
         FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.email, n('forum')],
    );
    await tx.query(
      `INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, customer_email, created_at)
       SELECT 'lemonsqueezy', 'rebill', 'b' || i, 'LSb' || i, 1900, 'USD', $2, ${at}
         FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.email, n('isr')],
    );
    await tx.query(
      `INSERT INTO logs (ts, level, msg, context)
       SELECT ${at}, 'info', 'webhook.lemonsqueezy.subscription_updated',
              jsonb_build_object('email', $2::text, 'provider', 'lemonsqueezy', 'i', i)
         FROM generate_series(1, $3::int) AS g(i)`,
      [NOW, h.email, n('log')],
    );
    // Background: other customers' deliveries, log rows and forum jobs (10 per customer, on 20 000
    // customers), so every per-customer index holds many other keys.
    await tx.query(
      `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, email, effects, body_size)
       SELECT ${at}, 'clickbank', 'BILL', 'applied', 200, c.email, '["event.renewal"]'::jsonb, 900
         FROM (SELECT email FROM customers ORDER BY id LIMIT 20000) c CROSS JOIN generate_series(1, 10) AS g(i)`,
      [NOW],
    );
    await tx.query(
      `INSERT INTO logs (ts, level, msg, context)
       SELECT ${at}, 'info', 'webhook.clickbank.BILL', jsonb_build_object('email', c.email)
         FROM (SELECT email FROM customers ORDER BY id LIMIT 20000) c CROSS JOIN generate_series(1, 10) AS g(i)`,
      [NOW],
    );
    await tx.query(
      `INSERT INTO forum_outbox (email, action, reason, state, attempts, created_at, next_attempt_at, finished_at)
       SELECT c.email, 'grant', 'webhook.clickbank.BILL', 'done', 1, ${at}, ${at}, ${at}
         FROM (SELECT email FROM customers ORDER BY id LIMIT 20000) c CROSS JOIN generate_series(1, 2) AS g(i)`,
      [NOW],
    );
    await tx.query(`INSERT INTO meta (key, value) VALUES ($1, $2), ($3, $4)`, [
      HEAVY_MARK,
      h.email,
      HEAVY_EVENTS_MARK,
      String(EVENTS),
    ]);
  });
  await db.exec(
    'VACUUM ANALYZE webhook_deliveries, subscription_events, audit_log, forum_outbox, isr_events, logs',
  );
  return { email: h.email, events: EVENTS, written: true };
}

/**
 * The `next_before` cursor after the first `depth` entries of `path`'s timeline (pages of 200),
 * or after its last full page when it ends sooner → the cursor and the entries it skips. Throws
 * when the timeline holds no second page.
 */
async function cursorAfter(
  app: { request: (p: string) => Response | Promise<Response> },
  path: string,
  depth: number,
): Promise<{ cursor: string; depth: number }> {
  let before = '';
  let seen = 0;
  while (seen < depth) {
    const res = await app.request(
      `${path}/timeline?limit=200&before=${encodeURIComponent(before)}`,
    );
    const body = (await res.json()) as { next_before: string | null };
    if (!body.next_before) break;
    before = body.next_before;
    seen += 200;
  }
  if (seen === 0) throw new Error(`the timeline of ${path} holds no second page`);
  return { cursor: before, depth: seen };
}

await main();
