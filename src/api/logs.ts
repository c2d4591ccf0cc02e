/**
 * Server logs (§2 Logs, §3 Log entry, §7 GET /logs). A 401 sends the operator to sign-in through
 * the client's onUnauthorized handling (CONTRACT.md: any 401, Logs included).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from './zod';
import { listRequestParams, type ListQuery } from '../domain/list';
import {
  LOGS_LIST,
  type LogEntry,
  type LogsFilters,
  type LogsPage,
  type LogsSortKey,
} from '../domain/logs';
import { MESSAGES } from '../domain/messages';
import { totalPages } from '../domain/paging';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import { asObjectList, readString, wireInt, type WireObject } from './wire';

/** A Logs list query (page, Rows, the fixed latest-first order, Level and Search). */
export type LogsQuery = ListQuery<LogsFilters, LogsSortKey>;

const logsSchema = z.object({
  rows: z.array(z.unknown()),
  total: z.optional(wireInt),
  totalPages: z.optional(wireInt),
  totalCapped: z.optional(z.boolean()),
});

function toLogEntry(raw: WireObject, index: number): LogEntry {
  return {
    id: typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : `#${index}`,
    ts: readString(raw.ts ?? raw.time ?? raw.timestamp),
    level: readString(raw.level),
    msg: readString(raw.msg ?? raw.message) ?? '',
    context: raw.context ?? null,
  };
}

/**
 * GET /logs?page&pageSize&level&q (blank level and q dropped) → LogsPage, latest first as the
 * server sends. Missing totals are derived from the rows. Rejects with ApiError /
 * MalformedResponseError (the screen shows 'Failed to load logs', §8).
 */
export async function fetchLogs(query: LogsQuery, signal?: AbortSignal): Promise<LogsPage> {
  const answer = await apiRequest('/logs', {
    query: listRequestParams(LOGS_LIST, query),
    schema: logsSchema,
    signal,
  });
  const rows = asObjectList(answer.rows).map(toLogEntry);
  const total = answer.total ?? rows.length;
  return {
    rows,
    total,
    totalPages: answer.totalPages ?? totalPages(total, query.pageSize),
    isTotalCapped: answer.totalCapped === true,
  };
}

/** Query: one logs page, keeping the previous page on screen while the next loads. */
export function logsQueryOptions(query: LogsQuery) {
  return queryOptions({
    queryKey: queryKeys.logs.list(listRequestParams(LOGS_LIST, query)),
    queryFn: ({ signal }) => fetchLogs(query, signal),
    placeholderData: keepPreviousData,
    // §4 "Logs reload on any change": going back to an earlier filter asks the server again.
    staleTime: 0,
  });
}

/** §8: a failed logs load always reads 'Failed to load logs' (a 401 has already left for sign-in). */
export function logsErrorMessage(): string {
  return MESSAGES.logs;
}
