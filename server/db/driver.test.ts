/**
 * The Db seam behaves the same on both drivers (server/db/types.ts): value mapping, affectedRows,
 * transactions, COPY, LISTEN/NOTIFY, close. Runs on PGlite, and on PostgreSQL (PgPoolDb) when
 * TEST_DATABASE_URL is set; the reconnect case only exists on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../testing/app';
import { vacuumAfter } from './index';
import { PgPoolDb } from './postgres';
import { testDatabaseUrl } from '../testing/database';
import type { Db } from './types';

let db: Db;

beforeAll(async () => {
  db = await freshDb();
  await db.exec(`CREATE TABLE driver_t (id int PRIMARY KEY, note text)`);
}, 120_000);

afterAll(async () => {
  await db.close();
});

/** Resolves with the first payload `db` hears on `channel` after `trigger` runs (rejects after 5 s). */
async function nextNotify(on: Db, channel: string, trigger: () => Promise<unknown>) {
  let stop: (() => Promise<void>) | null = null;
  const heard = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing heard on ${channel}`)), 5000);
    void on
      .listen(channel, (p) => {
        clearTimeout(timer);
        resolve(p);
      })
      .then(async (s) => {
        stop = s;
        await trigger();
      })
      .catch(reject);
  });
  try {
    return await heard;
  } finally {
    await (stop as (() => Promise<void>) | null)?.();
  }
}

describe(`Db value mapping`, () => {
  it('maps every column type as types.ts documents', async () => {
    const r = await db.query<Record<string, unknown>>(
      `SELECT 1::int2 AS i2, 2::int4 AS i4, 3::int8 AS i8, 9007199254740993::int8 AS big,
              count(*) AS n, 1.5::float8 AS f, 12.30::numeric AS num, true AS b, 'x'::text AS t,
              '2026-11-20'::date AS d, '2026-11-20 12:34:56.789+00'::timestamptz AS tz,
              '2026-11-20 12:34:56'::timestamp AS ts, '{"a":[1,2]}'::jsonb AS j, '[1]'::json AS jj,
              NULL::int AS nil, ARRAY[1,2]::int8[] AS i8s, ARRAY['a','b'] AS texts,
              ARRAY['2026-01-02'::date] AS dates
         FROM (VALUES (1), (2)) v(x)`,
    );
    const row = r.rows[0] ?? {};
    expect(row).toEqual({
      i2: 1,
      i4: 2,
      i8: 3,
      big: 9007199254740993n,
      n: 2,
      f: 1.5,
      num: '12.30',
      b: true,
      t: 'x',
      d: new Date('2026-11-20T00:00:00Z'),
      tz: new Date('2026-11-20T12:34:56.789Z'),
      ts: new Date('2026-11-20T12:34:56Z'),
      j: { a: [1, 2] },
      jj: [1],
      nil: null,
      i8s: [1, 2],
      texts: ['a', 'b'],
      dates: [new Date('2026-01-02T00:00:00Z')],
    });
  });

  it('reads and writes instants in UTC whatever the server time zone', async () => {
    const r = await db.query<{ day: Date; hour: number }>(
      `SELECT ($1::timestamptz)::date AS day, extract(hour FROM $1::timestamptz)::int AS hour`,
      [new Date('2026-11-20T23:30:00Z')],
    );
    expect(r.rows[0]).toEqual({ day: new Date('2026-11-20T00:00:00Z'), hour: 23 });
  });
});

describe('Db statements and transactions', () => {
  it('counts affected rows of INSERT, UPDATE and DELETE', async () => {
    const ins = await db.query(`INSERT INTO driver_t VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
    expect(ins.affectedRows).toBe(3);
    const upd = await db.query(`UPDATE driver_t SET note = 'z' WHERE id > $1`, [1]);
    expect(upd.affectedRows).toBe(2);
    const del = await db.query(`DELETE FROM driver_t WHERE id = 99`);
    expect(del.affectedRows).toBe(0);
    await db.exec('TRUNCATE driver_t');
  });

  it('commits a transaction as a whole, COPY included, and rolls back all of a failed one', async () => {
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO driver_t VALUES (10, 'ten')`);
      await tx.copyFrom('driver_t', 'id, note', '11\televen\n12\t\\N\n');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO driver_t VALUES (13, 'thirteen')`);
        await tx.copyFrom('driver_t', 'id, note', '14\tfourteen\n');
        await tx.query(`INSERT INTO driver_t VALUES (10, 'duplicate')`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const r = await db.query<{ id: number; note: string | null }>(
      'SELECT id, note FROM driver_t ORDER BY id',
    );
    expect(r.rows).toEqual([
      { id: 10, note: 'ten' },
      { id: 11, note: 'eleven' },
      { id: 12, note: null },
    ]);
  });

  it('keeps working after many failed transactions (connections go back to the pool clean)', async () => {
    for (let i = 0; i < 25; i++) {
      await expect(
        db.transaction(async (tx) => {
          await tx.query('SELECT 1/0');
        }),
      ).rejects.toThrow(/division by zero/);
    }
    const r = await db.query<{ ok: number }>('SELECT 1 AS ok');
    expect(r.rows).toEqual([{ ok: 1 }]);
  });

  it('applies a transaction’s settings inside it alone, and refuses anything but a setting', async () => {
    const show = (on: Pick<Db, 'query'>) =>
      on
        .query<{ a: string; b: string }>(
          `SELECT current_setting('enable_indexonlyscan') AS a, current_setting('work_mem') AS b`,
        )
        .then((r) => r.rows[0]);
    const before = await show(db);
    expect(before?.a).toBe('on');
    const inside = await db.transaction((tx) => show(tx), {
      settings: { enable_indexonlyscan: 'off', work_mem: '7MB' },
    });
    expect(inside).toEqual({ a: 'off', b: '7MB' });
    expect(await show(db)).toEqual(before);
    // A pool connection's next transaction starts from the session's values again.
    expect(await db.transaction((tx) => show(tx))).toEqual(before);
    const refused: Record<string, string>[] = [
      { 'enable_indexonlyscan = off; DROP TABLE driver_t; --': 'x' },
      { work_mem: "'1MB'; DROP TABLE driver_t" },
      { work_mem: '' },
    ];
    for (const settings of refused) {
      let ran = false;
      await expect(
        db.transaction(
          async () => {
            ran = true;
          },
          { settings },
        ),
      ).rejects.toThrow(/Not a transaction setting/);
      expect(ran).toBe(false);
    }
    expect((await db.query('SELECT count(*)::int AS n FROM driver_t')).rows).toHaveLength(1);
  });

  it('delivers NOTIFY at commit to every listener of the channel, none after unsubscribing', async () => {
    const heardA: string[] = [];
    const heardB: string[] = [];
    const stopA = await db.listen('driver_chan', (p) => heardA.push(p));
    const payload = await nextNotify(db, 'driver_chan', () =>
      db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('driver_chan', 'one')`);
      }),
    );
    expect(payload).toBe('one');
    const stopB = await db.listen('driver_chan', (p) => heardB.push(p));
    await stopA();
    await nextNotify(db, 'driver_chan', () => db.query(`SELECT pg_notify('driver_chan', 'two')`));
    await stopB();
    expect(heardA).toEqual(['one']);
    expect(heardB).toEqual(['two']);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PgPoolDb (PostgreSQL only)', () => {
  it('re-LISTENs after its LISTEN connection is dropped', async () => {
    const url = testDatabaseUrl(db);
    if (!url) throw new Error('expected a test database URL');
    const other = new PgPoolDb({ connectionString: url, max: 2 });
    try {
      const heard: string[] = [];
      await other.listen('driver_reconnect', (p) => heard.push(p));
      // Terminate the backend of other's LISTEN connection (the server restarting, a proxy dropping it).
      const killed = await db.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND query = 'LISTEN "driver_reconnect"'`,
      );
      expect(killed.rows).toEqual([{ ok: true }]);
      const deadline = Date.now() + 10_000;
      while (!heard.includes('back') && Date.now() < deadline) {
        await db.query(`SELECT pg_notify('driver_reconnect', 'back')`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(heard).toContain('back');
    } finally {
      await other.close();
    }
  });

  it('rejects every call after close with a "database is closed" error', async () => {
    const url = testDatabaseUrl(db);
    if (!url) throw new Error('expected a test database URL');
    const other = new PgPoolDb({ connectionString: url, max: 2 });
    await other.query('SELECT 1');
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/database is closed/);
    await expect(other.exec('SELECT 1')).rejects.toThrow(/database is closed/);
    await expect(other.transaction(async () => 1)).rejects.toThrow(/database is closed/);
    await expect(other.listen('x', () => undefined)).rejects.toThrow(/database is closed/);
  });
});

describe('vacuumAfter', () => {
  it("reads the tables of a migration's `-- vacuum after:` lines, and nothing else", () => {
    const sql = `-- vacuum after: revenue_movements
ALTER TABLE a ADD COLUMN b INT; -- vacuum after: not_a_line_start
-- vacuum after: spans, members_2
--  vacuum after: indented
-- vacuum after: bad-name`;
    expect(vacuumAfter(sql)).toEqual(['revenue_movements', 'spans', 'members_2']);
    expect(vacuumAfter('SELECT 1')).toEqual([]);
  });
});
