/**
 * `Db` over a real PostgreSQL server (DATABASE_URL) through a node-postgres `Pool`.
 *
 * - Values are mapped exactly as the embedded PGlite maps them (see ./types): int2/int4/int8/oid
 *   and float → number (int8 beyond ±2^53 → bigint, as PGlite), numeric → string, date → Date at
 *   00:00 UTC, timestamp/timestamptz → Date (a timestamp without zone is read as UTC), json/jsonb →
 *   parsed, bool → boolean, interval → its text; arrays of these element-wise. The parsers live on
 *   this pool's own `types`, so no other node-postgres user in the process is affected.
 * - Every pool connection starts with the same session settings (SESSION_OPTIONS: the planner
 *   setting of ./index, TimeZone UTC, DateStyle ISO): they are sent in the start-up packet, so a
 *   connection never runs a statement without them.
 * - `transaction` checks one connection out for BEGIN … COMMIT/ROLLBACK; a connection whose
 *   ROLLBACK failed is destroyed instead of returned to the pool.
 * - Statement time-outs follow the workload of the call (./workload): every connection starts
 *   with the 'request' time-out and idle_in_transaction_session_timeout in its start-up packet
 *   (free), and the pool remembers each connection's current statement_timeout. A transaction
 *   under another workload sends `SET LOCAL statement_timeout` in the same round trip as its
 *   BEGIN; a single statement under another workload first sets the connection's session value
 *   (one round trip, only when it differs from what that connection last ran with). A statement
 *   the time-out cancels rejects with SQLSTATE 57014, which server/app.ts answers as 503
 *   db_timeout.
 * - `listen` uses one dedicated connection per Db (not from the pool) that re-connects with back-off
 *   and re-issues every LISTEN after the server restarts or the connection drops; several listeners
 *   may share a channel.
 * - After `close`, every call rejects with DatabaseClosedError ("The database is closed"), which
 *   server/app.ts answers as 503 db_unavailable.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { Db, NotifyListener, Results, TransactionOptions, Tx } from './types';
import { setLocalSql } from './settings';
import {
  currentDbWorkload,
  DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUTS,
  statementTimeoutMs,
  type StatementTimeouts,
} from './workload';

/** Thrown by every call on a closed PgPoolDb. */
export class DatabaseClosedError extends Error {
  constructor() {
    super('The database is closed');
    this.name = 'DatabaseClosedError';
  }
}

/** Options of PgPoolDb. */
export interface PgPoolOptions {
  /** postgres:// or postgresql:// URL (user, password, host, port, database, sslmode …). */
  connectionString: string;
  /** Most connections the pool opens (DATABASE_POOL_MAX, default 10). At least 2. */
  max?: number;
  /**
   * Session settings for every connection, as `-c name=value` start-up options (appended to any
   * `options` the URL carries). Default SESSION_OPTIONS.
   */
  sessionOptions?: string;
  /** Called with errors that belong to no request (an idle pool connection or the LISTEN connection dropping). */
  onBackgroundError?: (message: string, err: Error) => void;
  /** How long a request waits for a free connection or a new one, in ms (default 10 000). */
  connectionTimeoutMs?: number;
  /** Statement time-outs per workload in ms, 0 = none (default DEFAULT_STATEMENT_TIMEOUTS). */
  statementTimeouts?: StatementTimeouts;
  /**
   * idle_in_transaction_session_timeout of every connection in ms, 0 = none (default 60 000);
   * 'unbounded' transactions (migrations, seed) lift it for themselves.
   */
  idleInTransactionTimeoutMs?: number;
}

/**
 * The session settings of every PostgreSQL connection: random_page_cost 1.1 (the planner setting of
 * PLANNER_SETTINGS in ./index, for SSD/memory-resident data), jit off, TimeZone UTC (day boundaries
 * in SQL are UTC days, as on PGlite), DateStyle ISO (what the date parsers read).
 *
 * JIT compilation pays off on long analytical scans; every statement here reads an index range or
 * a roll-up in milliseconds, and a plan whose row estimate is far too high (two correlated
 * columns, e.g. the active members past their expiry) crosses jit_above_cost and spends ~70 ms
 * compiling a query that runs in 9.
 */
export const SESSION_OPTIONS =
  '-c random_page_cost=1.1 -c jit=off -c TimeZone=UTC -c DateStyle=ISO,MDY';

/** Type OIDs (pg_type.oid) whose parsers differ from node-postgres' defaults. */
const OID = {
  int8: 20,
  int8Array: 1016,
  numericArray: 1231,
  date: 1082,
  dateArray: 1182,
  timestamp: 1114,
  timestampArray: 1115,
  timestamptz: 1184,
  timestamptzArray: 1185,
  interval: 1186,
  intervalArray: 1187,
} as const;

function parseInt8(text: string): number | bigint {
  const n = BigInt(text);
  return n < BigInt(Number.MIN_SAFE_INTEGER) || n > BigInt(Number.MAX_SAFE_INTEGER) ? n : Number(n);
}

/** 'YYYY-MM-DD[ HH:MM:SS[.ffffff][±HH[:MM[:SS]]]]' (DateStyle ISO) → Date; no zone = UTC; ±infinity → ±Infinity (as PGlite). */
function parseTimestamp(text: string): Date | number {
  if (text === 'infinity') return Infinity;
  if (text === '-infinity') return -Infinity;
  const m =
    /^(\d{4,})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d)(\.\d+)?)?(?:([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?)?( BC)?$/.exec(
      text,
    );
  if (!m) return new Date(text);
  let year = Number(m[1]);
  if (m[12]) year = 1 - year;
  const ms = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  let t = Date.UTC(
    year,
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    ms,
  );
  if (year >= 0 && year < 100) {
    // Date.UTC maps years 0–99 to 1900–1999.
    const d = new Date(t);
    d.setUTCFullYear(year);
    t = d.getTime();
  }
  if (m[8]) {
    const offsetS =
      (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)) *
      (m[8] === '-' ? -1 : 1);
    t -= offsetS * 1000;
  }
  return new Date(t);
}

/** pg-types' array parser (its typings describe an older shape than the module exports). */
const arrayParser = pg.types.arrayParser as unknown as {
  create(source: string, transform: (entry: string) => unknown): { parse(): unknown[] };
};

/** The pool's own type parsers (PGlite's value mapping); the process-wide pg.types are untouched. */
export function pgliteCompatibleTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  const array =
    <T>(parse: (s: string) => T) =>
    (text: string) =>
      arrayParser.create(text, parse).parse();
  const same = (s: string) => s;
  types.setTypeParser(OID.int8, parseInt8);
  types.setTypeParser(OID.int8Array, array(parseInt8));
  types.setTypeParser(OID.numericArray, array(same));
  for (const oid of [OID.date, OID.timestamp, OID.timestamptz]) {
    types.setTypeParser(oid, parseTimestamp);
  }
  for (const oid of [OID.dateArray, OID.timestampArray, OID.timestamptzArray]) {
    types.setTypeParser(oid, array(parseTimestamp));
  }
  types.setTypeParser(OID.interval, same);
  types.setTypeParser(OID.intervalArray, array(same));
  return types;
}

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

function toResults<T>(r: pg.QueryResult): Results<T> {
  const affectedRows = COUNTED_COMMANDS.has(r.command) ? (r.rowCount ?? 0) : 0;
  return { rows: r.rows as T[], affectedRows };
}

/** `connectionString` with its own `options` query parameter merged after `extra`. */
function withSessionOptions(connectionString: string, extra: string): pg.PoolConfig {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString, options: extra };
  }
  const own = url.searchParams.get('options');
  url.searchParams.delete('options');
  return { connectionString: url.toString(), options: own ? `${extra} ${own}` : extra };
}

/** Quotes a PostgreSQL identifier (a LISTEN channel). */
function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `Db` over a node-postgres pool: several connections, so statements and transactions run in parallel. */
export class PgPoolDb implements Db {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  /** Statement time-outs per workload, in ms (0 = none). */
  readonly statementTimeouts: StatementTimeouts;
  private closed = false;
  /** Each pooled connection's session statement_timeout in ms (absent = the start-up value, requestMs). */
  private readonly sessionTimeouts = new WeakMap<pg.PoolClient, number>();
  private readonly clientConfig: pg.ClientConfig;
  private readonly onBackgroundError: (message: string, err: Error) => void;
  /** LISTEN state: the channels and their listeners, the dedicated connection (or its connecting promise). */
  private readonly channels = new Map<string, Set<NotifyListener>>();
  private listenClient: pg.Client | null = null;
  private listenConnecting: Promise<pg.Client> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelayMs = 100;

  constructor(options: PgPoolOptions) {
    const types = pgliteCompatibleTypes();
    this.statementTimeouts = { ...(options.statementTimeouts ?? DEFAULT_STATEMENT_TIMEOUTS) };
    const idleMs = options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS;
    const timeouts = `-c statement_timeout=${this.statementTimeouts.requestMs} -c idle_in_transaction_session_timeout=${idleMs}`;
    this.clientConfig = {
      ...withSessionOptions(
        options.connectionString,
        `${options.sessionOptions ?? SESSION_OPTIONS} ${timeouts}`,
      ),
      types,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    };
    this.onBackgroundError = options.onBackgroundError ?? (() => undefined);
    this.pool = new pg.Pool({ ...this.clientConfig, max: Math.max(2, options.max ?? 10) });
    // An idle connection that the server drops emits here; without a handler it would crash the process.
    this.pool.on('error', (err) => this.onBackgroundError('idle database connection failed', err));
  }

  private open(): void {
    if (this.closed) throw new DatabaseClosedError();
  }

  /** The statement time-out in ms of the running call's workload (0 = none). */
  private wantedTimeoutMs(): number {
    return statementTimeoutMs(currentDbWorkload(), this.statementTimeouts);
  }

  /**
   * A pool connection whose session statement_timeout is the running workload's: a `SET` only
   * when the connection last ran with another value. Rejects as pool.connect does (a checkout
   * time-out: "timeout exceeded when trying to connect").
   */
  private async checkout(): Promise<pg.PoolClient> {
    const client = await this.pool.connect();
    const wanted = this.wantedTimeoutMs();
    const had = this.sessionTimeouts.get(client) ?? this.statementTimeouts.requestMs;
    if (had !== wanted) {
      try {
        await client.query(`SET statement_timeout = ${wanted}`);
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      this.sessionTimeouts.set(client, wanted);
    }
    return client;
  }

  /** Runs one statement (or a parameterless batch) on a connection of the running workload. */
  private async run(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    this.open();
    const client = await this.checkout();
    try {
      const result = await client.query(sql, params);
      client.release();
      return result;
    } catch (err) {
      // As pool.query does: a connection whose statement failed is closed, not reused (after an
      // error inside a batch of statements it may be left in a transaction).
      client.release(err as Error);
      throw err;
    }
  }

  async query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Results<T>> {
    return toResults<T>(await this.run(sql, params));
  }

  async exec(sql: string): Promise<void> {
    await this.run(sql);
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    this.open();
    const settings = setLocalSql(options.settings);
    const workload = currentDbWorkload();
    const wanted = this.wantedTimeoutMs();
    const client = await this.pool.connect();
    const had = this.sessionTimeouts.get(client) ?? this.statementTimeouts.requestMs;
    // Sent with BEGIN as one simple query: the workload's limits cost no extra round trip, and
    // SET LOCAL ends with the transaction, so the connection's session value stays as recorded.
    let begin = 'BEGIN';
    if (had !== wanted) begin += `; SET LOCAL statement_timeout = ${wanted}`;
    if (workload === 'unbounded') begin += '; SET LOCAL idle_in_transaction_session_timeout = 0';
    if (settings !== '') begin += `; ${settings}`;
    let finished = false;
    const live = () => {
      if (finished) throw new Error('The transaction has already finished');
    };
    const tx: Tx = {
      query: async <R>(sql: string, params?: unknown[]) => {
        live();
        return toResults<R>(await client.query(sql, params));
      },
      exec: async (sql: string) => {
        live();
        await client.query(sql);
      },
      copyFrom: async (table: string, columns: string, data: string) => {
        live();
        if (data === '') return;
        await pipeline(
          Readable.from([data]),
          client.query(copyFromStdin(`COPY ${table} (${columns}) FROM STDIN WITH (FORMAT text)`)),
        );
      },
    };
    let destroy = false;
    try {
      await client.query(begin);
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        destroy = true; // the connection is broken or mid-protocol: do not hand it out again
      }
      throw err;
    } finally {
      finished = true;
      client.release(destroy);
    }
  }

  /**
   * Runs `fn` while this process holds the session-level advisory lock `key` (two int4) on one
   * pool connection, waiting for other holders (other server instances) first; `fn` itself runs
   * on the other pool connections. Used around migrations at start-up.
   */
  async withSessionLock<T>(key: readonly [number, number], fn: () => Promise<T>): Promise<T> {
    this.open();
    const client = await this.checkout();
    let destroy = false;
    try {
      await client.query('SELECT pg_advisory_lock($1, $2)', [key[0], key[1]]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, $2)', [key[0], key[1]]).catch(() => {
          destroy = true; // ending the connection releases the lock
        });
      }
    } finally {
      client.release(destroy);
    }
  }

  async listen(channel: string, onNotify: NotifyListener): Promise<() => Promise<void>> {
    this.open();
    let set = this.channels.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    // A distinct wrapper per call, so the same function subscribed twice unsubscribes once each.
    const listener: NotifyListener = (payload) => onNotify(payload);
    set.add(listener);
    try {
      const client = await this.listenConnection();
      if (first) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      set.delete(listener);
      if (set.size === 0) this.channels.delete(channel);
      throw err;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.channels.delete(channel);
      if (this.listenClient && !this.closed) {
        await this.listenClient.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      }
    };
  }

  /** The connected LISTEN connection, connecting (and LISTENing to every channel) when needed. */
  private listenConnection(): Promise<pg.Client> {
    if (this.listenClient) return Promise.resolve(this.listenClient);
    this.listenConnecting ??= (async () => {
      const client = new pg.Client(this.clientConfig);
      client.on('notification', (msg) => {
        const listeners = this.channels.get(msg.channel);
        if (!listeners) return;
        for (const l of [...listeners]) {
          try {
            l(msg.payload ?? '');
          } catch (err) {
            this.onBackgroundError('a NOTIFY listener threw', err as Error);
          }
        }
      });
      client.on('error', (err) => {
        this.onBackgroundError('LISTEN connection failed', err);
        this.dropListenClient(client);
      });
      client.on('end', () => this.dropListenClient(client));
      try {
        await client.connect();
        for (const channel of this.channels.keys()) {
          await client.query(`LISTEN ${quoteIdent(channel)}`);
        }
      } catch (err) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
        throw err;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        throw new DatabaseClosedError();
      }
      this.listenClient = client;
      this.reconnectDelayMs = 100;
      return client;
    })().finally(() => {
      this.listenConnecting = null;
    });
    return this.listenConnecting;
  }

  /** Forgets a dropped LISTEN connection and, while someone listens, reconnects with back-off (100 ms … 10 s). */
  private dropListenClient(client: pg.Client): void {
    if (this.listenClient !== client) return;
    this.listenClient = null;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.channels.size === 0 || this.reconnectTimer) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, 10_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listenConnection().catch((err: Error) => {
        this.onBackgroundError('LISTEN reconnect failed', err);
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.channels.clear();
    const pending = this.listenConnecting;
    if (pending) await pending.catch(() => undefined);
    const listen = this.listenClient;
    this.listenClient = null;
    if (listen) {
      listen.removeAllListeners('end');
      await listen.end().catch(() => undefined);
    }
    await this.pool.end();
  }
}
