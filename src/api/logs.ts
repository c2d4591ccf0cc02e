/**
 * Server logs (§2 Logs, §3 Log entry, §7 GET /logs). A 401 redirects to login through the
 * client's onUnauthorized handling.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { totalPages } from '../domain/paging';
import type { LogLevel } from '../domain/types';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import { asObjectList, readString, wireInt, type WireObject } from './wire';

/** §9 log page sizes and the default. */
export const LOGS_PAGE_SIZES = [50, 100, 200] as const;
/** §9: 50 rows by default. */
export const LOGS_DEFAULT_PAGE_SIZE = 50;
/** §4/§9: auto-refresh period in ms. */
export const LOGS_AUTO_REFRESH_MS = 15_000;
/** §4/§9: one retry after this many ms when the first result is empty. */
export const LOGS_EMPTY_RETRY_MS = 300;

/** GET /logs query (§7): level '' = any; q searches message and context. */
export interface LogsQuery {
  page: number;
  pageSize: number;
  level: '' | LogLevel;
  q: string;
}

/** Logs defaults (§9): page 1, 50 rows, any level, no search. */
export const DEFAULT_LOGS_QUERY: Readonly<LogsQuery> = Object.freeze({
  page: 1,
  pageSize: LOGS_DEFAULT_PAGE_SIZE,
  level: '',
  q: '',
});

/** §3 Log entry, normalised: ts is an instant (UTC), context any JSON. */
export interface LogEntry {
  ts: string | null;
  level: string | null;
  msg: string;
  context: unknown;
}

/** One page of logs (§7 {rows, total, totalPages}). */
export interface LogsPage {
  rows: LogEntry[];
  total: number;
  totalPages: number;
}

const logsSchema = z.object({ rows: z.array(z.unknown()), total: wireInt, totalPages: wireInt });

function toLogEntry(raw: WireObject): LogEntry {
  return {
    ts: readString(raw.ts ?? raw.time ?? raw.timestamp),
    level: readString(raw.level),
    msg: readString(raw.msg ?? raw.message) ?? '',
    context: raw.context ?? null,
  };
}

/**
 * GET /logs?page&pageSize&level&q (blank level and q dropped) → LogsPage, latest first as the
 * server sends. Missing totals are derived from the rows. Rejects with ApiError (§8: the
 * screen shows 'Failed to load logs', MESSAGES.logs).
 */
export async function fetchLogs(query: LogsQuery, signal?: AbortSignal): Promise<LogsPage> {
  const answer = await apiRequest('/logs', { query: { ...query }, schema: logsSchema, signal });
  const rows = asObjectList(answer.rows).map(toLogEntry);
  const total = answer.total ?? rows.length;
  return {
    rows,
    total,
    totalPages: answer.totalPages ?? totalPages(total, query.pageSize),
  };
}

/** Query: one logs page; `autoRefresh` polls every 15 s (§4). */
export function logsQueryOptions(query: LogsQuery, autoRefresh = false) {
  return queryOptions({
    queryKey: queryKeys.logs.list({ ...query }),
    queryFn: ({ signal }) => fetchLogs(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: autoRefresh ? LOGS_AUTO_REFRESH_MS : false,
  });
}

/** Hook: one logs page as a query. */
export function useLogs(query: LogsQuery, autoRefresh = false) {
  return useQuery(logsQueryOptions(query, autoRefresh));
}
