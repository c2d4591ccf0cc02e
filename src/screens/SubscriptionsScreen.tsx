/**
 * The Subscriptions screen's container (§2 Subscriptions, §4, §8): the list runs on the shared
 * URL-synced list hook; the detail drawer loads the open row's detail, for ClickBank the
 * customer's orders, and the customer's newest audit rows (GET /audit?target=<email>).
 *
 * §4 "the list reloads on any change of page, size, sort or filters": the list query has
 * staleTime 0 rather than the console's 30 s, so returning to a sort or page seen moments ago
 * shows the cached rows and asks again; a new page keeps the previous rows on screen while it
 * loads. The drawer's detail and orders keep the 30 s (reopening a row is not a list change).
 */
import { useState } from 'react';
import { auditErrorMessage, useCustomerAudit } from '../api/audit';
import {
  subscriptionsErrorMessage,
  subscriptionsQueryOptions,
  useClickbankOrders,
  useSubscriptionDetail,
  type SubscriptionDetailKey,
} from '../api/subscriptions';
import { SubscriptionsView } from '../components/SubscriptionsView';
import { auditPathForTarget, type AuditPage } from '../domain/audit';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { SUBSCRIPTIONS_LIST } from '../domain/query';
import { isClickbank } from '../domain/providers';
import type {
  AsyncState,
  MarketplaceOrder,
  SubscriptionDetail,
  SubscriptionRow,
} from '../domain/types';
import { listViewProps, useServerList } from './useServerList';

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
  const auditEmail = openRow?.email?.trim() || null;
  const auditQuery = useCustomerAudit(auditEmail);

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

  let auditRows: AsyncState<AuditPage>;
  if (auditEmail === null || (auditQuery.isSuccess && auditQuery.data.rows.length === 0))
    auditRows = { status: 'empty' };
  else if (auditQuery.isError)
    auditRows = { status: 'error', message: auditErrorMessage(auditQuery.error) };
  else if (!auditQuery.isSuccess) auditRows = { status: 'loading' };
  else auditRows = { status: 'ready', data: auditQuery.data };
  const audit = { rows: auditRows, allRowsPath: auditPathForTarget(auditEmail ?? '') };

  return (
    <SubscriptionsView
      {...listViewProps(list)}
      drawer={{ openRow, detail, orders, audit }}
      onOpenDetails={setOpenRow}
      onCloseDetails={() => setOpenRow(null)}
    />
  );
}

export default SubscriptionsScreen;
