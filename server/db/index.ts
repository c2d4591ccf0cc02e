/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) on a local folder, or in
 * memory for tests. Migrations in ./migrations (NNN_name.sql) are applied in order at start-up,
 * each in its own transaction, and recorded in schema_migrations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PostgreSQL extensions loaded into PGlite: pg_trgm backs the email substring indexes (002). */
const extensions = { pg_trgm };

/**
 * Planner settings of the embedded database. PGlite reads its pages from memory (or the OS file
 * cache), so a random page read costs about as much as a sequential one: the default
 * random_page_cost of 4 (spinning disks) makes the planner prefer a whole-table scan plus hash
 * join over a few thousand index probes, e.g. for the Users email substring filter (issue 11).
 * 1.1 is the usual setting for SSD or memory-resident PostgreSQL.
 */
export const PLANNER_SETTINGS = 'SET random_page_cost = 1.1';

/** Opens (creating when needed) the database at `dataDir`, or in memory for 'memory', and migrates it. */
export async function openDatabase(dataDir: string): Promise<PGlite> {
  const db =
    dataDir === 'memory' ? new PGlite({ extensions }) : new PGlite(dataDir, { extensions });
  await db.waitReady;
  await db.exec(PLANNER_SETTINGS);
  await migrate(db);
  return db;
}

/** Applies every migration not yet recorded; returns the versions applied now. */
export async function migrate(db: PGlite): Promise<string[]> {
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
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (done.has(version)) continue;
    const sql = readFileSync(path.join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    });
    applied.push(version);
  }
  return applied;
}
