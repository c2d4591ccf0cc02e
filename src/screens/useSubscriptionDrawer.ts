/**
 * The subscription detail drawer's loads (§2 Subscriptions, §7): which row is open, its detail,
 * for ClickBank the customer's orders, and the customer's newest audit rows (GET
 * /audit?target=<email>). The Subscriptions screen and the customer page share it.
 */
import { useState } from 'react';
import { auditErrorMessage, useCustomerAudit } from '../api/audit';
import {
  useClickbankOrders,
  useSubscriptionDetail,
  type SubscriptionDetailKey,
} from '../api/subscriptions';
import type { SubscriptionDrawerState } from '../components/SubscriptionsView';
import { auditPathForTarget, type AuditPage } from '../domain/audit';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { isClickbank } from '../domain/providers';
import type {
  AsyncState,
  MarketplaceOrder,
  SubscriptionDetail,
  SubscriptionRow,
} from '../domain/types';

/** Which detail the drawer asks for (§7): by provider and its id when known, else by email. */
function detailKeyOf(row: SubscriptionRow): SubscriptionDetailKey {
  return row.provider && row.providerId
    ? { provider: row.provider, providerId: row.providerId }
    : { email: row.email };
}

/** The drawer's state and how to open and close it. */
export interface SubscriptionDrawerControl {
  drawer: SubscriptionDrawerState;
  open: (row: SubscriptionRow) => void;
  close: () => void;
}

/** Hook: the drawer's open row and its three loads, as SubscriptionDrawer shows them. */
export function useSubscriptionDrawer(): SubscriptionDrawerControl {
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

  return {
    drawer: { openRow, detail, orders, audit },
    open: setOpenRow,
    close: () => setOpenRow(null),
  };
}
