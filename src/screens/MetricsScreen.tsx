/**
 * The Metrics screen's container (§2 Metrics, §4 Metrics transitions, §8): the filters live in
 * the URL (period, from/to for custom, provider, status, type, plan, source, bars); the period
 * resolves to from/to on today's UTC day; GET /metrics/overview and the ISR summary (same days,
 * from + ' 00:00:00', to + ' 23:59:59', §5) load through the API layer. Text filters (Plan,
 * Source) reach the URL after a 300 ms pause; every other change at once. The charts' width is
 * measured here (visx useParentSize, the hook behind ParentSize, whose absolutely positioned box
 * would clip a page of unknown height), the one place that knows the screen's size.
 *
 * - §4 "changing the period preset recomputes from/to, except custom, which keeps the manual
 *   dates": choosing Custom starts from the range on screen (choosePeriod), so the inputs, the
 *   URL and the request keep those days.
 * - §4 "any change of dates or filters reloads the metrics" (and a change of dates the ISR
 *   summary): both queries have staleTime 0 rather than the console's 30 s, so going back to a
 *   period seen moments ago asks again, with the previous figures on screen meanwhile.
 * - §8: a failed ISR summary shows 'ISR: ' + message here; the ISR page shows no such message.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useParentSize } from '@visx/responsive';
import { isrSummaryErrorMessage, useIsrSummary } from '../api/isr';
import { metricsErrorMessage, useMetricsOverview } from '../api/metrics';
import { MetricsView } from '../components/MetricsView';
import type { IsrSummary } from '../domain/isr';
import {
  metricsFiltersFromSearch,
  metricsFiltersToSearch,
  metricsIsrSummaryRange,
  metricsQueryFromFilters,
  type MetricsFilters,
  type MetricsOverview,
} from '../domain/metrics';
import { FILTER_DEBOUNCE_MS, type AsyncState } from '../domain/types';

/** The /metrics route's screen. */
export function MetricsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlFilters = useMemo(() => metricsFiltersFromSearch(searchParams), [searchParams]);

  // Local draft so typing in Plan/Source is immediate; re-synced when the URL changes (Back).
  const urlKey = JSON.stringify(urlFilters);
  const [draft, setDraft] = useState(() => ({ source: urlKey, filters: urlFilters }));
  let filters = draft.filters;
  if (draft.source !== urlKey) {
    filters = urlFilters;
    setDraft({ source: urlKey, filters: urlFilters });
  }
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const handleFiltersChange = (next: MetricsFilters) => {
    setDraft({ source: urlKey, filters: next });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const commit = () => setSearchParams(metricsFiltersToSearch(next));
    const textOnly = next.plan !== filters.plan || next.source !== filters.source;
    if (textOnly) timer.current = setTimeout(commit, FILTER_DEBOUNCE_MS);
    else commit();
  };

  const { parentRef, width } = useParentSize({ debounceTime: 50, ignoreDimensions: ['height'] });

  const query = metricsQueryFromFilters(urlFilters, new Date());
  const metricsQuery = useMetricsOverview(query);
  const isrQuery = useIsrSummary(metricsIsrSummaryRange({ from: query.from, to: query.to }));

  let metrics: AsyncState<MetricsOverview>;
  if (metricsQuery.isPending) metrics = { status: 'loading' };
  else if (metricsQuery.isError)
    metrics = { status: 'error', message: metricsErrorMessage(metricsQuery.error) };
  else metrics = { status: 'ready', data: metricsQuery.data };

  let isrSummary: AsyncState<IsrSummary>;
  if (isrQuery.isPending || (isrQuery.isFetching && isrQuery.isPlaceholderData))
    isrSummary = { status: 'loading' };
  else if (isrQuery.isError)
    isrSummary = { status: 'error', message: isrSummaryErrorMessage(isrQuery.error) };
  else isrSummary = { status: 'ready', data: isrQuery.data };

  return (
    <div ref={parentRef}>
      <MetricsView
        filters={filters}
        range={{ from: query.from, to: query.to }}
        metrics={metrics}
        isrSummary={isrSummary}
        chartWidth={Math.floor(width)}
        onFiltersChange={handleFiltersChange}
      />
    </div>
  );
}

export default MetricsScreen;
