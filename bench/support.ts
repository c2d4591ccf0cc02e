/**
 * Helpers shared by the benchmarks: the nearest-rank percentile they print; the bench database
 * (PostgreSQL, a kept PGlite folder or an in-memory PGlite, seeded when empty); the query recorder,
 * per-row budgets and EXPLAIN output of the rows over them (--explain); and starting a built
 * server.
 *
 * A seeded database is reused by every bench that asks for the same number of customers, seed and
 * clock (the server benches all seed 42 at 2026-11-22T12:00Z), so one PostgreSQL database serves
 * the whole suite (bench/postgres-suite.sh).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';
import { openDatabase } from '../server/db';
import type { Db, TransactionOptions, Tx } from '../server/db/types';
import { SEED_VERSION, seedDemoData } from '../server/seed';

/** The p-th percentile (0..100) of `values` (nearest rank), in the values' unit; NaN when empty. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? NaN;
}

/**
 * A database proxy that records the SQL and parameters of every query (for --explain), and of
 * the queries of a transaction with planner settings (TransactionOptions.settings) with those
 * settings; other transactions' statements (the writes of actions) are not recorded.
 */
export function recording(db: Db): { db: Db; log: QueryLog } {
  const log: QueryLog = [];
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (sql: string, params: unknown[] = []) => {
          log.push({ sql, params });
          return target.query(sql, params);
        };
      }
      if (prop === 'transaction') {
        return <T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> => {
          const settings = options?.settings;
          if (!settings) return target.transaction(fn, options);
          return target.transaction(
            (tx) =>
              fn({
                ...tx,
                query: (sql: string, params: unknown[] = []) => {
                  log.push({ sql, params, settings });
                  return tx.query(sql, params);
                },
              } as Tx),
            options,
          );
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: proxy, log };
}

/** An open bench database and how it came to hold its data. */
export interface BenchDatabase {
  db: Db;
  /** Where it lives: 'PostgreSQL host:port/name', the BENCH_DATA_DIR folder, or 'memory'. */
  label: string;
  /** True when this run seeded it (it held no customers); false when reused. */
  seeded: boolean;
  /** Opening and migrating, ms. */
  openMs: number;
  /** Seeding (demo data and VACUUM ANALYZE), ms; 0 when reused. */
  seedMs: number;
}

/**
 * Opens the bench database:
 * - DATABASE_URL set → that PostgreSQL (through the server's pool);
 * - else PGlite in the folder BENCH_DATA_DIR (kept for the next run), or in memory.
 *
 * An empty database (no customers) is seeded with `customers` demo customers (`seed`, dated up to
 * `now`). One holding exactly `customers` customers is reused when its recorded seed and anchor day
 * match. Anything else throws, naming the database, what it holds and what to do.
 */
export async function openBenchDatabase(opts: {
  customers: number;
  seed: number;
  now: Date;
}): Promise<BenchDatabase> {
  const t0 = performance.now();
  const databaseUrl = process.env.DATABASE_URL?.trim() || null;
  let label: string;
  if (databaseUrl) {
    const u = new URL(databaseUrl);
    label = `PostgreSQL ${u.host}${u.pathname}`;
  } else {
    label = process.env.BENCH_DATA_DIR?.trim() || 'memory';
  }
  const db = await openDatabase(databaseUrl ? 'memory' : label, { databaseUrl });
  const openMs = performance.now() - t0;
  try {
    const have =
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers')).rows[0]?.n ?? 0;
    if (have === 0) {
      const t1 = performance.now();
      await seedDemoData(db, opts); // ends with VACUUM ANALYZE
      return { db, label, seeded: true, openMs, seedMs: performance.now() - t1 };
    }
    const other = databaseUrl
      ? 'an empty database (another DATABASE_URL)'
      : 'another BENCH_DATA_DIR (or none: in memory)';
    if (have !== opts.customers) {
      throw new Error(
        `${label} holds ${have} customers, not BENCH_CUSTOMERS=${opts.customers}: ` +
          `set BENCH_CUSTOMERS=${have} to reuse it, or use ${other}`,
      );
    }
    const meta = new Map(
      (
        await db.query<{ key: string; value: string }>(
          `SELECT key, value FROM meta WHERE key IN ('seed', 'seed_anchor_day', 'seed_version')`,
        )
      ).rows.map((r) => [r.key, r.value]),
    );
    const wantSeed = String(opts.seed >>> 0);
    const wantDay = opts.now.toISOString().slice(0, 10);
    if (
      (meta.has('seed') && meta.get('seed') !== wantSeed) ||
      (meta.has('seed_anchor_day') && meta.get('seed_anchor_day') !== wantDay)
    ) {
      throw new Error(
        `${label} was seeded with seed ${meta.get('seed')} up to ${meta.get('seed_anchor_day')}, ` +
          `this bench wants seed ${wantSeed} up to ${wantDay}: use ${other}`,
      );
    }
    if (meta.has('seed_version') && meta.get('seed_version') !== SEED_VERSION) {
      console.log(
        `note: ${label} holds seed version ${meta.get('seed_version')}, the generator is at ` +
          `${SEED_VERSION}: its data is not what a fresh seed writes today`,
      );
    }
    return { db, label, seeded: false, openMs, seedMs: 0 };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** One line on how the database was obtained, e.g. 'database (memory): open 1.2 s, seeded … in 40.1 s'. */
export function describeBenchDatabase(b: BenchDatabase, customers: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `database (${b.label}): open ${s(b.openMs)}, ` +
    (b.seeded
      ? `seeded ${customers} customers in ${s(b.seedMs)}`
      : `reused (${customers} customers)`)
  );
}

/**
 * What a bench's CPU columns mean on this database: PGlite runs in the bench's own thread, so
 * process CPU time is the request's whole work; PostgreSQL works in its own processes, so it is
 * only the Node side (routing, JSON, the driver).
 */
export function cpuNote(db: Db): string {
  return db.kind === 'pglite'
    ? 'cpu: process CPU ms per request (PGlite runs in this thread: the whole work, little disturbed by other load)'
    : "cpu: this process's CPU ms per request (the Node side only: PostgreSQL works in its own processes)";
}

/** The SQL and parameters of the statements one request sent (`recording`). */
export type QueryLog = {
  sql: string;
  params: unknown[];
  /** The settings of the transaction it ran in, when it had any (see recording). */
  settings?: TransactionOptions['settings'];
}[];

/** Which rows --explain covers: none, the rows over budget (--explain), or all (--explain-all). */
export type ExplainMode = 'off' | 'over' | 'all';

/** The explain mode from the command line: --explain-all, --explain, or neither. */
export function explainMode(argv: string[] = process.argv): ExplainMode {
  if (argv.includes('--explain-all')) return 'all';
  return argv.includes('--explain') ? 'over' : 'off';
}

/** One measured row: its p95 in ms against its budget in ms (0: none), and one request's queries. */
export interface BudgetRow {
  name: string;
  /** Wall-clock p95, ms. */
  p95: number;
  /** The p95 budget, ms; 0 when the row has none. */
  budgetMs: number;
  /** The statements one request of the row sent (empty when not recorded). */
  queries: QueryLog;
}

/** True when the row has a budget and its p95 exceeds it. */
export function isOverBudget(row: BudgetRow): boolean {
  return row.budgetMs > 0 && row.p95 > row.budgetMs;
}

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of each SELECT / WITH statement in `queries` (same
 * parameters; each statement runs once more), under the heading `title` → a summary of the scans
 * the plans use, in plan order, each once, e.g. 'members_updated_at_idx, Seq Scan on logs'.
 * A statement recorded with settings is explained in a transaction with the same settings;
 * statements a handler sent inside other transactions are not in the log and not explained.
 */
export async function explainQueries(db: Db, title: string, queries: QueryLog): Promise<string> {
  console.log(`\n=== ${title}`);
  const scans: string[] = [];
  const selects = queries.filter((q) => /^\s*(SELECT|WITH)\b/i.test(q.sql));
  if (selects.length === 0) console.log('  (no SELECT recorded outside a transaction)');
  for (const [i, q] of selects.entries()) {
    const sql = q.sql.replace(/\s+/g, ' ').trim();
    console.log(
      `  -- statement ${i + 1} of ${selects.length}: ${sql.length > 240 ? `${sql.slice(0, 240)}…` : sql}`,
    );
    if (q.params.length > 0) console.log(`  -- params: ${JSON.stringify(q.params).slice(0, 240)}`);
    if (q.settings) console.log(`  -- in a transaction with ${JSON.stringify(q.settings)}`);
    const explain = `EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`;
    type Plan = { 'QUERY PLAN': string };
    const plan = q.settings
      ? await db.transaction((tx) => tx.query<Plan>(explain, q.params), { settings: q.settings })
      : await db.query<Plan>(explain, q.params);
    for (const r of plan.rows) {
      const line = r['QUERY PLAN'];
      console.log(`  ${line}`);
      const m =
        / using (\S+)/.exec(line) ??
        /Bitmap Index Scan on (\S+)/.exec(line) ??
        /(Seq Scan on \S+)/.exec(line);
      if (m?.[1] && !scans.includes(m[1])) scans.push(m[1]);
    }
  }
  return scans.join(', ');
}

/**
 * Prints which rows are over their budget (p95 > budget), or that none is; with `explain`, also
 * EXPLAIN (ANALYZE, BUFFERS) of the statements of each row over budget.
 */
export async function reportBudgets(
  db: Db,
  rows: BudgetRow[],
  options: { explain: boolean },
): Promise<void> {
  const budgeted = rows.filter((r) => r.budgetMs > 0);
  const over = budgeted.filter(isOverBudget);
  if (over.length === 0) {
    console.log(`\nover budget: none (${budgeted.length} rows with a p95 budget)`);
    return;
  }
  console.log(`\nover budget (p95 > budget): ${over.length} of ${budgeted.length} rows`);
  const width = Math.max(...over.map((r) => r.name.length));
  for (const r of over) {
    console.log(`  ${r.name.padEnd(width)}  p95 ${r.p95.toFixed(1)} ms > ${r.budgetMs} ms`);
  }
  if (!options.explain) {
    console.log('  (run with --explain for their plans)');
    return;
  }
  for (const r of over) {
    await explainQueries(
      db,
      `${r.name} (p95 ${r.p95.toFixed(1)} ms > ${r.budgetMs} ms)`,
      r.queries,
    );
  }
}

/**
 * Resolves once the reference server at `base` answers GET /api/admin/health; throws after
 * `timeoutMs`, or as soon as `exitCode` (the server process's exit code or signal, null while it
 * runs) says it has exited.
 */
export async function waitForServer(
  base: string,
  timeoutMs: number,
  exitCode?: () => number | string | null,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A server that has exited will not answer: say so now rather than at the deadline.
    const exited = exitCode?.();
    if (exited != null) throw new Error(`the reference server exited (${exited}) before answering`);
    try {
      if ((await fetch(`${base}/api/admin/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the reference server did not answer ${base}/api/admin/health`);
}

/** A compiled reference server serving the built console (dist/) on a throw-away data folder. */
export interface BuiltServer {
  /** http://localhost:<port> */
  base: string;
  process: ChildProcess;
  /** Stops the server, waits for it to exit (at most 10 s), then removes its data folder. */
  stop: () => Promise<void>;
}

/**
 * Builds the server (dist-server/), starts it on `port` with `customers` demo customers (seed
 * 42) and the owner `admin`, serving dist/, and waits up to `timeoutMs` for it to answer.
 *
 * `env` adds to or overrides the server's environment (DATABASE_URL, JWT_SECRET, …). `dataDir`
 * names a data folder that is kept (a seeded PGlite reused next time); without it the folder is
 * a throw-away one. `outfile` runs a server already built (buildServer), so several instances
 * start from one build and no build replaces the files of a running one.
 */
export async function startBuiltServer(options: {
  port: number;
  customers: string;
  admin: { email: string; password: string };
  timeoutMs: number;
  env?: Record<string, string>;
  dataDir?: string;
  outfile?: string;
}): Promise<BuiltServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'mg-bench-data-'));
  const outfile = options.outfile ?? (await buildServer('dist-server')).outfile;
  const child = spawn(process.execPath, [outfile], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      SEED_CUSTOMERS: options.customers,
      SEED: '42',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.resolve('dist'),
      ...options.env,
    },
  });
  const base = `http://localhost:${options.port}`;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // The server writes its database until it has exited; removing the folder before that races
  // its last writes (ENOTEMPTY).
  const stop = async () => {
    child.kill();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    await waitForServer(base, options.timeoutMs, () => child.exitCode ?? child.signalCode);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, process: child, stop };
}
