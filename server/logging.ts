/**
 * Logging: the pino process logger, the per-request access log (method, path, status, ms), and
 * non-blocking writes of notable events (5xx errors, sign-ins, sign-outs) into the `logs` table
 * that the Logs screen reads (specification §2 Logs). Tokens and passwords are never logged.
 *
 * Log hygiene (issue 8): rows are queued in a bounded queue (dropped rows are counted), long
 * caller-controlled fields are truncated, and retention deletes rows older than LOG_RETENTION_DAYS
 * and beyond LOG_MAX_ROWS.
 */
import type { Db } from './db/types';
import type { MiddlewareHandler } from 'hono';
import { pino, type Logger } from 'pino';
import type { AppDeps } from './context';

/** Log levels of the `logs` table (§9). */
export type DbLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Creates the process logger (JSON lines on stdout) at `level` (pino level or 'silent'). */
export function createLogger(level = 'info'): Logger {
  return pino({
    level,
    base: { service: 'mg-admin-api' },
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
  });
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
 * (default 30) and LOG_MAX_ROWS (default 1 000 000) → stop(). Failures are logged, never thrown.
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

/** Access-log middleware: one pino line per request with method, path (no query), status and ms. */
export function requestLogger(log: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    const line = { method: c.req.method, path: c.req.path, status, ms };
    if (status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  };
}
