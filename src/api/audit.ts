/**
 * The audit trail (docs/api.md "Audit"; server/routes/audit.ts): one page of rows for
 * the Audit screen, a customer's newest rows for the Subscriptions drawer, and every filtered row
 * (up to a cap) for the CSV export. Wire fields (snake_case) are normalised at this boundary.
 */
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { z } from './zod';
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_EXPORT_PAGE_SIZE,
  AUDIT_LIST,
  CUSTOMER_AUDIT_PAGE_SIZE,
  isAuditOutcome,
  type AuditEntry,
  type AuditFilters,
  type AuditPage,
  type AuditSortKey,
} from '../domain/audit';
import { listRequestParams, type ListQuery } from '../domain/list';
import { errorMessageOr, errorStatus } from '../domain/messages';
import { totalPages } from '../domain/paging';
import { apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import { asObjectList, readString, wireInt, type WireObject } from './wire';

/** An Audit list query (page, Rows, the fixed newest-first order, the filters). */
export type AuditQuery = ListQuery<AuditFilters, AuditSortKey>;

const pageSchema = z.object({
  rows: z.array(z.unknown()),
  total: z.optional(wireInt),
  totalPages: z.optional(wireInt),
  totalCapped: z.optional(z.boolean()),
});

/** One wire row → an AuditEntry; an unknown outcome reads as 'failed' so it is never hidden as ok. */
export function toAuditEntry(raw: WireObject, index: number): AuditEntry {
  return {
    id: typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : `#${index}`,
    at: readString(raw.at),
    operatorEmail: readString(raw.operator_email),
    action: readString(raw.action) ?? '',
    target: readString(raw.target),
    outcome: isAuditOutcome(raw.outcome) ? raw.outcome : 'failed',
    ip: readString(raw.ip),
    userAgent: readString(raw.user_agent),
    detail: raw.detail ?? null,
  };
}

/**
 * GET /audit with request parameters `params` (page, pageSize and the non-blank filters) → one
 * page, newest first. Rejects with ApiError (a bad filter: 400 with the server's message) or
 * MalformedResponseError.
 */
async function fetchAuditPage(
  params: QueryParams,
  pageSize: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  const answer = await apiRequest('/audit', { query: params, schema: pageSchema, signal });
  const rows = asObjectList(answer.rows).map(toAuditEntry);
  const total = answer.total ?? rows.length;
  return {
    rows,
    total,
    totalPages: answer.totalPages ?? totalPages(total, pageSize),
    isTotalCapped: answer.totalCapped === true,
  };
}

/** GET /audit?page&pageSize&operator&action&target&from&to (blanks dropped) → one page. */
export function fetchAudit(query: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  return fetchAuditPage(listRequestParams(AUDIT_LIST, query), query.pageSize, signal);
}

/** Query: one page of the Audit screen, keeping the previous page on screen while the next loads. */
export function auditQueryOptions(query: AuditQuery) {
  return queryOptions({
    queryKey: queryKeys.audit.list(listRequestParams(AUDIT_LIST, query)),
    queryFn: ({ signal }) => fetchAudit(query, signal),
    placeholderData: keepPreviousData,
    // An audit trail grows with every action: going back to a filter asks the server again.
    staleTime: 0,
  });
}

/**
 * Query: a customer's newest audit rows (GET /audit?target=<email>&pageSize=20) for the
 * Subscriptions drawer; pass null while no customer is open (the query then idles).
 */
export function customerAuditQueryOptions(email: string | null) {
  const params = { target: email ?? '', page: '1', pageSize: String(CUSTOMER_AUDIT_PAGE_SIZE) };
  return queryOptions({
    queryKey: queryKeys.audit.list(params),
    queryFn: email
      ? ({ signal }) => fetchAuditPage(params, CUSTOMER_AUDIT_PAGE_SIZE, signal)
      : skipToken,
    staleTime: 0,
  });
}

/** Hook: a customer's newest audit rows (idle while `email` is null). */
export function useCustomerAudit(email: string | null) {
  return useQuery(customerAuditQueryOptions(email));
}

/** The rows of an export and whether the cap cut them short. */
export interface AuditExport {
  rows: AuditEntry[];
  /** More rows matched than {@link AUDIT_EXPORT_MAX_ROWS}: the file holds the newest ones only. */
  isCapped: boolean;
}

/**
 * Every row matching `query`'s filters, newest first, asked for in pages of 200 (the server's
 * largest) and stopped at `maxRows` (default 10,000). `onProgress` hears the rows gathered so far
 * after each page. Rejects like {@link fetchAudit}, or with the signal's AbortError.
 */
export async function fetchAuditExport(
  query: AuditQuery,
  {
    maxRows = AUDIT_EXPORT_MAX_ROWS,
    onProgress,
    signal,
  }: { maxRows?: number; onProgress?: (rows: number) => void; signal?: AbortSignal } = {},
): Promise<AuditExport> {
  const rows: AuditEntry[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchAudit({ ...query, page, pageSize: AUDIT_EXPORT_PAGE_SIZE }, signal);
    rows.push(...answer.rows);
    onProgress?.(Math.min(rows.length, maxRows));
    if (rows.length >= maxRows) {
      const isCapped = rows.length > maxRows || answer.isTotalCapped || page < answer.totalPages;
      return { rows: rows.slice(0, maxRows), isCapped };
    }
    if (answer.rows.length < AUDIT_EXPORT_PAGE_SIZE || page >= answer.totalPages) {
      return { rows, isCapped: false };
    }
  }
}

/** What the audit trail failed with: a bad filter's 400 says why; anything else a fixed text. */
export function auditErrorMessage(error: unknown): string {
  const fallback = 'Failed to load the audit trail';
  return errorStatus(error) === 400 ? errorMessageOr(error, fallback) : fallback;
}
