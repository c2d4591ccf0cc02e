/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) on a local folder, or in
 * memory (DATA_DIR=memory), behind the driver-neutral `Db` of ./types. Migrations in ./migrations
 * (NNN_name.sql) are applied in order at start-up, each in its own transaction, and recorded in
 * schema_migrations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, NotifyListener, Results, TransactionOptions, Tx } from './types';
import { setLocalSql } from './settings';
import { PgPoolDb } from './postgres';
import { withDbWorkload, type StatementTimeouts } from './workload';

export type { Db, Queryable, Results, Tx } from './types';

/** The folder of the migration files (NNN_name.sql). */
export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PostgreSQL extensions loaded into PGlite: pg_trgm backs the email substring indexes (002). */
const extensions = { pg_trgm };

/**
 * Planner settings of the embedded database. PGlite reads its pages from memory (or the OS file
 * cache), so a random page read costs about as much as a sequential one: the default
 * random_page_cost of 4 (spinning disks) makes the planner prefer a whole-table scan plus hash
 * join over a few thousand index probes, e.g. for the Users email substring filter.
 * 1.1 is the usual setting for SSD or memory-resident PostgreSQL.
 */
export const PLANNER_SETTINGS = 'SET random_page_cost = 1.1';

type PgliteQueryable = Pick<PGlite, 'query' | 'exec'>;

async function pgliteQuery<T>(
  conn: PgliteQueryable,
  sql: string,
  params?: unknown[],
): Promise<Results<T>> {
  const r = await conn.query<T>(sql, params);
  return r.affectedRows === undefined
    ? { rows: r.rows }
    : { rows: r.rows, affectedRows: r.affectedRows };
}

/** `Db` over one PGlite instance (a single connection: statements and transactions run one at a time). */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  constructor(readonly pglite: PGlite) {}

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>> {
    return pgliteQuery<T>(this.pglite, sql, params);
  }

  async exec(sql: string): Promise<void> {
    await this.pglite.exec(sql);
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const settings = setLocalSql(options.settings);
    return this.pglite.transaction(async (t) => {
      if (settings !== '') await t.exec(settings);
      const tx: Tx = {
        query: <R>(sql: string, params?: unknown[]) => pgliteQuery<R>(t, sql, params),
        exec: async (sql: string) => {
          await t.exec(sql);
        },
        copyFrom: async (table: string, columns: string, data: string) => {
          if (data === '') return;
          await t.query(`COPY ${table} (${columns}) FROM '/dev/blob' WITH (FORMAT text)`, [], {
            blob: new Blob([data]),
          });
        },
      };
      return fn(tx);
    });
  }

  async listen(channel: string, onNotify: NotifyListener): Promise<() => Promise<void>> {
    const unlisten = await this.pglite.listen(channel, (payload) => onNotify(payload ?? ''));
    return () => unlisten();
  }

  close(): Promise<void> {
    return this.pglite.close();
  }
}

/** How openDatabase reaches a real PostgreSQL instead of PGlite. */
export interface OpenDatabaseOptions {
  /** A postgres:// URL (DATABASE_URL): when set, the server runs on that PostgreSQL through a pool. */
  databaseUrl?: string | null;
  /** Most pool connections (DATABASE_POOL_MAX, default 10). */
  poolMax?: number;
  /** Errors that belong to no request (a dropped idle or LISTEN connection), for the log. */
  onBackgroundError?: (message: string, err: Error) => void;
  /** PostgreSQL statement time-outs per workload in ms (./workload; PGlite has none). */
  statementTimeouts?: StatementTimeouts;
  /** PostgreSQL idle_in_transaction_session_timeout in ms (DATABASE_IDLE_TX_TIMEOUT_MS). */
  idleInTransactionTimeoutMs?: number;
}

/**
 * Opens and migrates the database:
 * - `options.databaseUrl` set → PostgreSQL through a node-postgres pool (PgPoolDb); migrations
 *   run under a PostgreSQL advisory lock, so instances starting together migrate once;
 * - else PGlite at `dataDir` (created when needed), or in memory for 'memory'.
 *
 * Rejects when the database cannot be reached or a migration fails.
 */
export async function openDatabase(
  dataDir: string,
  options: OpenDatabaseOptions = {},
): Promise<Db> {
  if (options.databaseUrl) {
    const db = new PgPoolDb({
      connectionString: options.databaseUrl,
      max: options.poolMax,
      onBackgroundError: options.onBackgroundError,
      statementTimeouts: options.statementTimeouts,
      idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs,
    });
    try {
      // A migration may rewrite a large table, and a second instance waits for the first's lock.
      await withDbWorkload('unbounded', () =>
        db.withSessionLock(MIGRATION_LOCK, () => migrate(db)),
      );
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }
  const pglite =
    dataDir === 'memory' ? new PGlite({ extensions }) : new PGlite(dataDir, { extensions });
  await pglite.waitReady;
  const db = new PgliteDb(pglite);
  await db.exec(PLANNER_SETTINGS);
  await migrate(db);
  return db;
}

/** An open read replica and whether it really is a standby (pg_is_in_recovery()). */
export interface ReadReplica {
  db: PgPoolDb;
  /** False when the URL reaches a primary: allowed (reads simply go there), worth a warning. */
  standby: boolean;
}

/**
 * Opens the read replica of DATABASE_REPLICA_URL: a second pool (same size, session settings and
 * time-outs as the primary's) and one round trip to prove it answers. Never migrates or seeds:
 * the replica replays the primary's schema and data. Rejects (after closing the pool) when the
 * replica cannot be reached within the pool's connection time-out (10 s).
 */
export async function openReadReplica(
  replicaUrl: string,
  options: Omit<OpenDatabaseOptions, 'databaseUrl'> = {},
): Promise<ReadReplica> {
  const db = new PgPoolDb({
    connectionString: replicaUrl,
    max: options.poolMax,
    onBackgroundError: options.onBackgroundError,
    statementTimeouts: options.statementTimeouts,
    idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs,
  });
  try {
    const r = await db.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    return { db, standby: r.rows[0]?.standby === true };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** pg_advisory_lock key (two int4) held while one instance migrates a PostgreSQL database: 'mg' 1. */
export const MIGRATION_LOCK: readonly [number, number] = [0x6d67, 1];

/**
 * The tables a migration asks to have vacuumed once it has committed, from its lines
 * `-- vacuum after: table_a, table_b`. A migration that rewrites a table (ALTER COLUMN … TYPE …
 * USING) leaves its visibility map empty, so every index-only scan of it reads the table as well
 * until a VACUUM, which autovacuum starts only after enough rows change; VACUUM cannot run inside
 * the migration's transaction.
 */
export function vacuumAfter(sql: string): string[] {
  return [
    ...sql.matchAll(/^-- vacuum after: ([a-z_][a-z0-9_]*(?:, [a-z_][a-z0-9_]*)*)$/gm),
  ].flatMap((m) => (m[1] ?? '').split(', '));
}

/**
 * Applies every migration not yet recorded, each in its own transaction, then vacuums and analyses
 * the tables they ask for (vacuumAfter); returns the versions applied now.
 */
export async function migrate(db: Db): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const done = new Set(
    (await db.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map(
      (r) => r.version,
    ),
  );
  const files = readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  const vacuum = new Set<string>();
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (done.has(version)) continue;
    const sql = readFileSync(path.join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    });
    applied.push(version);
    for (const table of vacuumAfter(sql)) vacuum.add(table);
  }
  if (vacuum.size > 0) await db.exec(`VACUUM (ANALYZE) ${[...vacuum].join(', ')}`);
  return applied;
}
