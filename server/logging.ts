/**
 * Logging: the pino process logger, the per-request access log (method, path, status, ms,
 * request id), and non-blocking writes of notable events (5xx errors, sign-ins, sign-outs) into
 * the `logs` table that the Logs screen reads (specification §2 Logs). Tokens and passwords are
 * never logged; an error is logged through serializeError, which keeps its stack but not the
 * customer data a failed query carries (parameters, quoted values, email addresses).
 *
 * Log hygiene: rows are queued in a bounded queue (dropped rows are counted), long
 * caller-controlled fields are truncated, and retention deletes rows older than LOG_RETENTION_DAYS
 * and beyond LOG_MAX_ROWS.
 */
import { DEFAULT_AUDIT_RETENTION_DAYS, purgeAudit } from './audit/audit';
import type { Db } from './db/types';
import type { Context, MiddlewareHandler } from 'hono';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { AppDeps } from './context';

/** Log levels of the `logs` table (§9). */
export type DbLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * An email address inside free text (a database message, a stack, a thrown sentence). Slashes
 * end it, so a file path through an npm scope ('node_modules/@scope/pkg') is not one.
 */
const EMAIL_IN_TEXT = /[^\s@"'`<>()[\]{},;:/\\]+@[^\s@"'`<>()[\]{},;:/\\]+/g;

/** `text` with every email address in it replaced by '[email]'. */
export function redactEmails(text: string): string {
  return text.replace(EMAIL_IN_TEXT, '[email]');
}

/** The SQLSTATE of a PostgreSQL error (PGlite's and node-postgres's carry `code` and `severity`), else undefined. */
function sqlState(err: object): string | undefined {
  const code = (err as { code?: unknown }).code;
  return 'severity' in err && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
    ? code
    : undefined;
}

/**
 * The class a log line names for `err`: 'DatabaseError' for a PostgreSQL error (both drivers name
 * theirs plain 'error'), else the error's own name (TypeError, RangeError, …).
 */
export function errorClass(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  if (sqlState(err)) return 'DatabaseError';
  return err.name || err.constructor.name || 'Error';
}

/**
 * The message of `err` safe to log: email addresses replaced, and for a PostgreSQL data exception
 * (SQLSTATE class 22, e.g. 'invalid input syntax for type integer: "…"'), which quotes the value
 * it refused, every quoted value replaced too.
 */
export function safeErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const quotesValues = err instanceof Error && sqlState(err)?.startsWith('22') === true;
  return redactEmails(quotesValues ? message.replace(/"[^"]*"/g, '"[redacted]"') : message);
}

/**
 * pino's `err` serializer: the error class, code, safe message (safeErrorMessage), the stack (its
 * message line made safe the same way), and for a database error its statement and the table,
 * column and constraint it names. Left out: the statement's parameters and the row values a
 * database error carries (`params`, `detail`, `where`, …), which hold customers' emails and names.
 */
export function serializeError(err: unknown): unknown {
  if (typeof err === 'string') return redactEmails(err);
  if (!(err instanceof Error)) return err;
  const message = safeErrorMessage(err);
  const out: Record<string, unknown> = { type: errorClass(err), message };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (err.stack) out.stack = redactEmails(err.stack.split(err.message).join(message));
  if (sqlState(err)) {
    const fields = err as unknown as Record<string, unknown>;
    if (typeof fields.query === 'string') out.query = redactEmails(fields.query.slice(0, 2000));
    for (const key of ['table', 'column', 'constraint', 'routine'] as const) {
      if (typeof fields[key] === 'string') out[key] = fields[key];
    }
    out.params = '[redacted]';
  }
  return out;
}

/** The id of the request (hono/request-id, X-Request-Id) that `c` serves, or undefined outside one. */
export function requestIdOf(c: Context): string | undefined {
  const id = (c.var as Record<string, unknown>).requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Creates the process logger (JSON lines on stdout, or on `destination`) at `level` (pino level or
 * 'silent'). Errors go through serializeError; tokens, passwords and cookies are redacted.
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'mg-admin-api' },
    serializers: { err: serializeError },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'authorization',
        '*.authorization',
        'cookie',
        '*.cookie',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Longest message kept in a `logs` row (characters); longer ones are cut with '…'. */
export const LOG_MSG_MAX = 300;
/** Longest string value kept inside a row's context (characters). */
export const LOG_VALUE_MAX = 256;
/** Largest context kept, as JSON text (characters); a larger one is replaced by a truncated preview. */
export const LOG_CONTEXT_MAX = 2048;
/** Rows waiting to be written at most; further rows are dropped and counted (the queue is bounded). */
export const LOG_QUEUE_MAX = 1000;
/** Rows written per INSERT. */
const LOG_BATCH = 200;

/** Cuts `text` to `max` characters, marking the cut with '…'. */
export function truncateText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A context made safe to store: strings cut to LOG_VALUE_MAX, at most 32 keys per object and 20
 * items per array, 4 levels deep; if its JSON is still longer than LOG_CONTEXT_MAX it becomes
 * `{truncated: true, preview}`. Caller-controlled values (paths, addresses) can therefore never
 * make a row large.
 */
export function boundContext(context: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return truncateText(value, LOG_VALUE_MAX);
    if (value === null || typeof value !== 'object') {
      return typeof value === 'number' || typeof value === 'boolean'
        ? value
        : value === undefined
          ? null
          : String(value);
    }
    if (depth >= 4) return '[nested]';
    if (Array.isArray(value)) return value.slice(0, 20).map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value).slice(0, 32))
      out[truncateText(k, 64)] = walk(v, depth + 1);
    return out;
  };
  const bounded = walk(context, 0) as Record<string, unknown>;
  const json = JSON.stringify(bounded);
  if (json.length <= LOG_CONTEXT_MAX) return bounded;
  // JSON escaping at most doubles the preview's length inside the stored object.
  return { truncated: true, preview: truncateText(json, LOG_CONTEXT_MAX / 2 - 32) };
}

/** Counters of one database's log writer (GET /maintenance/diag). */
export interface LogWriterStats {
  /** Rows waiting in the queue now. */
  queued: number;
  /** Rows written since start. */
  written: number;
  /** Rows refused because the queue was full, since start. */
  dropped: number;
  /** Rows whose insert failed (database error), since start. */
  failed: number;
}

interface QueuedRow {
  ts: string;
  level: DbLogLevel;
  msg: string;
  context: string | null;
}

interface Writer {
  queue: QueuedRow[];
  stats: LogWriterStats;
  draining: Promise<void> | null;
}

const writers = new WeakMap<Db, Writer>();

function writerFor(db: Db): Writer {
  let w = writers.get(db);
  if (!w) {
    w = { queue: [], stats: { queued: 0, written: 0, dropped: 0, failed: 0 }, draining: null };
    writers.set(db, w);
  }
  return w;
}

async function drain(deps: Pick<AppDeps, 'db' | 'log'>, w: Writer): Promise<void> {
  while (w.queue.length > 0) {
    const batch = w.queue.splice(0, LOG_BATCH);
    w.stats.queued = w.queue.length;
    try {
      await deps.db.query(
        `INSERT INTO logs (ts, level, msg, context)
         SELECT x.ts::timestamptz, x.level, x.msg, x.context::jsonb
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(ts, level, msg, context)`,
        [
          batch.map((r) => r.ts),
          batch.map((r) => r.level),
          batch.map((r) => r.msg),
          batch.map((r) => r.context),
        ],
      );
      w.stats.written += batch.length;
    } catch (err) {
      w.stats.failed += batch.length;
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), rows: batch.length },
        'could not write to the logs table',
      );
    }
  }
}

/**
 * Appends a row to the `logs` table without blocking the caller. Rows go through a bounded
 * in-memory queue (LOG_QUEUE_MAX) written in batches in the background; when the queue is full
 * the row is dropped and counted (`logWriterStats().dropped`), so a flood of requests can never
 * grow memory or stall the server. `msg` is cut to LOG_MSG_MAX characters and `context` bounded
 * by boundContext. A failure is reported on the process logger and never thrown.
 */
export function writeDbLog(
  deps: Pick<AppDeps, 'db' | 'log' | 'now'>,
  level: DbLogLevel,
  msg: string,
  context: Record<string, unknown> | null = null,
): void {
  const w = writerFor(deps.db);
  if (w.queue.length >= LOG_QUEUE_MAX) {
    w.stats.dropped++;
    return;
  }
  w.queue.push({
    ts: deps.now().toISOString(),
    level,
    msg: truncateText(msg, LOG_MSG_MAX),
    context: context == null ? null : JSON.stringify(boundContext(context)),
  });
  w.stats.queued = w.queue.length;
  kick(deps, w);
}

/** Starts draining `w` unless it already is; restarts when rows arrived as a drain finished. */
function kick(deps: Pick<AppDeps, 'db' | 'log'>, w: Writer): void {
  if (w.draining) return;
  w.draining = Promise.resolve()
    .then(() => drain(deps, w))
    .finally(() => {
      w.draining = null;
      if (w.queue.length > 0) kick(deps, w);
    });
}

/** The log writer's counters for `db` (all zero before the first write). */
export function logWriterStats(db: Db): LogWriterStats {
  return { ...writerFor(db).stats };
}

/** Resolves once every background `logs` insert queued so far on `db` has settled (tests, shutdown). */
export async function flushDbLogs(db: Db): Promise<void> {
  const w = writers.get(db);
  while (w?.draining) await w.draining;
}

/** What pruneLogs deleted. */
export interface PruneResult {
  /** Rows older than the retention. */
  expired: number;
  /** Rows beyond the row cap (oldest first). */
  overCap: number;
}

/**
 * Log retention: deletes rows older than `retentionDays` before `now`, then every row beyond the
 * newest `maxRows` (by ts, then id). Both deletes use the (ts, id) index of migration 004.
 */
export async function pruneLogs(
  db: Db,
  now: Date,
  retentionDays: number,
  maxRows: number,
): Promise<PruneResult> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const expired = await db.query('DELETE FROM logs WHERE ts < $1', [cutoff.toISOString()]);
  const capped = await db.query(
    'DELETE FROM logs WHERE (ts, id) <= (SELECT ts, id FROM logs ORDER BY ts DESC, id DESC OFFSET $1 LIMIT 1)',
    [maxRows],
  );
  return { expired: expired.affectedRows ?? 0, overCap: capped.affectedRows ?? 0 };
}

/** How often the server prunes the logs table (ms). */
export const LOG_PRUNE_INTERVAL_MS = 15 * 60_000;

/**
 * Runs pruneLogs now and every LOG_PRUNE_INTERVAL_MS with the config's LOG_RETENTION_DAYS
 * (default 30) and LOG_MAX_ROWS (default 1 000 000), and the audit purge with
 * AUDIT_RETENTION_DAYS (default 400) → stop(). Failures are logged, never thrown.
 */
export function startLogRetention(deps: AppDeps): { stop: () => void; ready: Promise<void> } {
  const run = async () => {
    try {
      const r = await pruneLogs(
        deps.db,
        deps.now(),
        deps.config.logRetentionDays ?? 30,
        deps.config.logMaxRows ?? 1_000_000,
      );
      if (r.expired + r.overCap > 0) deps.log.info(r, 'pruned the logs table');
      // The audit trail keeps its own, longer retention (AUDIT_RETENTION_DAYS, default 400).
      const audit = await purgeAudit(
        deps,
        deps.config.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
        deps.now(),
      );
      if (audit > 0) deps.log.info({ deleted: audit }, 'pruned the audit trail');
    } catch (err) {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not prune the logs table',
      );
    }
  };
  const ready = run();
  const timer = setInterval(() => void run(), LOG_PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), ready };
}

/** `path` with an invitation token replaced by '…': the token is a credential until it is used. */
export function redactPath(path: string): string {
  return path.replace(/\/invite\/[^/]+/, '/invite/…');
}

/** Access-log middleware: one pino line per request with method, path (no query, no invite token), status, ms and request id. */
export function requestLogger(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    const line = {
      method: c.req.method,
      path: redactPath(c.req.path),
      status,
      ms,
      request_id: requestIdOf(c),
    };
    // A 503 is a temporary refusal (a database time-out or outage), logged as a warning here; an
    // outage has its own error line from the error handler.
    if (status === 503) log.warn(line, 'request');
    else if (status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  };
}
