/**
 * Counters split into one slot per database connection: the per-level log counts (migrations 004
 * and 025) and the row counts of members and subscriptions (003 and 026). They stay exact through
 * inserts, deletes, updates and a truncate written through several connections on PostgreSQL (one
 * slot each), and a row counted inside an open transaction does not make another connection's
 * row wait for it. On PGlite (one connection) only the counts are checked.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgPoolDb } from './postgres';
import type { Db, Tx } from './types';
import { rowCountSql } from './list';
import { freshDb, resetDb } from '../testing/app';
import { testDatabaseUrl } from '../testing/database';
import { insertLog } from '../logRows';

let db: Db;
/** A second pool on the same database (another server instance), or the same Db on PGlite. */
let other: Db;

beforeAll(async () => {
  db = await freshDb();
  const url = testDatabaseUrl(db);
  other = url ? new PgPoolDb({ connectionString: url, max: 4 }) : db;
  await resetDb(db);
}, 60_000);

afterAll(async () => {
  if (other !== db) await other.close();
  await db?.close();
});

/** { level: count } from the slots, and from the rows themselves. */
async function counts(): Promise<{ kept: Record<string, number>; actual: Record<string, number> }> {
  const kept = await db.query<{ level: string; n: number }>(
    `SELECT level, sum(n)::int AS n FROM logs_level_counts GROUP BY level HAVING sum(n) <> 0 ORDER BY level`,
  );
  const actual = await db.query<{ level: string; n: number }>(
    `SELECT level, count(*)::int AS n FROM logs GROUP BY level ORDER BY level`,
  );
  const map = (rows: Array<{ level: string; n: number }>) =>
    Object.fromEntries(rows.map((r) => [r.level, r.n]));
  return { kept: map(kept.rows), actual: map(actual.rows) };
}

const at = new Date('2026-11-22T12:00:00Z');
const LEVELS = ['info', 'warn', 'error'] as const;

describe('log counts per level, in slots', () => {
  it('stay exact through inserts from several connections, deletes, updates and a truncate', async () => {
    // Inserts from both pools, many at once (several connections each on PostgreSQL).
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        insertLog(i % 2 ? db : other, at, LEVELS[i % 3]!, `m${i}`, { i }),
      ),
    );
    await db.query(
      `INSERT INTO logs (ts, level, msg) SELECT $1, 'info', 'bulk ' || g FROM generate_series(1, 10) g`,
      [at],
    );
    let c = await counts();
    expect(c.actual).toEqual({ error: 8, info: 18, warn: 8 });
    expect(c.kept).toEqual(c.actual);

    // Deleted and re-levelled through the other pool: its slots may go below zero, the sums may not.
    await other.query(`DELETE FROM logs WHERE msg LIKE 'bulk %' AND msg <> 'bulk 1'`);
    await other.query(
      `UPDATE logs SET level = 'error' WHERE level = 'warn' AND msg IN ('m1', 'm7')`,
    );
    c = await counts();
    expect(c.actual).toEqual({ error: 10, info: 9, warn: 6 });
    expect(c.kept).toEqual(c.actual);

    await db.exec('TRUNCATE logs');
    c = await counts();
    expect(c.kept).toEqual({});
    expect(c.actual).toEqual({});
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'let a log row commit while another connection holds its own log row in an open transaction',
    async () => {
      await expectNoWait(
        (tx) => insertLog(tx, at, 'info', 'held', {}),
        `INSERT INTO logs (ts, level, msg, context) VALUES ('${at.toISOString()}', 'info', 'not waiting', '{}')`,
      );
      const c = await counts();
      expect(c.kept).toEqual(c.actual);
      expect(c.actual.info).toBe(2);
    },
  );
});

describe('row counts of members, in slots', () => {
  const memberCounts = async () =>
    (
      await db.query<{ kept: number; actual: number }>(
        `SELECT ${rowCountSql('members')} AS kept, (SELECT count(*) FROM members)::int AS actual`,
      )
    ).rows[0]!;
  const customer = async (email: string) =>
    (
      await db.query<{ id: number }>(`INSERT INTO customers (email) VALUES ($1) RETURNING id`, [
        email,
      ])
    ).rows[0]!.id;

  it('stay exact through inserts from several connections, deletes through another and a truncate', async () => {
    await resetDb(db);
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) => customer(`c${i}@example.com`)),
    );
    await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? db : other).query(
          `INSERT INTO members (customer_id, mg_status) VALUES ($1, 'active')`,
          [id],
        ),
      ),
    );
    expect(await memberCounts()).toEqual({ kept: 12, actual: 12 });
    await other.query(`DELETE FROM members WHERE customer_id = ANY($1::bigint[])`, [
      ids.slice(0, 5),
    ]);
    expect(await memberCounts()).toEqual({ kept: 7, actual: 7 });
    await db.exec('TRUNCATE members CASCADE');
    expect(await memberCounts()).toEqual({ kept: 0, actual: 0 });
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'let a new member commit while another connection holds its own new member in an open transaction',
    async () => {
      const held = await customer('held@example.com');
      const free = await customer('free@example.com');
      await expectNoWait(
        (tx) =>
          tx.query(`INSERT INTO members (customer_id, mg_status) VALUES ($1, 'active')`, [held]),
        `INSERT INTO members (customer_id, mg_status) VALUES (${free}, 'active')`,
      );
      expect(await memberCounts()).toEqual({ kept: 2, actual: 2 });
    },
  );
});

/**
 * Runs `hold` in a transaction kept open while `sql` runs and commits on a connection of its own
 * whose slot differs from the holder's (one in 64 shares it; a new connection, a new backend pid,
 * is taken then). With one counter row, `sql` would wait for the holder: a lock time-out turns
 * that wait into an error instead of a hang.
 */
async function expectNoWait(hold: (tx: Tx) => Promise<unknown>, sql: string): Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: (slot: number) => void;
  const inside = new Promise<number>((r) => (entered = r));
  const holding = db.transaction(async (tx) => {
    await hold(tx);
    entered((await tx.query<{ s: number }>('SELECT counter_slot() AS s')).rows[0]!.s);
    await gate;
  });
  const heldSlot = await inside;
  try {
    let client: pg.Client | null = null;
    for (let attempt = 0; attempt < 10 && !client; attempt++) {
      const c = new pg.Client({ connectionString: testDatabaseUrl(db)! });
      await c.connect();
      const slot = (await c.query<{ s: number }>('SELECT counter_slot() AS s')).rows[0]!.s;
      if (slot !== heldSlot) client = c;
      else await c.end();
    }
    expect(client).not.toBeNull();
    try {
      await client!.query('BEGIN');
      await client!.query(`SET LOCAL lock_timeout = '2s'`);
      await client!.query(sql);
      await client!.query('COMMIT');
    } finally {
      await client!.end();
    }
  } finally {
    release();
    await holding;
  }
}
