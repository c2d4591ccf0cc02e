/**
 * The Revenue screen's container (docs/metrics.md): the filters live in the URL (period, from/to
 * for custom, provider, plan, cadence, interval); the period resolves to UTC days today. It loads
 * the range's figures, the previous equal period's (for the cards' comparison), the cohorts of
 * the range's months and, when a bar is opened, the subscriptions behind it. Plan reaches the URL
 * after a 300 ms pause; every other change at once. The charts' width is measured here.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useParentSize } from '@visx/responsive';
import {
  revenueErrorMessage,
  useCohorts,
  useMovementSubscriptions,
  useRevenue,
} from '../api/revenue';
import { RevenueView } from '../components/RevenueView';
import { customerPath } from '../domain/customer';
import { cohortsCsv, movementsCsv, revenueCsvFileName } from '../domain/revenue-csv';
import {
  previousRange,
  revenueFiltersFromSearch,
  revenueFiltersToSearch,
  revenueQueryFromFilters,
  type Cohort,
  type MovementSelection,
  type MovementSubscription,
  type RevenueFilters,
  type RevenueOverview,
} from '../domain/revenue';
import { FILTER_DEBOUNCE_MS, type AsyncState } from '../domain/types';
import { downloadText } from './downloadText';

function stateOf<T>(
  q: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined },
  message: (e: unknown) => string,
): AsyncState<T> {
  if (q.isPending) return { status: 'loading' };
  if (q.isError) return { status: 'error', message: message(q.error) };
  return { status: 'ready', data: q.data as T };
}

/** The /revenue route's screen. */
export function RevenueScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlFilters = useMemo(() => revenueFiltersFromSearch(searchParams), [searchParams]);
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
  const [retention, setRetention] = useState<'logo' | 'revenue'>('logo');
  const [selection, setSelection] = useState<MovementSelection | null>(null);

  const handleFiltersChange = (next: RevenueFilters) => {
    setDraft({ source: urlKey, filters: next });
    setSelection(null);
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    const commit = () => setSearchParams(revenueFiltersToSearch(next));
    if (next.plan !== filters.plan) timer.current = setTimeout(commit, FILTER_DEBOUNCE_MS);
    else commit();
  };

  const { parentRef, width } = useParentSize({ debounceTime: 50, ignoreDimensions: ['height'] });
  const query = revenueQueryFromFilters(urlFilters, new Date());
  const before = previousRange({ from: query.from, to: query.to });
  const revenueQuery = useRevenue(query);
  const previousQuery = useRevenue(before ? { ...query, ...before } : null);
  const cohortsQuery = useCohorts(query);
  const interval = revenueQuery.data?.interval ?? 'day';
  const drillQuery = useMovementSubscriptions(
    selection ? { ...query, ...selection, interval, from: query.from, to: query.to } : null,
  );

  const revenue: AsyncState<RevenueOverview> = stateOf(revenueQuery, revenueErrorMessage);
  const cohorts: AsyncState<Cohort[]> = stateOf(cohortsQuery, revenueErrorMessage);
  const drillState: AsyncState<{ total: number; rows: MovementSubscription[] }> = stateOf(
    drillQuery,
    revenueErrorMessage,
  );

  const handleExportMovements = () => {
    const data = revenueQuery.data;
    if (!data) return;
    downloadText(
      revenueCsvFileName('movements', data.from, data.to),
      movementsCsv(data.movements, data.currency),
    );
  };
  const handleExportCohorts = () => {
    const data = cohortsQuery.data;
    if (!data) return;
    downloadText(
      revenueCsvFileName('cohorts', query.from, query.to),
      cohortsCsv(data, retention, revenueQuery.data?.currency ?? 'USD'),
    );
  };

  return (
    <div ref={parentRef}>
      <RevenueView
        filters={filters}
        range={{ from: query.from, to: query.to }}
        revenue={revenue}
        previous={previousQuery.data ?? null}
        cohorts={cohorts}
        retention={retention}
        drilldown={selection ? { selection, state: drillState } : null}
        chartWidth={Math.floor(width)}
        customerPath={customerPath}
        onFiltersChange={handleFiltersChange}
        onRetentionChange={setRetention}
        onSelect={setSelection}
        onExportMovements={handleExportMovements}
        onExportCohorts={handleExportCohorts}
      />
    </div>
  );
}

export default RevenueScreen;
