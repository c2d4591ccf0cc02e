/**
 * The Subscriptions screen's container (§2 Subscriptions, §4, §8): the list runs on the shared
 * URL-synced list hook; the detail drawer loads the open row's detail and, for ClickBank, the
 * customer's orders.
 */
import { useState } from 'react';
import {
  subscriptionsErrorMessage,
  subscriptionsQueryOptions,
  useClickbankOrders,
  useSubscriptionDetail,
  type SubscriptionDetailKey,
} from '../api/subscriptions';
import { SubscriptionsView } from '../components/SubscriptionsView';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { SUBSCRIPTIONS_LIST } from '../domain/query';
import { isClickbank } from '../domain/providers';
import type {
  AsyncState,
  MarketplaceOrder,
  SubscriptionDetail,
  SubscriptionRow,
} from '../domain/types';
import { useServerList } from './useServerList';

/** Which detail the drawer asks for (§7): by provider and its id when known, else by email. */
function detailKeyOf(row: SubscriptionRow): SubscriptionDetailKey {
  return row.provider && row.providerId
    ? { provider: row.provider, providerId: row.providerId }
    : { email: row.email };
}

/** The /subscriptions route's screen. */
export function SubscriptionsScreen() {
  const list = useServerList({
    spec: SUBSCRIPTIONS_LIST,
    queryOptions: subscriptionsQueryOptions,
    errorMessage: subscriptionsErrorMessage,
  });

  const [openRow, setOpenRow] = useState<SubscriptionRow | null>(null);
  const detailQuery = useSubscriptionDetail(openRow ? detailKeyOf(openRow) : null);
  const ordersEmail = openRow && isClickbank(openRow.provider) ? openRow.email : null;
  const ordersQuery = useClickbankOrders(ordersEmail);

  let detail: AsyncState<SubscriptionDetail>;
  if (detailQuery.isError) detail = { status: 'error', message: MESSAGES.details };
  else if (detailQuery.isSuccess) detail = { status: 'ready', data: detailQuery.data };
  else detail = { status: 'loading' };

  let orders: AsyncState<readonly MarketplaceOrder[]>;
  if (ordersEmail === null) orders = { status: 'empty' };
  else if (ordersQuery.isError)
    orders = {
      status: 'error',
      message: errorMessageOr(ordersQuery.error, MESSAGES.clickbankOrders),
    };
  else if (!ordersQuery.isSuccess) orders = { status: 'loading' };
  else if (ordersQuery.data.length === 0) orders = { status: 'empty' };
  else orders = { status: 'ready', data: ordersQuery.data };

  return (
    <SubscriptionsView
      list={list.list}
      page={list.query.page}
      pageSize={list.query.pageSize}
      totalPages={list.totalPages}
      sort={list.query.sort}
      filters={list.filters}
      isRefreshing={list.isRefreshing}
      drawer={{ openRow, detail, orders }}
      onPageChange={list.setPage}
      onPageSizeChange={list.setPageSize}
      onSortChange={list.toggleSort}
      onFiltersChange={list.setFilters}
      onClearAll={list.clearFilters}
      onRefresh={list.refetch}
      onOpenDetails={setOpenRow}
      onCloseDetails={() => setOpenRow(null)}
    />
  );
}

export default SubscriptionsScreen;
