/**
 * The Subscriptions screen's container (§2 Subscriptions, §4, §8): list state (page, size, sort,
 * filters) lives in the URL (each change pushes a history entry, so Back works); text filters are
 * debounced 300 ms through a local draft; the detail drawer loads the open row's detail and, for
 * ClickBank, the customer's orders.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  subscriptionsErrorMessage,
  useClickbankOrders,
  useSubscriptionDetail,
  useSubscriptions,
  type SubscriptionDetailKey,
} from '../api/subscriptions';
import { SubscriptionsView, type SubscriptionDrawerState } from '../components/SubscriptionsView';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import {
  emptySubscriptionsFilters,
  nextSort,
  subscriptionsQueryFromSearch,
  subscriptionsQueryToSearch,
  withPageSize,
  withSubscriptionsFilters,
} from '../domain/query';
import type {
  AsyncState,
  MarketplaceOrder,
  SubscriptionDetail,
  SubscriptionRow,
  SubscriptionsFilters,
  SubscriptionsPage,
  SubscriptionsQuery,
  SubscriptionSortKey,
} from '../domain/types';

/** Filters typed into text inputs: their URL update waits for a 300 ms pause (§4). */
const TEXT_FILTERS: readonly (keyof SubscriptionsFilters)[] = ['rowId', 'email', 'providerId'];
const DEBOUNCE_MS = 300;

function detailKeyOf(row: SubscriptionRow): SubscriptionDetailKey {
  return row.provider && row.providerId
    ? { provider: row.provider, providerId: row.providerId }
    : { email: row.email };
}

/** The /subscriptions route's screen. */
export function SubscriptionsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useMemo(() => subscriptionsQueryFromSearch(searchParams), [searchParams]);

  const navigate = useCallback(
    (next: SubscriptionsQuery) => {
      setSearchParams(subscriptionsQueryToSearch(next));
    },
    [setSearchParams],
  );

  // Local draft of the filter row; re-synced whenever the URL's filters change (e.g. Back).
  const urlFiltersKey = JSON.stringify(query.filters);
  const [draft, setDraft] = useState<{ source: string; filters: SubscriptionsFilters }>(() => ({
    source: urlFiltersKey,
    filters: query.filters,
  }));
  let filters = draft.filters;
  if (draft.source !== urlFiltersKey) {
    filters = query.filters;
    setDraft({ source: urlFiltersKey, filters: query.filters });
  }

  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPending = () => {
    if (timer.current !== null) {
      clearTimeout(timer.current);
      timer.current = null;
    }
  };
  useEffect(() => cancelPending, []);

  const handleFiltersChange = (next: SubscriptionsFilters) => {
    setDraft({ source: urlFiltersKey, filters: next });
    cancelPending();
    const textOnly = (Object.keys(next) as (keyof SubscriptionsFilters)[]).every(
      (field) => TEXT_FILTERS.includes(field) || next[field] === query.filters[field],
    );
    if (textOnly) {
      timer.current = setTimeout(() => {
        timer.current = null;
        navigate(withSubscriptionsFilters(query, next));
      }, DEBOUNCE_MS);
    } else {
      navigate(withSubscriptionsFilters(query, next));
    }
  };

  const handleClearAll = () => {
    cancelPending();
    const cleared = emptySubscriptionsFilters();
    setDraft({ source: urlFiltersKey, filters: cleared });
    navigate(withSubscriptionsFilters(query, cleared));
  };

  const listQuery = useSubscriptions(query);
  let list: AsyncState<SubscriptionsPage>;
  if (listQuery.isPending || (listQuery.isFetching && listQuery.isPlaceholderData)) {
    list = { status: 'loading' };
  } else if (listQuery.isError) {
    list = { status: 'error', message: subscriptionsErrorMessage(listQuery.error) };
  } else if (listQuery.data.rows.length === 0) {
    list = { status: 'empty' };
  } else {
    list = { status: 'ready', data: listQuery.data };
  }

  const [openRow, setOpenRow] = useState<SubscriptionRow | null>(null);
  const detailQuery = useSubscriptionDetail(openRow ? detailKeyOf(openRow) : null);
  const ordersEmail =
    openRow && openRow.provider?.toLowerCase() === 'clickbank' ? openRow.email : null;
  const ordersQuery = useClickbankOrders(ordersEmail);

  let detail: AsyncState<SubscriptionDetail>;
  if (detailQuery.isError) detail = { status: 'error', message: MESSAGES.details };
  else if (detailQuery.isSuccess) detail = { status: 'ready', data: detailQuery.data };
  else detail = { status: 'loading' };

  let orders: AsyncState<readonly MarketplaceOrder[]>;
  if (ordersQuery.isError) {
    orders = {
      status: 'error',
      message: errorMessageOr(ordersQuery.error, MESSAGES.clickbankOrders),
    };
  } else if (ordersQuery.isSuccess) {
    orders =
      ordersQuery.data.length === 0 ? { status: 'empty' } : { status: 'ready', data: ordersQuery.data };
  } else if (ordersEmail === null) {
    orders = { status: 'empty' };
  } else {
    orders = { status: 'loading' };
  }

  const drawer: SubscriptionDrawerState = { openRow, detail, orders };

  return (
    <SubscriptionsView
      list={list}
      page={query.page}
      pageSize={query.pageSize}
      sort={query.sort}
      filters={filters}
      drawer={drawer}
      onPageChange={(page) => navigate({ ...query, page })}
      onPageSizeChange={(pageSize) => navigate(withPageSize(query, pageSize))}
      onSortChange={(key: SubscriptionSortKey) =>
        navigate({ ...query, page: 1, sort: nextSort(query.sort, key) })
      }
      onFiltersChange={handleFiltersChange}
      onClearAll={handleClearAll}
      onRefresh={() => void listQuery.refetch()}
      onOpenDetails={setOpenRow}
      onCloseDetails={() => setOpenRow(null)}
    />
  );
}

export default SubscriptionsScreen;
