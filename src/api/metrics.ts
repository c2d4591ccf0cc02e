/**
 * Subscription metrics (§2 Metrics, §3 Metrics response; CONTRACT.md GET /metrics/overview).
 * The answer must be a JSON object; its contents are read permissively by the domain's
 * normaliseMetricsOverview (§3 aliases, §5 provider names and series summing).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import { wireObject } from './wire';
import {
  normaliseMetricsOverview,
  type MetricsOverview,
  type MetricsQuery,
} from '../domain/metrics';

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
    // §4 "any change of dates or filters reloads the metrics", back to an earlier period too.
    staleTime: 0,
  });
}

/** Hook: the metrics overview as a query. */
export function useMetricsOverview(q: MetricsQuery) {
  return useQuery(metricsOverviewQueryOptions(q));
}
