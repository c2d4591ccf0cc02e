/**
 * Subscription metrics (§2 Metrics, §3 Metrics response; CONTRACT.md GET /metrics/overview).
 * Permissive: the series are passed through as rows for the later metrics work (§5 provider
 * normalisation and summing) to shape.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import { asObject, asObjectList, readInt, readString, wireObject, type WireObject } from './wire';
import { readNumber } from '../domain/stats';

/** GET /metrics/overview query (§7 notes): 'YYYY-MM-DD' days and filters, '' = any. */
export interface MetricsQuery {
  from: string;
  to: string;
  provider: string;
  status: string;
  type: string;
  plan: string;
  source: string;
}

/** §3 Metrics totals; null when the server leaves one out. churnRate is a fraction (0.07). */
export interface MetricsTotals {
  totalActive: number | null;
  totalNewInRange: number | null;
  totalRenewalsInRange: number | null;
  totalCancellationsInRange: number | null;
  churnRate: number | null;
  estimatedRevenueCents: number | null;
}

/** §3 Metrics response, lightly normalised. */
export interface MetricsOverview {
  range: { from: string | null; to: string | null };
  totals: MetricsTotals;
  /** lineDaily rows: {date, new, renewals, cancellations}. */
  lineDaily: WireObject[];
  /** byProviderDaily / dailyByProvider rows: {date, <provider>: count…}. */
  byProviderDaily: WireObject[];
  /** The amount series under whichever accepted name was sent; null when none (§2). */
  amountSeries: { name: string; rows: WireObject[] } | null;
  pies: {
    activeByProvider: { provider: string; cnt: number }[];
    activeByPlan: { plan: string; cnt: number }[];
  };
  /** The answer as sent. */
  raw: WireObject;
}

/** §3: accepted names of the amount series, in order of preference. */
export const AMOUNT_SERIES_NAMES = [
  'byProviderDailyAmount',
  'byProviderDailyAmountCents',
  'amountByProviderDaily',
  'dailyAmountByProvider',
] as const;

function pie<K extends string>(value: unknown, key: K): ({ cnt: number } & Record<K, string>)[] {
  return asObjectList(value).map(
    (row) =>
      ({ [key]: readString(row[key]) ?? 'unknown', cnt: readInt(row.cnt) ?? 0 }) as {
        cnt: number;
      } & Record<K, string>,
  );
}

/** A GET /metrics/overview answer (any object) → MetricsOverview. Never throws on an object. */
export function normaliseMetricsOverview(raw: WireObject): MetricsOverview {
  const range = asObject(raw.range);
  const totals = asObject(raw.totals);
  const series = asObject(raw.series) ?? {};
  const pies = asObject(raw.pies);
  const amountName = AMOUNT_SERIES_NAMES.find((name) => Array.isArray(series[name]));
  return {
    range: { from: readString(range?.from), to: readString(range?.to) },
    totals: {
      totalActive: readInt(totals?.totalActive),
      totalNewInRange: readInt(totals?.totalNewInRange),
      totalRenewalsInRange: readInt(totals?.totalRenewalsInRange),
      totalCancellationsInRange: readInt(totals?.totalCancellationsInRange),
      churnRate: readNumber(totals?.churnRate),
      estimatedRevenueCents: readInt(totals?.estimatedRevenueCents),
    },
    lineDaily: asObjectList(series.lineDaily),
    byProviderDaily: asObjectList(series.byProviderDaily ?? series.dailyByProvider),
    amountSeries: amountName ? { name: amountName, rows: asObjectList(series[amountName]) } : null,
    pies: {
      activeByProvider: pie(pies?.activeByProvider, 'provider'),
      activeByPlan: pie(pies?.activeByPlan, 'plan'),
    },
    raw,
  };
}

function metricsParams(q: MetricsQuery): QueryParams {
  return { ...q };
}

/**
 * GET /metrics/overview?from&to&provider&status&type&plan&source (blanks dropped) →
 * MetricsOverview. Rejects with ApiError (show metricsErrorMessage).
 */
export async function fetchMetricsOverview(
  q: MetricsQuery,
  signal?: AbortSignal,
): Promise<MetricsOverview> {
  const raw = await apiRequest('/metrics/overview', {
    query: metricsParams(q),
    schema: wireObject,
    signal,
  });
  return normaliseMetricsOverview(raw);
}

/** §8 metrics failure text: the message, or 'Failed to load metrics'. */
export function metricsErrorMessage(error: unknown): string {
  return errorMessageOr(error, MESSAGES.metrics);
}

/** Query: the metrics overview, keeping the previous figures while new ones load. */
export function metricsOverviewQueryOptions(q: MetricsQuery) {
  return queryOptions({
    queryKey: queryKeys.metrics.overview(metricsParams(q)),
    queryFn: ({ signal }) => fetchMetricsOverview(q, signal),
    placeholderData: keepPreviousData,
  });
}

/** Hook: the metrics overview as a query. */
export function useMetricsOverview(q: MetricsQuery) {
  return useQuery(metricsOverviewQueryOptions(q));
}
