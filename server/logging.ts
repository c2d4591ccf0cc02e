/**
 * Logging: the pino process logger, the per-request access log (method, path, status, ms), and
 * non-blocking writes of notable events (5xx errors, sign-ins, sign-outs) into the `logs` table
 * that the Logs screen reads (specification §2 Logs). Tokens and passwords are never logged.
 */
import type { PGlite } from '@electric-sql/pglite';
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

const pending = new WeakMap<PGlite, Set<Promise<void>>>();

/**
 * Appends a row to the `logs` table without blocking the caller: the insert runs in the
 * background; a failure is reported on the process logger and never thrown. `context` is JSON.
 */
export function writeDbLog(
  deps: Pick<AppDeps, 'db' | 'log' | 'now'>,
  level: DbLogLevel,
  msg: string,
  context: Record<string, unknown> | null = null,
): void {
  let set = pending.get(deps.db);
  if (!set) {
    set = new Set();
    pending.set(deps.db, set);
  }
  const tracked = set;
  const job: Promise<void> = deps.db
    .query('INSERT INTO logs (ts, level, msg, context) VALUES ($1, $2, $3, $4)', [
      deps.now().toISOString(),
      level,
      msg,
      context == null ? null : JSON.stringify(context),
    ])
    .then(
      () => undefined,
      (err: unknown) => {
        deps.log.warn(
          { err: err instanceof Error ? err.message : String(err), msg },
          'could not write to the logs table',
        );
      },
    )
    .finally(() => tracked.delete(job));
  tracked.add(job);
}

/** Resolves once every background `logs` insert started so far on `db` has settled (tests, shutdown). */
export async function flushDbLogs(db: PGlite): Promise<void> {
  const set = pending.get(db);
  if (set && set.size > 0) await Promise.allSettled([...set]);
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
