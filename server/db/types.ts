/**
 * The database seam of the reference server. Every route, job and test talks to `Db` (and to the
 * `Tx` handed to `Db.transaction`), never to a driver, so the same code runs on the embedded
 * PGlite (DATA_DIR) and on a real PostgreSQL (DATABASE_URL, node-postgres pool).
 *
 * Value mapping is the same for both drivers: int2/int4/int8 and float → number, numeric → string,
 * timestamptz/timestamp/date → Date (dates at 00:00 UTC), json/jsonb → parsed value, bool → boolean.
 */

/** The rows of one statement; `affectedRows` counts the rows an INSERT/UPDATE/DELETE touched. */
export interface Results<T> {
  rows: T[];
  affectedRows?: number;
}

/** Something that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one parameterised statement ($1, $2, …) → its rows. Rejects on any SQL error. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>>;
  /** Runs one or more statements without parameters (migrations, TRUNCATE, SET). */
  exec(sql: string): Promise<void>;
}

/** An open transaction: everything through it commits together or not at all. */
export interface Tx extends Queryable {
  /**
   * Bulk-loads `data` (PostgreSQL COPY text format: tab-separated, newline-terminated lines,
   * NULL as \N) into `table (columns)`, e.g. copyFrom('customers', 'id, email', lines).
   */
  copyFrom(table: string, columns: string, data: string): Promise<void>;
}

/** Callback of Db.listen: the NOTIFY payload (a string, '' when none). */
export type NotifyListener = (payload: string) => void;

/** Options of Db.transaction. */
export interface TransactionOptions {
  /**
   * Settings of this transaction alone, as `SET LOCAL name = 'value'` (e.g. a planner switch,
   * `{ enable_indexonlyscan: 'off' }`), applied before `fn` runs; on PostgreSQL they go with
   * BEGIN in one round trip. Names and values come from code, never from a request: a name must
   * match /^[a-z_]+$/ and a value /^[A-Za-z0-9_.]+$/, else the call throws before BEGIN
   * (server/db/settings.ts).
   */
  settings?: Readonly<Record<string, string>>;
}

/** A database connection (PGlite) or pool (PostgreSQL). */
export interface Db extends Queryable {
  /** Which engine answers: 'pglite' (embedded, one connection) or 'postgres' (a pool). */
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back and rethrows when it
   * rejects. `options.settings` hold for this transaction alone (TransactionOptions).
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Subscribes to `LISTEN channel`; every `NOTIFY channel, payload` (from any connection or
   * server instance over the same database) calls `onNotify`. Resolves to an unsubscribe function.
   */
  listen(channel: string, onNotify: NotifyListener): Promise<() => Promise<void>>;
  /** Closes the connection or pool; later calls reject with an error whose message says the database is closed. */
  close(): Promise<void>;
}
