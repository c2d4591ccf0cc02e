/**
 * The Logs list (§2 Logs, §4, §7 GET /logs, §9): filters Level and Search, Rows 50/100/200
 * (default 50), the server's own order (latest first), auto-refresh every 15 s and one retry
 * 300 ms after an empty first answer. Pure.
 */
import type { ListSpec } from './list';
import { LOG_LEVELS } from './types';

/** The Logs filter values; '' means "any". `q` searches the message and the context (§2). */
export interface LogsFilters {
  level: string;
  q: string;
}

/** The one order logs come in (§2 'latest first'); not an operator's choice. */
export type LogsSortKey = 'ts';

/** §9 Rows choices and the default. */
export const LOGS_PAGE_SIZES = [50, 100, 200] as const;
/** §9: 50 rows by default. */
export const LOGS_DEFAULT_PAGE_SIZE = 50;
/** §4/§9: auto-refresh period, ms. */
export const LOGS_AUTO_REFRESH_MS = 15_000;
/** §4/§9: the single retry after an empty first answer comes this many ms later. */
export const LOGS_EMPTY_RETRY_MS = 300;

/** GET /logs (§7): page, pageSize, level, q (blank ones dropped); newest first, never sorted. */
export const LOGS_LIST: ListSpec<LogsFilters, LogsSortKey> = {
  fields: {
    level: { param: 'level', kind: 'select', options: LOG_LEVELS },
    q: { param: 'q', kind: 'text' },
  },
  sortKeys: ['ts'],
  defaultSort: { key: 'ts', direction: 'desc' },
  sortEncoding: 'none',
  pageSizes: LOGS_PAGE_SIZES,
  defaultPageSize: LOGS_DEFAULT_PAGE_SIZE,
};

/** §3 Log entry, normalised: `ts` an ISO instant (UTC) or null, `context` any JSON. */
export interface LogEntry {
  /** Unique within the page: the server's id, else the entry's position on the page. */
  id: string;
  ts: string | null;
  level: string | null;
  msg: string;
  context: unknown;
}

/** One page of logs (§7 {rows, total, totalPages}). */
export interface LogsPage {
  rows: LogEntry[];
  /** Matching entries; with a search, counted only up to a cap (see isTotalCapped). */
  total: number;
  totalPages: number;
  /** The server stopped counting search matches at `total` (docs/api.md totalCapped): show 'N+'. */
  isTotalCapped: boolean;
}

/** The keys under which a log context names a customer, in the order they are read. */
const CONTEXT_EMAIL_KEYS = ['email', 'customer_email', 'user_email'] as const;

/**
 * The customer a log context names (its `email`, `customer_email` or `user_email`, when it looks
 * like an email), or null: the Logs screen links it to the customer page.
 */
export function logContextEmail(context: unknown): string | null {
  if (context === null || typeof context !== 'object' || Array.isArray(context)) return null;
  const bag = context as Record<string, unknown>;
  for (const key of CONTEXT_EMAIL_KEYS) {
    const value = bag[key];
    if (typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value.trim())) return value.trim();
  }
  return null;
}

/** Whether a log context has anything to show ('view'): not null, not an empty object or array. */
export function hasLogContext(context: unknown): boolean {
  if (context == null || context === '') return false;
  if (Array.isArray(context)) return context.length > 0;
  if (typeof context === 'object') return Object.keys(context).length > 0;
  return true;
}
