/**
 * `npm run bench`: the benchmarks as printed figures (never asserted). Bundle size and the
 * Lighthouse delivery budgets (bench/lighthouse.ts: PASS/FAIL lines) always; the
 * server list benchmark at BENCH_CUSTOMERS (default here 20 000, so it finishes in a few
 * minutes; 100 000 for the full-size load figures). The 500-row table render benchmark needs a
 * Storybook build: `npx tsx bench/users-table-render.ts` (see bench/users-table-render.md).
 * The metrics / ISR benchmark runs here at 20 000 customers and 200 000 ISR events; the full-size
 * load figures (100 000 customers, 1 000 000 ISR events) come from `npx tsx bench/server-metrics.ts`.
 * The dashboard stats benchmark (cache, sliced aggregate, a cheap request's latency while /stats
 * is computed) runs here at 20 000 customers; the full-size figures (100 000) come from
 * `npx tsx bench/server-stats.ts`.
 * The revenue benchmark runs here at 20 000 customers; the full-size figures (100 000) come from
 * `npx tsx bench/server-revenue.ts`.
 * The customer page and search benchmark runs here at 20 000 customers; the full-size figures
 * (100 000) come from `npx tsx bench/server-customers.ts`.
 * The logs search benchmark runs at BENCH_LOG_ROWS (default here 200 000; 1 000 000 for the
 * full-size figure, which takes minutes to build its indexes).
 * The demo seed runs here at 20 000 customers on PGlite; the 1,000,000-customer figure on
 * PostgreSQL comes from `npx tsx bench/seed.ts` (bench/README.md).
 */
import { spawnSync } from 'node:child_process';

function run(title: string, command: string, args: string[], env: Record<string, string> = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}

run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
run('bundle size', 'npx', ['tsx', 'bench/bundle-size.ts']);
// Lighthouse on the sign-in page and the signed-in dashboard, mobile and desktop presets, each
// budget printed as a PASS/FAIL line (bench/lighthouse.ts; the compiled server).
run('delivery budgets (Lighthouse)', 'npx', ['tsx', 'bench/lighthouse.ts']);
// Timed in Chromium on the built console with the reference server's real answer
// (bench/metrics-paint.ts; BENCH_PAINT_CUSTOMERS, default 3000).
run('Metrics screen, 365 days: data arriving → painted frame', 'npx', [
  'tsx',
  'bench/metrics-paint.ts',
]);
// From the last keystroke in the command palette to the results on screen, in Chromium on the
// built console (bench/search-latency.ts; BENCH_SEARCH_CUSTOMERS, default 3000).
run('find anything: last keystroke → results shown', 'npx', ['tsx', 'bench/search-latency.ts']);
run('operator accounts: permission check and audit row', 'npx', ['tsx', 'bench/server-roles.ts']);
run('server list queries', 'npx', ['tsx', 'bench/server-lists.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('server metrics and ISR queries', 'npx', ['tsx', 'bench/server-metrics.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  BENCH_ISR_EVENTS: process.env.BENCH_ISR_EVENTS ?? '200000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('server revenue queries', 'npx', ['tsx', 'bench/server-revenue.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('server dashboard stats: cache and sliced aggregate', 'npx', ['tsx', 'bench/server-stats.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '10',
});
run('server customer page, timeline and search', 'npx', ['tsx', 'bench/server-customers.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('server logs search', 'npx', ['tsx', 'bench/server-logs.ts'], {
  BENCH_LOG_ROWS: process.env.BENCH_LOG_ROWS ?? '200000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('server webhooks: ingest and live fan-out', 'npx', ['tsx', 'bench/server-webhooks.ts'], {
  BENCH_DELIVERIES: process.env.BENCH_DELIVERIES ?? '1000',
});
run('server webhook inbox list', 'npx', ['tsx', 'bench/server-webhook-inbox.ts'], {
  BENCH_INBOX_ROWS: process.env.BENCH_INBOX_ROWS ?? '200000',
  BENCH_RUNS: process.env.BENCH_RUNS ?? '20',
});
run('live event stream: commit → arrival on 1 and 50 open streams', 'npx', [
  'tsx',
  'bench/live-stream.ts',
]);
run('forum outbox', 'npx', ['tsx', 'bench/server-outbox.ts']);
run(
  'reconciliation: LemonSqueezy subscriptions against the database',
  'npx',
  ['tsx', 'bench/server-reconcile.ts'],
  {
    BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  },
);
// The demo seed into an empty database: an in-memory PGlite here, whatever DATABASE_URL says
// (the seed refuses a database holding data); the 1,000,000-customer figure comes from
// `DATABASE_URL=… BENCH_CUSTOMERS=1000000 npx tsx bench/seed.ts` on a throw-away database.
run('demo seed', 'npx', ['tsx', 'bench/seed.ts'], {
  BENCH_CUSTOMERS: process.env.BENCH_CUSTOMERS ?? '20000',
  DATABASE_URL: '',
});
