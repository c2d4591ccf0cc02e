/**
 * Statement time-outs by workload. One slow statement must not hold a pool connection for
 * minutes, yet an aggregate over a year of data, a maintenance run or the seed legitimately runs
 * far longer than a list page. So every database call runs under a workload, and PgPoolDb gives
 * the statement the time-out of that workload:
 *
 * - 'request': lists, the customer page, search, actions, sign-in, webhooks (short);
 * - 'metrics': the aggregates of metrics, revenue and cohorts, ISR figures, /stats and /status
 *   (longer);
 * - 'job': expiration and reconciliation runs, and every call made outside a request
 *   (schedulers, the outbox worker, retention jobs);
 * - 'unbounded': migrations and the demo seed (no statement or idle-in-transaction time-out).
 *
 * The workload travels with the call through AsyncLocalStorage rather than through a second Db
 * object per workload: the caches, LISTEN subscriptions and worker kicks keyed by `deps.db` stay
 * one per database, and no route module has to choose a Db for its time-out. The HTTP layer sets
 * the workload of each request (server/http/dbWorkload.ts); PGlite ignores it (it has no time-outs).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What a database call belongs to; it picks the statement time-out (see the module doc). */
export type DbWorkload = 'request' | 'metrics' | 'job' | 'unbounded';

/** Statement time-outs in ms per workload ('unbounded' has none); 0 = no time-out. */
export interface StatementTimeouts {
  /** DATABASE_REQUEST_TIMEOUT_MS (default 5 000). */
  requestMs: number;
  /** DATABASE_METRICS_TIMEOUT_MS (default 30 000). */
  metricsMs: number;
  /** DATABASE_JOB_TIMEOUT_MS (default 600 000). */
  jobMs: number;
}

/** Default statement time-outs: 5 s for requests, 30 s for metrics, 10 min for jobs. */
export const DEFAULT_STATEMENT_TIMEOUTS: Readonly<StatementTimeouts> = {
  requestMs: 5_000,
  metricsMs: 30_000,
  jobMs: 600_000,
};

/**
 * Default idle_in_transaction_session_timeout in ms (DATABASE_IDLE_TX_TIMEOUT_MS): a session left
 * inside an open transaction this long is ended by the server, releasing its locks.
 */
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

const current = new AsyncLocalStorage<DbWorkload>();

/** Runs `fn` (and every call it starts, awaited or not) under `workload` → fn's result. */
export function withDbWorkload<T>(workload: DbWorkload, fn: () => T): T {
  return current.run(workload, fn);
}

/** The workload of the running call: the innermost withDbWorkload, else 'job'. */
export function currentDbWorkload(): DbWorkload {
  return current.getStore() ?? 'job';
}

/** The statement time-out in ms of `workload` under `timeouts` (0 = none). */
export function statementTimeoutMs(workload: DbWorkload, timeouts: StatementTimeouts): number {
  switch (workload) {
    case 'request':
      return timeouts.requestMs;
    case 'metrics':
      return timeouts.metricsMs;
    case 'job':
      return timeouts.jobMs;
    case 'unbounded':
      return 0;
  }
}
