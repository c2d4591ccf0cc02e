/**
 * Benchmark of the Users and Subscriptions lists: a database seeded with the demo data
 * (server/seed, 100 000 customers by default, ending with VACUUM ANALYZE; bench/support.ts), then
 * typical list queries sent through the real route handlers (`app.request` on a Hono app mounting
 * the feature routers), each BENCH_RUNS times (default 30) after 2 warm-up runs. Prints p50 / p95
 * in ms per query: wall clock, and the process CPU time per request (PGlite runs in this thread,
 * so CPU time is the work done, which other load on a shared machine disturbs far less than wall
 * clock), then the rows whose p95 is over budget (lists 25 ms, deep pages 50 ms).
 *
 *   npx tsx bench/server-lists.ts                  # 100k customers, 30 runs, in memory
 *   BENCH_CUSTOMERS=20000 BENCH_RUNS=10 npx tsx bench/server-lists.ts
 *   npx tsx bench/server-lists.ts --explain        # + EXPLAIN (ANALYZE, BUFFERS) of the rows over budget
 *   npx tsx bench/server-lists.ts --explain-all    # + the plan and the scans of every query
 *   npx tsx bench/server-lists.ts --matrix         # the load test's filters × its sorts instead
 *   BENCH_ONLY='^subs: .*cancelled' npx tsx bench/server-lists.ts --matrix   # the rows matching it
 *   BENCH_DATA_DIR=/tmp/bench-db npx tsx bench/server-lists.ts   # keep the seeded database on disk
 *                                                   # and reuse it on the next run (seeding 100k is slow)
 *   DATABASE_URL=postgres://… npx tsx bench/server-lists.ts   # the same on a real PostgreSQL (an
 *                                                   # empty database, or one a server bench seeded)
 *
 * --explain records the SQL the handlers send (a recording proxy around the database) and prints
 * EXPLAIN (ANALYZE, BUFFERS) of the queries of each row over budget; --explain-all explains every
 * row and adds the scans each one uses (indexes, or a Seq Scan) to the results table, so index use
 * can be checked on the large dataset. Timings are measurements only; no test asserts them.
 * Figures and how to read them: bench/README.md.
 */
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
import { clickbankRoutes } from '../server/routes/clickbank';
import { maintenanceRoutes } from '../server/routes/maintenance';
import { SUBSCRIPTION_SORT_KEYS, subscriptionsRoutes } from '../server/routes/subscriptions';
import { USER_SORT_KEYS, usersRoutes } from '../server/routes/users';
import {
  listFilterFields,
  SUBSCRIPTION_MIX_SORTS,
  USER_MIX_SORTS,
  type ListFilterField,
} from './listMix';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 2;
const EXPLAIN = explainMode();
/** --matrix: the load test's list filters (none, one or two) × its sorts, instead of the rows below. */
const MATRIX = process.argv.includes('--matrix');
/** BENCH_ONLY: a regular expression; only the rows whose name matches it run. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const NOW = new Date('2026-11-22T12:00:00.000Z');
/** p95 budget of a list query, ms. */
const BUDGET_MS = 25;
/** p95 budget of a deep page (offset ≥ 50 000 at 100k customers), ms. */
const DEEP_BUDGET_MS = 50;

async function main(): Promise<void> {
  const bench = await openBenchDatabase({ customers: CUSTOMERS, seed: 42, now: NOW });
  const db = bench.db;
  const counts = await db.query<{ subs: number; members: number; orders: number }>(
    `SELECT (SELECT count(*) FROM subscriptions)::int AS subs, (SELECT count(*) FROM members)::int AS members,
            (SELECT count(*) FROM clickbank_orders)::int AS orders`,
  );
  const c = counts.rows[0];
  console.log(
    `${describeBenchDatabase(bench, CUSTOMERS)}: ${c?.subs} subscriptions, ${c?.members} members, ` +
      `${c?.orders} ClickBank orders`,
  );

  const rec = recording(db);
  const deps = testDeps(rec.db, NOW);
  const app = testApp(deps, [
    usersRoutes,
    (d) => subscriptionsRoutes(d),
    clickbankRoutes,
    maintenanceRoutes,
  ]);

  const pick = await db.query<{ email: string }>(
    `SELECT c.email FROM customers c JOIN subscriptions s ON s.customer_id = c.id WHERE s.provider = 'clickbank' ORDER BY c.id LIMIT 1 OFFSET $1`,
    [Math.floor(CUSTOMERS / 3)],
  );
  const email = pick.rows[0]?.email ?? 'nobody@example.com';
  const rare = email.slice(email.indexOf('+'), email.indexOf('@') + 1); // '+12345@': one customer
  const common = email.split('.')[0] ?? 'a'; // a first name: many customers
  // Across the first '.' ('o.n'): a trigram only in the joined index (migration 047).
  const dot = email.indexOf('.');
  const across = email.slice(Math.max(0, dot - 1), dot + 2);
  const domain = email.slice(email.indexOf('@') + 1); // 'example.com' (70 % of the customers) or '.org' (30 %)

  const queries: [string, string][] = MATRIX
    ? loadMatrix()
    : [
        ['users: default page', '/users'],
        [`users: email ~ '${rare}'`, `/users?email=${encodeURIComponent(rare)}`],
        [`users: email ~ '${common}'`, `/users?email=${encodeURIComponent(common)}`],
        [`users: email ~ '${across}'`, `/users?email=${encodeURIComponent(across)}`],
        // A domain: in a large share of the rows, counted off the email sort index (Where.range).
        [`users: email ~ '${domain}'`, `/users?email=${encodeURIComponent(domain)}`],
        ['users: provider+status', '/users?provider=lemonsqueezy&provider_status=past_due'],
        ['users: mg_status=scheduled', '/users?mg_status=scheduled'],
        ['users: expiry range', '/users?exp_from=2026-11-01&exp_to=2026-12-31'],
        [
          'users: start range + cadence',
          '/users?start_from=2026-01-01&start_to=2026-03-31&cadence=yearly',
        ],
        // Broad filters (a quarter to three quarters of the rows): totals from kept counts (027).
        ['users: provider=clickbank', '/users?provider=clickbank'],
        ['users: cadence=monthly, sort email', '/users?cadence=monthly&sort=email'],
        ['users: mg_status=active, sort expiry', '/users?mg_status=active&sort=expires_at'],
        [
          'users: cancelled + lemonsqueezy, -start',
          '/users?mg_status=cancelled&provider=lemonsqueezy&sort=-start_date',
        ],
        ['users: scheduled + lemonsqueezy', '/users?mg_status=scheduled&provider=lemonsqueezy'],
        ['users: deep page 1000', '/users?page=1000&pageSize=50'],
        ...USER_SORT_KEYS.flatMap((k): [string, string][] => [
          [`users: sort ${k}`, `/users?sort=${k}`],
          [`users: sort -${k}`, `/users?sort=-${k}`],
        ]),
        ['subs: default page', '/subscriptions'],
        [`subs: email ~ '${rare}'`, `/subscriptions?email=${encodeURIComponent(rare)}`],
        [`subs: email ~ '${common}'`, `/subscriptions?email=${encodeURIComponent(common)}`],
        [`subs: email ~ '${across}'`, `/subscriptions?email=${encodeURIComponent(across)}`],
        [
          `subs: email ~ '${domain}', renewal`,
          `/subscriptions?email=${encodeURIComponent(domain)}&sortKey=current_period_end&sortDir=asc`,
        ],
        ['subs: provider+status', '/subscriptions?provider=clickbank&provider_status=cancelled'],
        ['subs: renew range', '/subscriptions?renew_from=2026-12-01&renew_to=2026-12-07'],
        ['subs: expire range', '/subscriptions?expire_from=2026-11-01&expire_to=2026-11-30'],
        [
          'subs: provider=lemonsqueezy, start',
          '/subscriptions?provider=lemonsqueezy&sortKey=start_date&sortDir=asc',
        ],
        [
          'subs: cadence=yearly, sort email',
          '/subscriptions?cadence=yearly&sortKey=email&sortDir=asc',
        ],
        ['subs: active, page 5 x 100', '/subscriptions?provider_status=active&page=5&pageSize=100'],
        ['subs: deep page 400 x 200', '/subscriptions?page=400&pageSize=200'],
        ...SUBSCRIPTION_SORT_KEYS.flatMap((k): [string, string][] => [
          [`subs: sort ${k} asc`, `/subscriptions?sortKey=${k}&sortDir=asc`],
          [`subs: sort ${k} desc`, `/subscriptions?sortKey=${k}&sortDir=desc`],
        ]),
        ['detail by email', `/subscriptions/detail?enrich=1&email=${encodeURIComponent(email)}`],
        ['clickbank orders', `/clickbank/orders?email=${encodeURIComponent(email)}`],
        ['expiration dry run', '/maintenance/run-expiration?dryRun=true'],
      ];

  if (ONLY) queries.splice(0, queries.length, ...queries.filter(([name]) => ONLY.test(name)));
  // One untimed pass over every query first, so the first rows of the table do not pay for
  // warming the engine (WebAssembly tier-up, catalog caches) that a running server has done long ago.
  for (const [, path] of queries) await (await app.request(path)).text();

  const results: {
    name: string;
    p50: number;
    p95: number;
    cpu50: number;
    cpu95: number;
    total: string;
    budgetMs: number;
    queries: QueryLog;
    indexes: string;
  }[] = [];
  for (const [name, path] of queries) {
    const times: number[] = [];
    const cpus: number[] = [];
    let total = '';
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
        const body = JSON.parse(text) as { total?: number; affected_count?: number };
        total = String(body.total ?? body.affected_count ?? '');
        recorded = [...rec.log];
      }
    }
    results.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpu50: percentile(cpus, 50),
      cpu95: percentile(cpus, 95),
      total,
      budgetMs: name.includes('deep page') ? DEEP_BUDGET_MS : BUDGET_MS,
      queries: recorded,
      indexes: '',
    });
  }
  // Plans after the timings, so EXPLAIN ANALYZE does not warm or disturb what is measured.
  if (EXPLAIN === 'all') {
    for (const r of results) r.indexes = await explainQueries(db, r.name, r.queries);
  }

  const width = Math.max(...results.map((r) => r.name.length));
  const cols = ['p50 ms', 'p95 ms', 'cpu p50', 'cpu p95'].map((c) => c.padStart(8)).join('  ');
  const scans = EXPLAIN === 'all';
  console.log(
    `\n${'query'.padEnd(width)}  ${cols}  ${'total'.padStart(7)}  budget${scans ? '  scans (index or Seq Scan)' : ''}`,
  );
  console.log(
    `${'-'.repeat(width)}  ${Array(4).fill('--------').join('  ')}  -------  ------${scans ? '  --------------------------' : ''}`,
  );
  for (const r of results) {
    const figures = [r.p50, r.p95, r.cpu50, r.cpu95]
      .map((v) => v.toFixed(1).padStart(8))
      .join('  ');
    const budget = `${isOverBudget(r) ? '>' : '≤'}${r.budgetMs}`.padStart(6);
    const line = `${r.name.padEnd(width)}  ${figures}  ${r.total.padStart(7)}  ${budget}`;
    console.log(scans ? `${line}  ${r.indexes}` : line);
  }
  console.log(
    `\n${RUNS} runs per query after ${WARMUP} warm-up runs; ${CUSTOMERS} customers; ${bench.label}; Node ${process.version}.\n` +
      `p50/p95: wall-clock ms per request; ${cpuNote(db)}. budget: p95 ≤ (or >) ms.`,
  );
  await reportBudgets(db, results, { explain: EXPLAIN === 'over' });
  await db.close();
}

/**
 * The list requests bench/load.ts draws from (bench/listMix.ts), every one of them but its email
 * fragments: no filter, one, or two on different fields × its sort keys × both directions, page 1
 * of 50 rows, dates around NOW. Filters correlated with a sort (yearly renewals sort after monthly
 * ones, webhooks touch LemonSqueezy rows) make some pairs far slower than either alone; this
 * finds them.
 */
function loadMatrix(): [string, string][] {
  const RANGES: Record<string, string> = { start: 'start', exp: 'expiry', renew: 'renewal' };
  const label = (filter: Record<string, string>) =>
    Object.entries(filter)
      .filter(([k]) => !k.endsWith('_to'))
      .map(([k, v]) => (k.endsWith('_from') ? `${RANGES[k.slice(0, -5)] ?? k} range` : v))
      .join(' + ') || 'no filter';
  /** No filter, each value of each field, and each pair of values of two fields. */
  const combos = (fields: ListFilterField[]): Record<string, string>[] => {
    const out: Record<string, string>[] = [{}];
    fields.forEach((a, i) => {
      for (const x of a) out.push(x);
      for (const b of fields.slice(i + 1))
        for (const x of a) for (const y of b) out.push({ ...x, ...y });
    });
    return out;
  };
  const rows: [string, string][] = [];
  for (const filter of combos(listFilterFields('users', NOW.getTime())))
    for (const sort of USER_MIX_SORTS)
      for (const dir of ['', '-'])
        rows.push([
          `users: ${label(filter)}, sort ${dir}${sort}`,
          `/users?${new URLSearchParams({ ...filter, sort: `${dir}${sort}` })}`,
        ]);
  for (const filter of combos(listFilterFields('subscriptions', NOW.getTime())))
    for (const sortKey of SUBSCRIPTION_MIX_SORTS)
      for (const sortDir of ['asc', 'desc'])
        rows.push([
          `subs: ${label(filter)}, ${sortKey} ${sortDir}`,
          `/subscriptions?${new URLSearchParams({ ...filter, sortKey, sortDir })}`,
        ]);
  return rows;
}

await main();
