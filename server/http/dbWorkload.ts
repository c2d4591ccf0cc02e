/**
 * Which statement time-out each HTTP request's database calls run under (server/db/workload.ts):
 * one table of API paths, so a route keeps its time-out wherever its code lives, and every path not
 * in it is a 'request' (lists, the customer page, search, actions, sign-in, webhooks).
 */
import type { MiddlewareHandler } from 'hono';
import { withDbWorkload, type DbWorkload } from '../db/workload';

/** API paths (under the API prefix) outside the 'request' workload; a trailing '/' matches below it. */
const WORKLOADS: readonly (readonly [prefix: string, workload: DbWorkload])[] = [
  // Aggregates: whole-period sums and roll-ups, legitimately longer than a page.
  ['/stats', 'metrics'],
  ['/status', 'metrics'],
  ['/metrics/', 'metrics'],
  ['/isr-metrics/', 'metrics'],
  ['/maintenance/diag', 'metrics'],
  // Maintenance runs: every due member, or every subscription a provider lists.
  ['/maintenance/run-expiration', 'job'],
  ['/maintenance/reconcile', 'job'],
  ['/subscriptions/refresh', 'job'],
];

/** The workload of API path `path` (relative to the API prefix, e.g. '/metrics/overview'). */
export function apiPathWorkload(path: string): DbWorkload {
  for (const [prefix, workload] of WORKLOADS) {
    if (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix) return workload;
  }
  return 'request';
}

/**
 * Middleware running the rest of the request under its workload: apiPathWorkload of the path
 * below `apiPrefix`, and 'request' for anything else (webhooks, the console).
 */
export function dbWorkload(apiPrefix: string): MiddlewareHandler {
  return (c, next) => {
    const path = c.req.path;
    const below = path.startsWith(`${apiPrefix}/`) ? path.slice(apiPrefix.length) : null;
    return withDbWorkload(below == null ? 'request' : apiPathWorkload(below), next);
  };
}
