/**
 * Databases for tests. `openTestDatabase()` opens a fresh migrated database: an in-memory PGlite,
 * or, when TEST_DATABASE_URL is set (a postgres:// URL of a server the tests may create databases
 * on; `npm run test:server:pg`), a throw-away database on that PostgreSQL.
 *
 * Every PostgreSQL database is its own `mgtest_<pid>_<n>_<random>`, so test files stay isolated
 * and may run in parallel, and is dropped (WITH FORCE) when the returned Db is closed. To keep that
 * fast, the migrations are applied once per migration set into a template database
 * `mgtest_tpl_<hash of the migration files>`, which every fresh database copies (CREATE DATABASE …
 * TEMPLATE); migrate() then finds nothing left to do. Creating from a template needs it free of
 * connections, so creation is serialised across processes by an advisory lock on the maintenance
 * connection. The URL's user must be allowed to create databases (the throw-away cluster of
 * scripts/pg-test-cluster.sh connects as its superuser).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrate, migrationsDir, openDatabase } from '../db';
import { PgPoolDb } from '../db/postgres';
import type { Db } from '../db/types';

/** Advisory lock key serialising template creation and copies: 'mg' 2. */
const TEMPLATE_LOCK = [0x6d67, 2] as const;
let counter = 0;
/** The URL of each open test database (for a second pool on the same database: two "instances"). */
const urls = new WeakMap<Db, string>();

/** The postgres:// URL of a database opened by openTestDatabase, or null for any other Db. */
export function testDatabaseUrl(db: Db): string | null {
  return urls.get(db) ?? null;
}

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsDir).sort()) {
    h.update(f);
    h.update(readFileSync(path.join(migrationsDir, f)));
  }
  return h.digest('hex').slice(0, 12);
}

/** `url` pointing at database `name` instead. */
function urlFor(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A fresh migrated database for one test file (share it between the file's tests): a new
 * PostgreSQL database on TEST_DATABASE_URL's server when that is set, else an in-memory PGlite.
 * Closing the Db drops it.
 */
export function openTestDatabase(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url ? openPostgresTestDatabase(url) : openDatabase('memory');
}

/** A fresh migrated database on the server of `url`; closing the Db drops it. */
async function openPostgresTestDatabase(url: string): Promise<Db> {
  const template = `mgtest_tpl_${migrationsHash()}`;
  const name = `mgtest_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  await withAdmin(url, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1, $2)', [...TEMPLATE_LOCK]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount === 0) {
        await admin.query(`CREATE DATABASE ${template}`);
        const tpl = new PgPoolDb({ connectionString: urlFor(url, template), max: 2 });
        try {
          await migrate(tpl);
        } catch (err) {
          await tpl.close();
          await admin.query(`DROP DATABASE ${template}`);
          throw err;
        }
        await tpl.close();
      }
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1, $2)', [...TEMPLATE_LOCK]);
    }
  });
  const db = new PgPoolDb({ connectionString: urlFor(url, name) });
  await migrate(db);
  urls.set(db, urlFor(url, name));
  const close = db.close.bind(db);
  let dropped: Promise<void> | null = null;
  db.close = () => {
    dropped ??= (async () => {
      await close();
      await withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    })();
    return dropped;
  };
  return db;
}

/**
 * Runs `first` in a transaction on a connection of its own to the PostgreSQL database at `url`
 * and, while it is open, `second` on another connection (which may wait for the first's locks);
 * commits the first after `holdMs` (300), then awaits the second, which commits on its own. For
 * tests of what triggers keep when two writers meet.
 */
export async function raceOnTwoConnections(
  url: string,
  first: string,
  second: string,
  holdMs = 300,
): Promise<void> {
  const a = new pg.Client({ connectionString: url });
  const b = new pg.Client({ connectionString: url });
  await a.connect();
  await b.connect();
  try {
    await a.query('BEGIN');
    await a.query(first);
    const waiting = b.query(second);
    await new Promise((r) => setTimeout(r, holdMs));
    await a.query('COMMIT');
    await waiting;
  } finally {
    await a.end();
    await b.end();
  }
}
