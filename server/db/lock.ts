/**
 * Run-once locks that hold across server instances: a job that must not run
 * twice at once "per database" takes one of these, not an in-process flag.
 *
 * - PostgreSQL (a pool, possibly several instances): a transaction-scoped advisory lock
 *   (pg_try_advisory_xact_lock) taken on one pool connection whose transaction stays open while
 *   `fn` runs on the other connections; the lock ends with that transaction, also when the
 *   process dies (the server ends the connection). Needs a pool of at least 2 connections.
 * - PGlite (one connection, one process by construction): an in-process set per Db, since a
 *   transaction held open would block `fn`'s own statements.
 */
import type { Db } from './types';

/** An advisory lock key: two int4 (pg_locks classid, objid). */
export type LockKey = readonly [number, number];

/** Lock of the real expiration run (server/maintenance/expirationJob.ts): 'mg' 3. */
export const EXPIRATION_RUN_LOCK: LockKey = [0x6d67, 3];

const held = new WeakMap<Db, Set<string>>();

/**
 * Runs `fn` when no holder of `key` (in any instance over the same database) runs; resolves to
 * {acquired:false} at once otherwise. `fn`'s rejection is passed through (the lock is released).
 */
export async function tryExclusive<T>(
  db: Db,
  key: LockKey,
  fn: () => Promise<T>,
): Promise<{ acquired: true; value: T } | { acquired: false }> {
  if (db.kind === 'postgres') {
    return db.transaction(async (tx) => {
      const r = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS ok', [
        key[0],
        key[1],
      ]);
      if (!r.rows[0]?.ok) return { acquired: false as const };
      return { acquired: true as const, value: await fn() };
    });
  }
  let set = held.get(db);
  if (!set) {
    set = new Set();
    held.set(db, set);
  }
  const id = key.join(':');
  if (set.has(id)) return { acquired: false };
  set.add(id);
  try {
    return { acquired: true, value: await fn() };
  } finally {
    set.delete(id);
  }
}

/** Whether someone (any instance) holds `key` now. */
export async function isLockHeld(db: Db, key: LockKey): Promise<boolean> {
  if (db.kind === 'postgres') {
    const r = await db.query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
      [key[0], key[1]],
    );
    return r.rows[0]?.held === true;
  }
  return held.get(db)?.has(key.join(':')) ?? false;
}
