/**
 * The Integrated Tracking screen's container (§2 Integrated Tracking, §4 ISR transitions, §7
 * notes, §9): the range lives in the URL (`range=7|30`, default 14 days; or a hand-made
 * `from`/`to`, UTC datetime-local); a range button means "start of the day N−1 days ago through
 * now", where now is fixed when the screen opens, a button is pressed or Refresh is clicked.
 * The summary, daily series and top affiliates load for the range; the events list runs on the
 * shared URL-synced list hook as a search form (Search applies and returns to page 1). Export CSV
 * writes the current page (§9).
 *
 * - §4: a range change reloads the summary, daily series, top affiliates and events, and a page
 *   change the events; those queries have staleTime 0 rather than the console's 30 s, so a range
 *   or page seen moments ago is asked for again (its cached figures on screen meanwhile).
 * - §8 "The ISR events page shows no error messages": no load's failure is worded here; a failed
 *   summary shows dashes in the cards (the Metrics page keeps its 'ISR: …' line).
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useParentSize } from '@visx/responsive';
import { isrEventsQueryOptions, useIsrAffiliates, useIsrDaily, useIsrSummary } from '../api/isr';
import { IsrView } from '../components/IsrView';
import {
  DEFAULT_ISR_RANGE_DAYS,
  ISR_EVENTS_LIST,
  ISR_RANGE_DAYS,
  isrEventsQueryFromList,
  isrPresetRange,
  isrProviderSplit,
  isrRangeToWire,
  pivotIsrDaily,
  type IsrEvent,
  type IsrRangeDays,
  type LocalRange,
} from '../domain/isr';
import { isrCsvFileName, isrEventsCsv } from '../domain/isr-csv';
import type { AsyncState } from '../domain/types';
import { downloadText } from './downloadText';
import { useServerList } from './useServerList';

type Query<T> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  isFetching: boolean;
  isPlaceholderData: boolean;
};

/** A query as one async state; `map` shapes the data; `message` words an error. */
function stateOf<T, U>(
  query: Query<T>,
  map: (data: T) => U,
  message: (error: unknown) => string,
): AsyncState<U> {
  if (query.isPending || (query.isFetching && query.isPlaceholderData))
    return { status: 'loading' };
  if (query.isError || query.data === undefined)
    return { status: 'error', message: message(query.error) };
  return { status: 'ready', data: map(query.data) };
}

/** The pressed range button from the URL: range=7|14|30, or 14 when no from/to is given. */
function rangeDaysOf(search: URLSearchParams): IsrRangeDays | null {
  const days = Number(search.get('range'));
  if ((ISR_RANGE_DAYS as readonly number[]).includes(days)) return days as IsrRangeDays;
  return search.has('from') || search.has('to') ? null : DEFAULT_ISR_RANGE_DAYS;
}

/** The /isr route's screen. */
export function IsrScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [now, setNow] = useState(() => new Date());
  const activeDays = rangeDaysOf(searchParams);
  const customFrom = searchParams.get('from') ?? '';
  const customTo = searchParams.get('to') ?? '';
  const local: LocalRange = useMemo(
    () =>
      activeDays !== null ? isrPresetRange(activeDays, now) : { from: customFrom, to: customTo },
    [activeDays, now, customFrom, customTo],
  );
  const wire = useMemo(() => isrRangeToWire(local), [local]);

  const summaryQuery = useIsrSummary(wire);
  const dailyQuery = useIsrDaily(wire);
  const affiliatesQuery = useIsrAffiliates(wire);
  const list = useServerList({
    spec: ISR_EVENTS_LIST,
    queryOptions: (q) => isrEventsQueryOptions(isrEventsQueryFromList(q, wire)),
    // §8: the ISR events page shows no error messages (the table reads 'No events').
    errorMessage: () => '',
    applyFilters: 'onSubmit',
  });

  const { parentRef, width } = useParentSize({ debounceTime: 50, ignoreDimensions: ['height'] });

  const setRangeParams = (update: (next: URLSearchParams) => void) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      update(next);
      next.delete('page');
      return next;
    });

  const handlePresetChange = (days: IsrRangeDays) => {
    setNow(new Date());
    setRangeParams((next) => {
      next.delete('from');
      next.delete('to');
      if (days === DEFAULT_ISR_RANGE_DAYS) next.delete('range');
      else next.set('range', String(days));
    });
  };
  const handleRangeChange = (range: LocalRange) =>
    setRangeParams((next) => {
      next.delete('range');
      next.set('from', range.from);
      next.set('to', range.to);
    });
  const handleRefresh = () => {
    if (activeDays !== null) setNow(new Date());
    void summaryQuery.refetch();
    void dailyQuery.refetch();
    void affiliatesQuery.refetch();
    list.refetch();
  };

  const events: AsyncState<readonly IsrEvent[]> =
    list.list.status === 'ready' ? { status: 'ready', data: list.list.data.rows } : list.list;
  const handleExportCsv = () => {
    if (events.status !== 'ready' || events.data.length === 0) return;
    downloadText(isrCsvFileName(list.query.page), isrEventsCsv(events.data));
  };

  const fromDay = wire.from.slice(0, 10);
  const toDay = wire.to.slice(0, 10);
  const isRefreshing =
    summaryQuery.isFetching ||
    dailyQuery.isFetching ||
    affiliatesQuery.isFetching ||
    list.isRefreshing;

  return (
    <div ref={parentRef}>
      <IsrView
        range={local}
        activeDays={activeDays}
        isRefreshing={isRefreshing}
        summary={stateOf(
          summaryQuery,
          (data) => data,
          () => '',
        )}
        daily={stateOf(
          dailyQuery,
          (rows) => pivotIsrDaily(rows, fromDay, toDay),
          () => '',
        )}
        affiliates={stateOf(
          affiliatesQuery,
          (rows) => rows,
          () => '',
        )}
        split={stateOf(dailyQuery, isrProviderSplit, () => '')}
        filters={list.filters}
        events={events}
        page={list.query.page}
        totalPages={list.totalPages}
        total={list.total}
        isTotalCapped={list.list.status === 'ready' && list.list.data.isTotalCapped}
        isEventsRefreshing={list.isRefreshing}
        chartWidth={Math.floor(width)}
        onPresetChange={handlePresetChange}
        onRangeChange={handleRangeChange}
        onRefresh={handleRefresh}
        onFiltersChange={list.setFilters}
        onSearch={list.submitFilters}
        onExportCsv={handleExportCsv}
        onPageChange={list.setPage}
      />
    </div>
  );
}

export default IsrScreen;
