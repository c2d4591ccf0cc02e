/**
 * GET /customers/:email (docs/api.md "Customers"): one customer, whole — the header facts, every
 * subscription on both providers, the ClickBank orders, the money movements with a lifetime total
 * in the reporting currency, and the forum side (./forum.ts).
 *
 * Where each part comes from:
 * - header: the customer row; access (mg_status, expires_at) from the member row; provider_status,
 *   cadence and current_period_end from the member's subscription, else the customer's latest.
 *   mg_status_label is null, as on GET /users (the console derives the label).
 * - payments: the subscription lifecycle rows that carry money (new → 'payment', renewal →
 *   'renewal', refund → 'refund', or 'chargeback' when the ISR row recorded at the same instant
 *   says so), the same rows the revenue figures read. `reference` is that ISR row's order id
 *   (LemonSqueezy) or receipt (ClickBank), else for the first payment the subscription's own order
 *   id or initial receipt.
 * - lifetime_revenue_cents: payments minus refunds and chargebacks over the whole history (not only
 *   the 200 listed), each currency converted with FX_RATES and rounded once; a currency without a
 *   rate is left out.
 */
import type { AppDeps } from '../context';
import type { Queryable } from '../db/types';
import { iso } from '../access/params';
import { reportingRate } from '../fx';
import { PROVIDERS } from '../vocabulary';
import type { SubscriptionRowJson } from '../routes/subscriptions';
import { customerForum, forumJobsOf, type CustomerForumJson } from './forum';

/** At most this many payments (newest first) are listed. */
export const CUSTOMER_PAYMENTS = 200;
/** At most this many ClickBank orders (newest first) are listed. */
export const CUSTOMER_ORDERS = 200;

/** The `customer` object of GET /customers/:email. Instants ISO UTC or null. */
export interface CustomerSummaryJson {
  email: string;
  name: string | null;
  /** Providers with a subscription or an order of this customer, in PROVIDERS order. */
  providers: string[];
  mg_status: string | null;
  mg_status_label: string | null;
  provider_status: string | null;
  cadence: string | null;
  /** When forum access ends; null when open-ended or without a member row. */
  expires_at: string | null;
  current_period_end: string | null;
  created_at: string | null;
  /** Net lifetime revenue in integer cents of `currency`. */
  lifetime_revenue_cents: number;
  /** The reporting currency (REPORTING_CURRENCY). */
  currency: string;
}

/** One ClickBank order of the customer. `transaction_type` is the receipt's latest transaction. */
export interface CustomerOrderJson {
  receipt: string;
  transaction_type: string;
  product: string | null;
  amount_cents: number | null;
  currency: string | null;
  affiliate: string | null;
  /** The order's time at ClickBank, ISO UTC. */
  at: string;
}

/** One money movement. `amount_cents` is positive in `currency`; `kind` gives the direction. */
export interface CustomerPaymentJson {
  at: string;
  kind: 'payment' | 'renewal' | 'refund' | 'chargeback';
  provider: string;
  amount_cents: number;
  currency: string;
  reference: string | null;
  /** The provider's subscription id (ClickBank: the initial receipt). */
  subscription_id: string | null;
}

/** The GET /customers/:email answer. */
export interface CustomerRecordJson {
  customer: CustomerSummaryJson;
  subscriptions: SubscriptionRowJson[];
  orders: CustomerOrderJson[];
  payments: CustomerPaymentJson[];
  forum: CustomerForumJson;
}

interface HeaderRow {
  id: number;
  email: string;
  name: string | null;
  created_at: Date;
  mg_status: string | null;
  expires_at: Date | null;
  provider_status: string | null;
  cadence: string | null;
  current_period_end: Date | null;
  has_orders: boolean;
}

/** The customer `email` (lower case) → its id and email, or null when there is no such customer. */
export async function findCustomer(
  db: Queryable,
  email: string,
): Promise<{ id: number; email: string } | null> {
  const r = await db.query<{ id: number; email: string }>(
    'SELECT id, email FROM customers WHERE email = $1',
    [email],
  );
  const row = r.rows[0];
  return row ? { id: Number(row.id), email: row.email } : null;
}

/**
 * Loads the whole record of the customer `email` (lower case) at `deps.now()` → the answer, or
 * null when no customer has that email.
 */
export async function customerRecord(
  deps: AppDeps,
  email: string,
): Promise<CustomerRecordJson | null> {
  const { db, config } = deps;
  const header = await db.query<HeaderRow>(
    `SELECT c.id, c.email, c.name, c.created_at, m.mg_status, m.expires_at,
            s.status AS provider_status, s.cadence, s.current_period_end,
            EXISTS (SELECT 1 FROM clickbank_orders o WHERE o.email = c.email) AS has_orders
       FROM customers c
       LEFT JOIN members m ON m.customer_id = c.id
       LEFT JOIN LATERAL (
         SELECT s.status, s.cadence, s.current_period_end FROM subscriptions s
          WHERE s.customer_id = c.id
          ORDER BY (s.id = m.subscription_id) DESC NULLS LAST, s.start_date DESC, s.id DESC
          LIMIT 1) s ON true
      WHERE c.email = $1`,
    [email],
  );
  const h = header.rows[0];
  if (!h) return null;
  const customerId = Number(h.id);

  const subs = await db.query<{
    row_id: number;
    provider: string;
    provider_id: string;
    status: string;
    cadence: string;
    start_date: Date | null;
    current_period_end: Date | null;
    expires_at: Date | null;
    amount: number | null;
    currency: string;
    updated_at: Date | null;
  }>(
    `SELECT s.id AS row_id, s.provider, s.provider_id, s.status, s.cadence, s.start_date,
            s.current_period_end, s.ends_at AS expires_at, s.amount_cents AS amount, s.currency,
            s.updated_at
       FROM subscriptions s WHERE s.customer_id = $1
      ORDER BY s.start_date DESC, s.id DESC`,
    [customerId],
  );
  const subscriptions: SubscriptionRowJson[] = subs.rows.map((r) => ({
    row_id: Number(r.row_id),
    email: h.email,
    name: h.name,
    provider: r.provider,
    provider_id: r.provider_id,
    status: r.status,
    cadence: r.cadence,
    start_date: iso(r.start_date),
    current_period_end: iso(r.current_period_end),
    expires_at: iso(r.expires_at),
    amount: r.amount === null ? null : Number(r.amount),
    currency: r.currency,
    updated_at: iso(r.updated_at),
  }));

  const orderRows = await db.query<{
    receipt: string;
    status: string | null;
    title: string | null;
    sku: string | null;
    amount_cents: number | null;
    currency: string | null;
    affiliate: string | null;
    created_at_provider: Date;
  }>(
    `SELECT receipt, status, title, sku, amount_cents, currency, affiliate, created_at_provider
       FROM clickbank_orders WHERE email = $1
      ORDER BY created_at_provider DESC, id DESC LIMIT ${CUSTOMER_ORDERS}`,
    [email],
  );
  const orders: CustomerOrderJson[] = orderRows.rows.map((o) => ({
    receipt: o.receipt,
    transaction_type: o.status ?? '',
    product: o.title ?? o.sku,
    amount_cents: o.amount_cents === null ? null : Number(o.amount_cents),
    currency: o.currency,
    affiliate: o.affiliate,
    at: iso(o.created_at_provider) ?? '',
  }));

  const payments = await paymentsOf(db, customerId, email);
  const lifetime = await lifetimeRevenueCents(deps, customerId);

  const jobs = await forumJobsOf(db, email);
  const forum = customerForum(jobs, h.mg_status === 'active');

  const present = new Set(subscriptions.map((s) => s.provider));
  if (h.has_orders) present.add('clickbank');
  return {
    customer: {
      email: h.email,
      name: h.name,
      providers: PROVIDERS.filter((p) => present.has(p)),
      mg_status: h.mg_status,
      mg_status_label: null,
      provider_status: h.provider_status,
      cadence: h.cadence,
      expires_at: iso(h.expires_at),
      current_period_end: iso(h.current_period_end),
      created_at: iso(h.created_at),
      lifetime_revenue_cents: lifetime,
      currency: config.reportingCurrency,
    },
    subscriptions,
    orders,
    payments,
    forum,
  };
}

/** The columns of a lifecycle row that matchingIsrSql reads (SQL expressions). */
export interface LifecycleColumns {
  type: string;
  occurredAt: string;
  provider: string;
}

/**
 * SQL of a LATERAL join (alias `i`: kind, reference) of the ISR row recorded for a lifecycle row
 * (its columns `c`) at the same instant, of the same direction; `email` is the placeholder of the
 * customer's email. Its `kind` tells a chargeback from a refund and its `reference` (LemonSqueezy:
 * the order id; ClickBank: the receipt) names the payment.
 */
export function matchingIsrSql(email: string, c: LifecycleColumns): string {
  return `LEFT JOIN LATERAL (
      SELECT i.kind, CASE WHEN ${c.provider} = 'clickbank' THEN i.receipt ELSE i.order_id END AS reference
        FROM isr_events i
       WHERE i.customer_email = ${email} AND i.created_at = ${c.occurredAt} AND i.source = ${c.provider}
         AND i.kind = ANY (CASE WHEN ${c.type} = 'refund' THEN ARRAY['refund', 'chargeback']
                                ELSE ARRAY['sale', 'rebill'] END)
       ORDER BY i.id LIMIT 1) i ON true`;
}

/** The CUSTOMER_PAYMENTS newest money movements of the customer (see the module doc). */
async function paymentsOf(
  db: Queryable,
  customerId: number,
  email: string,
): Promise<CustomerPaymentJson[]> {
  const r = await db.query<{
    type: 'new' | 'renewal' | 'refund';
    occurred_at: Date;
    amount_cents: number;
    currency: string;
    provider: string;
    provider_id: string;
    first_reference: string | null;
    isr_kind: string | null;
    reference: string | null;
  }>(
    // The page of rows first, from the events alone; the subscription's columns (its payload is
    // large) and the ISR match only for the rows listed.
    `SELECT x.type, x.occurred_at, x.amount_cents, COALESCE(x.currency, s.currency) AS currency,
            s.provider, s.provider_id,
            CASE WHEN x.type <> 'new' THEN NULL
                 WHEN s.provider = 'clickbank' THEN s.provider_id
                 ELSE s.payload -> 'attributes' ->> 'order_id' END AS first_reference,
            i.kind AS isr_kind, i.reference
       FROM (SELECT e.id, e.subscription_id, e.type, e.occurred_at, e.amount_cents, e.currency
               FROM subscription_events e
              WHERE e.subscription_id IN (SELECT id FROM subscriptions WHERE customer_id = $1)
                AND e.type IN ('new', 'renewal', 'refund')
                AND e.amount_cents IS NOT NULL AND e.amount_cents <> 0
              ORDER BY e.occurred_at DESC, e.id DESC
              LIMIT ${CUSTOMER_PAYMENTS}) x
       JOIN subscriptions s ON s.id = x.subscription_id
       ${matchingIsrSql('$2', { type: 'x.type', occurredAt: 'x.occurred_at', provider: 's.provider' })}
      ORDER BY x.occurred_at DESC, x.id DESC`,
    [customerId, email],
  );
  return r.rows.map((p) => ({
    at: iso(p.occurred_at) ?? '',
    kind:
      p.type === 'new'
        ? 'payment'
        : p.type === 'renewal'
          ? 'renewal'
          : p.isr_kind === 'chargeback'
            ? 'chargeback'
            : 'refund',
    provider: p.provider,
    amount_cents: Math.abs(Number(p.amount_cents)),
    currency: p.currency,
    reference: p.reference ?? p.first_reference,
    subscription_id: p.provider_id,
  }));
}

/** Net lifetime revenue of the customer in integer cents of the reporting currency (module doc). */
async function lifetimeRevenueCents(deps: AppDeps, customerId: number): Promise<number> {
  const r = await deps.db.query<{ currency: string; cents: number }>(
    `SELECT COALESCE(e.currency, s.currency) AS currency,
            sum(CASE WHEN e.type = 'refund' THEN -abs(e.amount_cents) ELSE e.amount_cents END)::float8 AS cents
       FROM (SELECT id, currency FROM subscriptions WHERE customer_id = $1) s
       JOIN subscription_events e ON e.subscription_id = s.id
      WHERE e.type IN ('new', 'renewal', 'refund') AND e.amount_cents IS NOT NULL
      GROUP BY 1`,
    [customerId],
  );
  let total = 0;
  for (const row of r.rows) {
    const rate = reportingRate(deps.config, row.currency);
    if (rate !== null) total += Number(row.cents) * rate;
  }
  return Math.round(total);
}
