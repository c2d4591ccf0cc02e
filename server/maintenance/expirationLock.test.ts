/**
 * The real expiration run is unique per database, across server instances: the
 * lock is a database lock (server/db/lock.ts), so instance B is refused while instance A runs.
 * On PostgreSQL (TEST_DATABASE_URL) A and B are two pools over one database; on PGlite they share
 * the one Db, as two AppDeps in one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRATION_RUN_LOCK, isLockHeld, tryExclusive } from '../db/lock';
import { PgPoolDb } from '../db/postgres';
import { testDatabaseUrl } from '../testing/database';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { freshDb, resetDb, testDeps } from '../testing/app';
import { NOW, seedScenario } from '../testing/scenario';
import { expirationJobStatus, runExpirationJob } from './expirationJob';

let a: Db;
let b: Db;

beforeAll(async () => {
  a = await freshDb();
  const url = testDatabaseUrl(a);
  b = url ? new PgPoolDb({ connectionString: url, max: 3 }) : a;
  await resetDb(a);
  await seedScenario(a);
}, 120_000);

afterAll(async () => {
  if (b !== a) await b.close();
  await a?.close();
});

describe('expiration run lock across instances', () => {
  it('refuses a real run on B with 409 while A holds the run, and allows it afterwards', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const holding = tryExclusive(a, EXPIRATION_RUN_LOCK, async () => {
      entered();
      await gate;
      return 'a ran';
    });
    await inside;
    try {
      expect(await isLockHeld(b, EXPIRATION_RUN_LOCK)).toBe(true);
      const refused = await runExpirationJob(testDeps(b, NOW), { dryRun: false }).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 409, code: 'conflict' });
      expect((refused as Error).message).toMatch(/already running/);
      // B cannot take the lock itself either, and a dry run is never blocked.
      expect(await tryExclusive(b, EXPIRATION_RUN_LOCK, async () => 'b')).toEqual({
        acquired: false,
      });
      await expect(runExpirationJob(testDeps(b, NOW), { dryRun: true })).resolves.toMatchObject({
        dryRun: true,
      });
    } finally {
      release();
    }
    expect(await holding).toEqual({ acquired: true, value: 'a ran' });
    expect(await isLockHeld(b, EXPIRATION_RUN_LOCK)).toBe(false);
    const ran = await runExpirationJob(testDeps(b, NOW), { dryRun: false });
    expect(ran.dryRun).toBe(false);
    expect((await expirationJobStatus(a)).running).toBeNull();
  });

  it('releases the lock when the run fails', async () => {
    await expect(
      tryExclusive(a, EXPIRATION_RUN_LOCK, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await isLockHeld(b, EXPIRATION_RUN_LOCK)).toBe(false);
    expect(await tryExclusive(b, EXPIRATION_RUN_LOCK, async () => 1)).toEqual({
      acquired: true,
      value: 1,
    });
  });
});
