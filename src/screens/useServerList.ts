/**
 * One hook for a server-paged list whose state lives in the URL (§4 Lists and paging): page, page
 * size, sort and filters are read from and written to the location's search params (each change
 * pushes a history entry, so Back and Forward restore the list and the filter inputs alike).
 *
 * - Text filters are debounced (§9: 300 ms) through a local draft; select and date filters apply
 *   at once and carry any pending text with them. In `onSubmit` mode (a search form, e.g. ISR
 *   events) nothing applies until `submitFilters`.
 * - Any filter or page-size change returns to page 1; a sort change too.
 * - The page is clamped to 1…total pages once the total is known (a deep link to ?page=99 lands
 *   on the last page, with a replace, so Back does not return to the empty page).
 * - While the next page loads, the previous one stays on screen (`isRefreshing`), never flashing
 *   a loading row; the very first load, and an empty previous answer, show `loading`.
 *
 * Search params the list does not own (another panel's state on the same route) are kept.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useHref, useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import {
  clampPage,
  emptyFilters,
  listQueryFromSearch,
  listQueryToSearch,
  sameFilters,
  textFieldKeys,
  totalPages as pagesOf,
  withFilters,
  withPageSize,
  withSort,
  type FilterValues,
  type ListQuery,
  type ListSpec,
} from '../domain/list';
import type { ServerListViewProps } from '../components/DataTable';
import { FILTER_DEBOUNCE_MS, type AsyncState } from '../domain/types';

/** How old (ms) a cached page may be at mount and still count as the route loader's answer. */
const LOADER_ANSWER_MS = 2_000;

/** What a list answer must carry: the page's rows and the total; totalPages when the API sends it. */
export interface ListPage {
  rows: readonly unknown[];
  total: number;
  totalPages?: number;
}

/** Options of {@link useServerList}. */
export interface ServerListOptions<
  F extends FilterValues<F>,
  K extends string,
  Page extends ListPage,
  TKey extends QueryKey = QueryKey,
> {
  /** The list's filters, sort keys, page sizes and defaults (src/domain). */
  spec: ListSpec<F, K>;
  /** TanStack Query options for one page of `q` (from src/api, e.g. usersQueryOptions). */
  queryOptions: (q: ListQuery<F, K>) => UseQueryOptions<Page, Error, Page, TKey>;
  /** The §8 text of a failed load (e.g. usersErrorMessage). */
  errorMessage: (error: unknown) => string;
  /** `onChange` (default): filters apply as they change, text debounced; `onSubmit`: on submit only. */
  applyFilters?: 'onChange' | 'onSubmit';
  /** Debounce of text filters in ms (§9: 300). */
  debounceMs?: number;
  /** Poll the current page every this many ms (paused while the tab is hidden); false = never. */
  refetchIntervalMs?: number | false;
}

/** What {@link useServerList} gives the screen. */
export interface ServerList<F extends FilterValues<F>, K extends string, Page extends ListPage> {
  /** The applied query (the URL's): what the server was asked for. */
  query: ListQuery<F, K>;
  /** The filter inputs' values: the applied filters plus any pending (debounced/unsubmitted) edits. */
  filters: F;
  /** The page as one async state (§8 message on error; the list emptied). */
  list: AsyncState<Page>;
  /** A load for a new query runs while the previous page stays on screen. */
  isRefreshing: boolean;
  /** Total pages once known (at least 1), else null. */
  totalPages: number | null;
  /** Total items once known, else null. */
  total: number | null;
  /** The filter row changed (the whole new set of raw values). */
  setFilters: (next: F) => void;
  /** Apply the filter inputs now, back on page 1 (a search form's submit). */
  submitFilters: () => void;
  /** Clear: every filter to "any", back on page 1. */
  clearFilters: () => void;
  /** Go to a page (1-based). */
  setPage: (page: number) => void;
  /** A new page size, back on page 1. */
  setPageSize: (pageSize: number) => void;
  /** A sortable header was clicked: same key toggles, a new key starts ascending; page 1. */
  toggleSort: (key: K) => void;
  /** Reload the current page (Refresh, Retry). */
  refetch: () => void;
  /** The underlying query's data-arrival time (ms since epoch, 0 before the first answer). */
  dataUpdatedAt: number;
}

/** The search params with the list's own keys replaced by `q`'s; other keys kept. */
function mergeListSearch<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
  current: URLSearchParams,
  q: ListQuery<F, K>,
): URLSearchParams {
  const owned = new Set(['page', 'pageSize', 'sort', 'sortKey', 'sortDir']);
  for (const key of Object.keys(spec.fields) as (keyof F)[]) owned.add(spec.fields[key].param);
  const next = new URLSearchParams();
  for (const [key, value] of current) if (!owned.has(key)) next.append(key, value);
  for (const [key, value] of listQueryToSearch(spec, q)) next.set(key, value);
  return next;
}

/** A URL-synced, server-paged list (see the module comment for the rules). */
export function useServerList<
  F extends FilterValues<F>,
  K extends string,
  Page extends ListPage,
  TKey extends QueryKey = QueryKey,
>({
  spec,
  queryOptions,
  errorMessage,
  applyFilters = 'onChange',
  debounceMs = FILTER_DEBOUNCE_MS,
  refetchIntervalMs = false,
}: ServerListOptions<F, K, Page, TKey>): ServerList<F, K, Page> {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useMemo(() => listQueryFromSearch(spec, searchParams), [spec, searchParams]);

  // The latest applied query and filter inputs, for callbacks that run later (debounce timers).
  const queryRef = useRef(query);
  useLayoutEffect(() => {
    queryRef.current = query;
  });
  const navigate = useCallback(
    (next: ListQuery<F, K>, replace = false) =>
      setSearchParams((current) => mergeListSearch(spec, current, next), { replace }),
    [setSearchParams, spec],
  );

  // The filter inputs' draft, re-synced whenever the URL's filters change (Back, Clear, a link).
  const urlFiltersKey = JSON.stringify(query.filters);
  const [draft, setDraft] = useState(() => ({ source: urlFiltersKey, filters: query.filters }));
  let filters = draft.filters;
  if (draft.source !== urlFiltersKey) {
    filters = query.filters;
    setDraft({ source: urlFiltersKey, filters: query.filters });
  }
  const draftRef = useRef(filters);
  useLayoutEffect(() => {
    draftRef.current = filters;
  });

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPending = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancelPending, [cancelPending]);
  // The URL's filters changed (our own navigation or Back/Forward): a pending edit is superseded.
  useEffect(() => cancelPending(), [urlFiltersKey, cancelPending]);

  // A navigation away from this screen (a sidebar link, a row's link) supersedes a pending text
  // edit: applying it while that navigation loads would bring the operator back here.
  // A pending navigation's location carries the router's basename (/admin), useLocation's does
  // not: compare it with this screen's path as the router spells it.
  const here = useHref({ pathname: useLocation().pathname });
  const navigation = useNavigation();
  const leaving = navigation.location !== undefined && navigation.location.pathname !== here;
  const leavingRef = useRef(leaving);
  useLayoutEffect(() => {
    leavingRef.current = leaving;
  });
  useEffect(() => {
    if (leaving) cancelPending();
  }, [leaving, cancelPending]);

  const textKeys = useMemo(() => textFieldKeys(spec), [spec]);
  const applyDraft = useCallback(() => {
    cancelPending();
    if (leavingRef.current) return;
    const current = queryRef.current;
    if (!sameFilters(current.filters, draftRef.current))
      navigate(withFilters(current, draftRef.current));
  }, [cancelPending, navigate]);

  const setFilters = useCallback(
    (next: F) => {
      draftRef.current = next;
      setDraft({ source: urlFiltersKey, filters: next });
      if (applyFilters === 'onSubmit') return;
      const applied = queryRef.current.filters;
      const onlyText = (Object.keys(next) as (keyof F)[]).every(
        (key) => textKeys.includes(key) || next[key] === applied[key],
      );
      if (!onlyText) {
        applyDraft();
        return;
      }
      cancelPending();
      timer.current = setTimeout(applyDraft, debounceMs);
    },
    [applyFilters, applyDraft, cancelPending, debounceMs, textKeys, urlFiltersKey],
  );

  const clearFilters = useCallback(() => {
    cancelPending();
    const cleared = emptyFilters(spec);
    draftRef.current = cleared;
    setDraft({ source: urlFiltersKey, filters: cleared });
    navigate(withFilters(queryRef.current, cleared));
  }, [cancelPending, navigate, spec, urlFiltersKey]);

  const result = useQuery({
    ...queryOptions(query),
    // The route's loader asks for this page as the navigation starts (src/app/router.tsx); an
    // answer that came in while the screen's code loaded is that request's, not a stale page.
    refetchOnMount: (cached) => Date.now() - cached.state.dataUpdatedAt > LOADER_ANSWER_MS,
    refetchInterval: refetchIntervalMs,
    refetchIntervalInBackground: false,
  });

  const page = result.data;
  const totalPages = page ? (page.totalPages ?? pagesOf(page.total, query.pageSize)) : null;
  let list: AsyncState<Page>;
  if (result.isError) list = { status: 'error', message: errorMessage(result.error) };
  else if (!page || (result.isPlaceholderData && page.rows.length === 0))
    list = { status: 'loading' };
  else if (page.rows.length === 0) list = { status: 'empty' };
  else list = { status: 'ready', data: page };

  // §4: the page is clamped to 1…total pages once the total is known (replace: no dead entry).
  const isSettled = page !== undefined && !result.isPlaceholderData;
  useEffect(() => {
    if (!isSettled || totalPages === null) return;
    const clamped = clampPage(query.page, totalPages);
    if (clamped !== query.page) navigate({ ...query, page: clamped }, true);
  }, [isSettled, totalPages, query, navigate]);

  const { refetch: refetchQuery } = result;
  // A search form's submit: apply the inputs on page 1; the same query again simply reloads.
  const submitFilters = useCallback(() => {
    cancelPending();
    const current = queryRef.current;
    if (sameFilters(current.filters, draftRef.current) && current.page === 1) void refetchQuery();
    else navigate(withFilters(current, draftRef.current));
  }, [cancelPending, navigate, refetchQuery]);
  return {
    query,
    filters,
    list,
    isRefreshing: result.isFetching && result.isPlaceholderData && list.status === 'ready',
    totalPages: list.status === 'error' ? null : totalPages,
    total: list.status === 'error' || !page ? null : page.total,
    setFilters,
    submitFilters,
    clearFilters,
    setPage: useCallback((p: number) => navigate({ ...queryRef.current, page: p }), [navigate]),
    setPageSize: useCallback(
      (size: number) => navigate(withPageSize(queryRef.current, size)),
      [navigate],
    ),
    toggleSort: useCallback((key: K) => navigate(withSort(queryRef.current, key)), [navigate]),
    refetch: useCallback(() => void refetchQuery(), [refetchQuery]),
    dataUpdatedAt: result.dataUpdatedAt,
  };
}

/**
 * The props a list view takes from its screen (`ServerListViewProps`), from the hook's result:
 * `<UsersView {...listViewProps(list)} … />`.
 */
export function listViewProps<F extends FilterValues<F>, K extends string, Page extends ListPage>(
  list: ServerList<F, K, Page>,
): ServerListViewProps<F, K, Page> {
  return {
    list: list.list,
    query: list.query,
    filters: list.filters,
    totalPages: list.totalPages,
    isRefreshing: list.isRefreshing,
    onFiltersChange: list.setFilters,
    onClearAll: list.clearFilters,
    onSortChange: list.toggleSort,
    onPageChange: list.setPage,
    onPageSizeChange: list.setPageSize,
    onRefresh: list.refetch,
  };
}
