/**
 * Rows of the `logs` table (the Logs screen, specification §2 Logs) written as part of a change:
 * access actions, webhook deliveries, refreshes, expirations and forum errors log inside the
 * transaction that makes the change, so a row exists exactly when the change committed. Request
 * and sign-in events, which need no transaction, go through server/logging.ts instead.
 */
import type { Queryable } from './db/types';

/** Inserts one `logs` row through `db` (a transaction or the database); context is stored as JSONB. */
export async function insertLog(
  db: Queryable,
  ts: Date,
  level: 'info' | 'warn' | 'error',
  msg: string,
  context: Record<string, unknown>,
): Promise<void> {
  await db.query('INSERT INTO logs (ts, level, msg, context) VALUES ($1, $2, $3, $4)', [
    ts,
    level,
    msg,
    JSON.stringify(context),
  ]);
}
