/**
 * The Users screen's container (§2 Users, §4 lists and paging, §8 action results): list state
 * (page, size, sort, filters) lives in the URL (each change pushes a history entry, so Back works);
 * text filters are debounced 300 ms through a local draft; any filter or page-size change resets
 * to page 1; the page is clamped to 1..total pages; access actions show their §8 alert and refresh
 * the list.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAccessAction, usersErrorMessage, useUsers } from '../api/users';
import type { ActionResultMessage } from '../components/ActionResultAlert';
import { UsersView } from '../components/UsersView';
import { actionErrorAlert, describeActionResult } from '../domain/actions';
import {
  clampPage,
  emptyUsersFilters,
  nextSort,
  usersQueryFromSearch,
  usersQueryToSearch,
  withPageSize,
  withUsersFilters,
} from '../domain/query';
import {
  FILTER_DEBOUNCE_MS,
  type AccessAction,
  type AsyncState,
  type UsersFilters,
  type UsersPage,
  type UsersQuery,
} from '../domain/types';

/** Filters typed into text inputs: their URL update waits for a 300 ms pause (§4). */
const TEXT_FILTERS: readonly (keyof UsersFilters)[] = ['rowId', 'email', 'providerId'];

/** The /users route's screen. */
export function UsersScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useMemo(() => usersQueryFromSearch(searchParams), [searchParams]);
  const navigate = useCallback(
    (next: UsersQuery) => setSearchParams(usersQueryToSearch(next)),
    [setSearchParams],
  );

  // Local draft of the filter row; re-synced whenever the URL's filters change (e.g. Back).
  const urlFiltersKey = JSON.stringify(query.filters);
  const [draft, setDraft] = useState(() => ({ source: urlFiltersKey, filters: query.filters }));
  let filters = draft.filters;
  if (draft.source !== urlFiltersKey) {
    filters = query.filters;
    setDraft({ source: urlFiltersKey, filters: query.filters });
  }

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPending = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancelPending, []);

  const handleFiltersChange = (next: UsersFilters) => {
    setDraft({ source: urlFiltersKey, filters: next });
    cancelPending();
    const textOnly = (Object.keys(next) as (keyof UsersFilters)[]).every(
      (field) => TEXT_FILTERS.includes(field) || next[field] === query.filters[field],
    );
    if (textOnly) {
      timer.current = setTimeout(() => {
        timer.current = null;
        navigate(withUsersFilters(query, next));
      }, FILTER_DEBOUNCE_MS);
    } else {
      navigate(withUsersFilters(query, next));
    }
  };

  const handleClearAll = () => {
    cancelPending();
    const cleared = emptyUsersFilters();
    setDraft({ source: urlFiltersKey, filters: cleared });
    navigate(withUsersFilters(query, cleared));
  };

  const usersQuery = useUsers(query);
  let list: AsyncState<UsersPage>;
  if (usersQuery.isPending || (usersQuery.isFetching && usersQuery.isPlaceholderData)) {
    list = { status: 'loading' };
  } else if (usersQuery.isError) {
    // §8: the message or 'Failed to load users', and the list emptied.
    list = { status: 'error', message: usersErrorMessage(usersQuery.error) };
  } else if (usersQuery.data.rows.length === 0) {
    list = { status: 'empty' };
  } else {
    list = { status: 'ready', data: usersQuery.data };
  }

  // §4: the page is clamped between 1 and the total pages once the total is known.
  const totalPages = usersQuery.data?.totalPages;
  useEffect(() => {
    if (totalPages === undefined) return;
    const clamped = clampPage(query.page, totalPages);
    if (clamped !== query.page)
      setSearchParams(usersQueryToSearch({ ...query, page: clamped }), { replace: true });
  }, [totalPages, query, setSearchParams]);

  const action = useAccessAction();
  const [actionResult, setActionResult] = useState<ActionResultMessage | null>(null);
  const handleAccessAction = (email: string, accessAction: AccessAction) => {
    setActionResult(null);
    action.mutate(
      { email, action: accessAction },
      {
        onSuccess: (result) => setActionResult(describeActionResult(result)),
        onError: (error) => setActionResult(actionErrorAlert(error)),
      },
    );
  };

  const refetch = () => void usersQuery.refetch();
  return (
    <UsersView
      list={list}
      query={{ ...query, filters }}
      actionResult={actionResult}
      pendingActionEmail={action.isPending ? (action.variables?.email ?? null) : null}
      onFiltersChange={handleFiltersChange}
      onClearAll={handleClearAll}
      onSortChange={(key) => navigate({ ...query, page: 1, sort: nextSort(query.sort, key) })}
      onPageChange={(page) => navigate({ ...query, page })}
      onPageSizeChange={(size) => navigate(withPageSize(query, size))}
      onRefresh={refetch}
      onRetry={refetch}
      onAccessAction={handleAccessAction}
      onDismissActionResult={() => setActionResult(null)}
    />
  );
}

export default UsersScreen;
