/**
 * Benchmark of the demo seed: `seedDemoData` of BENCH_CUSTOMERS demo customers (default 100 000)
 * into an empty database — the one at DATABASE_URL, or an in-memory PGlite — migrations first.
 * Seeded as the server benches seed (42 at 2026-11-22T12:00Z, so the suite can reuse the database)
 * and as the server seeds (no statement time-out). Printed: the wall time of the seed (its VACUUM
 * ANALYZE included), this process's CPU time (on PostgreSQL the generator and the COPY text, the
 * database working in its own processes; on PGlite everything), the rows written, and whether
 * 1,000,000 customers on PostgreSQL fit the 3-minute budget.
 *
 *   npx tsx bench/seed.ts                                                     # PGlite in memory
 *   createdb seed1m && DATABASE_URL=postgres://…/seed1m BENCH_CUSTOMERS=1000000 npx tsx bench/seed.ts
 *
 * The seed refuses a database that holds customer data, and the seeded data stays: point
 * DATABASE_URL at a throw-away database. Timings are measurements only; no test asserts them.
 * Figures: bench/README.md "PostgreSQL at 1M customers" ("The generator beside the load").
 */
import { loadavg } from 'node:os';
import { openDatabase } from '../server/db';
import { withDbWorkload } from '../server/db/workload';
import { seedDemoData } from '../server/seed';

/** The server benches' seeding moment (bench/support.ts). */
const NOW = new Date('2026-11-22T12:00:00.000Z');

/** The seed budget: 1,000,000 customers on PostgreSQL in at most this many seconds. */
const BUDGET_1M_S = 180;

const customers = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
if (!Number.isSafeInteger(customers) || customers < 1) {
  throw new Error(`BENCH_CUSTOMERS must be a whole number ≥ 1, got ${process.env.BENCH_CUSTOMERS}`);
}
const databaseUrl = process.env.DATABASE_URL?.trim() || null;
const label = databaseUrl
  ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`
  : 'PGlite in memory';

const db = await openDatabase('memory', { databaseUrl });
try {
  const load = loadavg().map((l) => l.toFixed(2));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const summary = await withDbWorkload('unbounded', () =>
    seedDemoData(db, { customers, seed: 42, now: NOW }),
  );
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(`seed of ${customers} customers into ${label} (load average ${load.join(' ')})`);
  const cpuIs = db.kind === 'pglite' ? 'the whole seed: PGlite runs in it' : 'the Node side only';
  console.log(`  wall ${wallS.toFixed(1)} s, this process's CPU ${cpuS.toFixed(1)} s (${cpuIs})`);
  console.log(
    `  ${summary.subscriptions.total} subscriptions, ${summary.members} members, ` +
      `${summary.events} events, ${summary.clickbankOrders} ClickBank orders, ` +
      `${summary.isrEvents} ISR events, ${summary.webhookDeliveries} webhook deliveries, ` +
      `${summary.logs} log rows`,
  );
  if (databaseUrl && customers === 1_000_000) {
    const verdict = wallS <= BUDGET_1M_S ? 'within' : 'over';
    console.log(`  ${verdict} the budget of ${BUDGET_1M_S} s for 1,000,000 customers`);
  }
} finally {
  await db.close();
}
