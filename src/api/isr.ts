/**
 * First-party integrated sales tracking, ISR (§2 Integrated Tracking and the Metrics ISR panel,
 * §3 ISR shapes, CONTRACT.md paths): summary, daily series, top affiliates and the event list.
 * Money in integer cents.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
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

/** §9: ISR events page size. */
export const ISR_EVENTS_PAGE_SIZE = 50;
/** §9: top affiliates limit (the text list shows the first 6). */
export const ISR_AFFILIATES_LIMIT = 12;

/** An ISR time range: 'YYYY-MM-DD HH:MM:SS' UTC (or days), '' = open. */
export interface IsrRange {
  from: string;
  to: string;
}

/** §3 ISR summary; null when the server leaves a figure out (the card shows a dash). */
export interface IsrSummary {
  totalAmountCents: number | null;
  totalEvents: number | null;
  clickbankAmountCents: number | null;
  clickbankEvents: number | null;
  lemonsqueezyAmountCents: number | null;
  lemonsqueezyEvents: number | null;
}

/** §3 ISR daily series row. */
export interface IsrDailyRow {
  /** 'YYYY-MM-DD' (UTC). */
  day: string | null;
  source: string | null;
  events: number;
  amountCents: number;
}

/** §3 top affiliate row. */
export interface IsrAffiliateRow {
  affiliate: string | null;
  amountCents: number;
  events: number;
}

/** §3 ISR event row. */
export interface IsrEvent {
  id: string | null;
  createdAt: string | null;
  source: string | null;
  orderId: string | null;
  receipt: string | null;
  productId: string | null;
  amountCents: number | null;
  currency: string | null;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customerEmail: string | null;
  referrer: string | null;
}

/** One page of ISR events (§3 {rows, total}). */
export interface IsrEventsPage {
  rows: IsrEvent[];
  total: number;
}

/** ISR events search (§2 search form, §7 notes). '' = any. */
export interface IsrEventsQuery {
  q: string;
  source: string;
  affiliate: string;
  subid: string;
  receipt: string;
  orderId: string;
  timeFrom: string;
  timeTo: string;
  page: number;
  pageSize: number;
}

/** ISR events defaults (§2, §9): source clickbank, page 1, 50 rows. */
export const DEFAULT_ISR_EVENTS_QUERY: Readonly<IsrEventsQuery> = Object.freeze({
  q: '',
  source: 'clickbank',
  affiliate: '',
  subid: '',
  receipt: '',
  orderId: '',
  timeFrom: '',
  timeTo: '',
  page: 1,
  pageSize: ISR_EVENTS_PAGE_SIZE,
});

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

/** GET /isr-events with the search → IsrEventsPage. Rejects with ApiError (the page shows none). */
export async function fetchIsrEvents(
  q: IsrEventsQuery,
  signal?: AbortSignal,
): Promise<IsrEventsPage> {
  const answer = await apiRequest('/isr-events', {
    query: isrEventsParams(q),
    schema: rowsSchema,
    signal,
  });
  const rows = asObjectList(answer.rows).map(toIsrEvent);
  return { rows, total: answer.total ?? rows.length };
}

/** Query: the ISR summary for a range. */
export function isrSummaryQueryOptions(range: IsrRange) {
  return queryOptions({
    queryKey: queryKeys.isr.summary(rangeParams(range)),
    queryFn: ({ signal }) => fetchIsrSummary(range, signal),
    placeholderData: keepPreviousData,
  });
}

/** Query: the ISR daily series for a range. */
export function isrDailyQueryOptions(range: IsrRange) {
  return queryOptions({
    queryKey: queryKeys.isr.daily(rangeParams(range)),
    queryFn: ({ signal }) => fetchIsrDaily(range, signal),
    placeholderData: keepPreviousData,
  });
}

/** Query: the top affiliates for a range. */
export function isrAffiliatesQueryOptions(range: IsrRange, limit: number = ISR_AFFILIATES_LIMIT) {
  return queryOptions({
    queryKey: queryKeys.isr.affiliates({ ...rangeParams(range), limit }),
    queryFn: ({ signal }) => fetchIsrAffiliates(range, limit, signal),
    placeholderData: keepPreviousData,
  });
}

/** Query: one page of ISR events. */
export function isrEventsQueryOptions(q: IsrEventsQuery) {
  return queryOptions({
    queryKey: queryKeys.isr.events(isrEventsParams(q)),
    queryFn: ({ signal }) => fetchIsrEvents(q, signal),
    placeholderData: keepPreviousData,
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
