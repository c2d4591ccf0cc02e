/**
 * First-party integrated sales tracking, ISR (§2 Integrated Tracking and the Metrics ISR panel,
 * §3 ISR shapes, CONTRACT.md paths): summary, daily series, top affiliates and the event list.
 * Money in integer cents.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from './zod';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import {
  asObject,
  asObjectList,
  readInt,
  readString,
  wireInt,
  wireObject,
  type WireObject,
} from './wire';
import {
  ISR_AFFILIATES_LIMIT,
  type IsrAffiliateRow,
  type IsrDailyRow,
  type IsrEvent,
  type IsrEventsPage,
  type IsrEventsQuery,
  type IsrRange,
  type IsrSummary,
} from '../domain/isr';

function rangeParams(range: IsrRange): QueryParams {
  return { from: range.from, to: range.to };
}

/** GET /isr-metrics/summary answer ({data:{…}} or the figures at the top) → IsrSummary. */
export function normaliseIsrSummary(raw: WireObject): IsrSummary {
  const d = asObject(raw.data) ?? raw;
  return {
    totalAmountCents: readInt(d.total_amount_cents),
    totalEvents: readInt(d.total_events),
    clickbankAmountCents: readInt(d.clickbank_amount_cents),
    clickbankEvents: readInt(d.clickbank_events),
    lemonsqueezyAmountCents: readInt(d.lemonsqueezy_amount_cents),
    lemonsqueezyEvents: readInt(d.lemonsqueezy_events),
  };
}

/** GET /isr-metrics/summary?from&to → IsrSummary. Rejects with ApiError (isrSummaryErrorMessage). */
export async function fetchIsrSummary(range: IsrRange, signal?: AbortSignal): Promise<IsrSummary> {
  const raw = await apiRequest('/isr-metrics/summary', {
    query: rangeParams(range),
    schema: wireObject,
    signal,
  });
  return normaliseIsrSummary(raw);
}

/** §8 ISR summary failure text on the metrics page: the message, or 'Failed to load ISR summary'. */
export function isrSummaryErrorMessage(error: unknown): string {
  return errorMessageOr(error, MESSAGES.isrSummary);
}

const rowsSchema = z.object({ rows: z.array(z.unknown()), total: wireInt });
/** GET /isr-events: the rows, total and (servers that cap search counts) totalCapped. */
const eventsPageSchema = z.extend(rowsSchema, { totalCapped: z.optional(z.boolean()) });

/** GET /isr-metrics/daily?from&to → rows {day, source, events, amountCents}. Rejects with ApiError. */
export async function fetchIsrDaily(range: IsrRange, signal?: AbortSignal): Promise<IsrDailyRow[]> {
  const answer = await apiRequest('/isr-metrics/daily', {
    query: rangeParams(range),
    schema: rowsSchema,
    signal,
  });
  return asObjectList(answer.rows).map((r) => ({
    day: readString(r.day),
    source: readString(r.source),
    events: readInt(r.events) ?? 0,
    amountCents: readInt(r.amount_cents) ?? 0,
  }));
}

/**
 * GET /isr-metrics/affiliates?from&to&limit (default 12) → rows {affiliate, amountCents,
 * events}. Rejects with ApiError.
 */
export async function fetchIsrAffiliates(
  range: IsrRange,
  limit: number = ISR_AFFILIATES_LIMIT,
  signal?: AbortSignal,
): Promise<IsrAffiliateRow[]> {
  const answer = await apiRequest('/isr-metrics/affiliates', {
    query: { ...rangeParams(range), limit },
    schema: rowsSchema,
    signal,
  });
  return asObjectList(answer.rows).map((r) => ({
    affiliate: readString(r.affiliate),
    amountCents: readInt(r.amount_cents) ?? 0,
    events: readInt(r.events) ?? 0,
  }));
}

/** The GET /isr-events parameters of a search (§7 notes; blanks dropped by the client). */
export function isrEventsParams(q: IsrEventsQuery): QueryParams {
  return {
    q: q.q,
    source: q.source,
    affiliate: q.affiliate,
    subid: q.subid,
    receipt: q.receipt,
    order_id: q.orderId,
    time_from: q.timeFrom,
    time_to: q.timeTo,
    page: q.page,
    pageSize: q.pageSize,
  };
}

function toIsrEvent(r: WireObject): IsrEvent {
  return {
    id: readString(r.id),
    createdAt: readString(r.created_at),
    source: readString(r.source),
    orderId: readString(r.order_id),
    receipt: readString(r.receipt),
    productId: readString(r.product_id),
    amountCents: readInt(r.amount_cents),
    currency: readString(r.currency),
    affiliate: readString(r.affiliate),
    subid: readString(r.subid),
    campaign: readString(r.campaign),
    customerEmail: readString(r.customer_email),
    referrer: readString(r.referrer),
  };
}

/**
 * GET /isr-events with the search → IsrEventsPage; isTotalCapped when the server answered
 * totalCapped: true (a search counted only up to 1,000 matches). Rejects with ApiError (the page
 * shows none).
 */
export async function fetchIsrEvents(
  q: IsrEventsQuery,
  signal?: AbortSignal,
): Promise<IsrEventsPage> {
  const answer = await apiRequest('/isr-events', {
    query: isrEventsParams(q),
    schema: eventsPageSchema,
    signal,
  });
  const rows = asObjectList(answer.rows).map(toIsrEvent);
  return { rows, total: answer.total ?? rows.length, isTotalCapped: answer.totalCapped === true };
}

/** Query: the ISR summary for a range. */
export function isrSummaryQueryOptions(range: IsrRange) {
  return queryOptions({
    queryKey: queryKeys.isr.summary(rangeParams(range)),
    queryFn: ({ signal }) => fetchIsrSummary(range, signal),
    placeholderData: keepPreviousData,
    // §4: a change of dates reloads the summary (Metrics and ISR), back to earlier days too.
    staleTime: 0,
  });
}

/** Query: the ISR daily series for a range. */
export function isrDailyQueryOptions(range: IsrRange) {
  return queryOptions({
    queryKey: queryKeys.isr.daily(rangeParams(range)),
    queryFn: ({ signal }) => fetchIsrDaily(range, signal),
    placeholderData: keepPreviousData,
    // §4: changing the range reloads the daily series.
    staleTime: 0,
  });
}

/** Query: the top affiliates for a range. */
export function isrAffiliatesQueryOptions(range: IsrRange, limit: number = ISR_AFFILIATES_LIMIT) {
  return queryOptions({
    queryKey: queryKeys.isr.affiliates({ ...rangeParams(range), limit }),
    queryFn: ({ signal }) => fetchIsrAffiliates(range, limit, signal),
    placeholderData: keepPreviousData,
    // §4: changing the range reloads the top affiliates.
    staleTime: 0,
  });
}

/** Query: one page of ISR events. */
export function isrEventsQueryOptions(q: IsrEventsQuery) {
  return queryOptions({
    queryKey: queryKeys.isr.events(isrEventsParams(q)),
    queryFn: ({ signal }) => fetchIsrEvents(q, signal),
    placeholderData: keepPreviousData,
    // §4 "paging or range changes reload the events", a page seen moments ago included.
    staleTime: 0,
  });
}

/** Hook: the ISR summary as a query. */
export function useIsrSummary(range: IsrRange) {
  return useQuery(isrSummaryQueryOptions(range));
}

/** Hook: the ISR daily series as a query. */
export function useIsrDaily(range: IsrRange) {
  return useQuery(isrDailyQueryOptions(range));
}

/** Hook: the top affiliates as a query. */
export function useIsrAffiliates(range: IsrRange, limit: number = ISR_AFFILIATES_LIMIT) {
  return useQuery(isrAffiliatesQueryOptions(range, limit));
}

/** Hook: one page of ISR events as a query. */
export function useIsrEvents(q: IsrEventsQuery) {
  return useQuery(isrEventsQueryOptions(q));
}
