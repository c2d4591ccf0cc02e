/**
 * Small SQL fixtures for route tests: customers, subscriptions (with a LemonSqueezy-shaped
 * payload), members, subscription events and ClickBank orders. Each helper inserts one row and
 * returns its id. Instants are ISO strings (UTC); money is integer cents.
 */
import type { Db } from '../db/types';

/** A LemonSqueezy subscription object as its API returns it (the public "JSON Example"), for `id`. */
export function lemonSqueezyObject(
  id: string,
  attrs: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'subscriptions',
    id,
    attributes: {
      store_id: 1,
      customer_id: 1,
      order_id: 1,
      order_item_id: 1,
      product_id: 1,
      variant_id: 1,
      product_name: 'Lemonade',
      variant_name: 'Citrus Blast',
      user_name: 'John Doe',
      user_email: 'johndoe@example.com',
      status: 'active',
      status_formatted: 'Active',
      card_brand: 'visa',
      card_last_four: '4242',
      payment_processor: 'stripe',
      pause: null,
      cancelled: false,
      trial_ends_at: null,
      billing_anchor: 12,
      first_subscription_item: {
        id: 1,
        subscription_id: 1,
        price_id: 1,
        quantity: 5,
        created_at: '2021-08-11T13:47:28.000000Z',
        updated_at: '2021-08-11T13:47:28.000000Z',
      },
      urls: {
        update_payment_method:
          'https://my-store.lemonsqueezy.com/subscription/1/payment-details?expires=1666869343&signature=9985',
        customer_portal:
          'https://my-store.lemonsqueezy.com/billing?expires=1666869343&signature=82ae',
      },
      renews_at: '2022-11-12T00:00:00.000000Z',
      ends_at: null,
      created_at: '2021-08-11T13:47:27.000000Z',
      updated_at: '2021-08-11T13:54:19.000000Z',
      test_mode: false,
      ...attrs,
    },
  };
}

async function insertReturningId(db: Db, sql: string, params: unknown[]): Promise<number> {
  const r = await db.query<{ id: number }>(sql, params);
  const id = r.rows[0]?.id;
  if (id === undefined) throw new Error('insert returned no id');
  return Number(id);
}

/** Inserts a customer → id. */
export function insertCustomer(db: Db, email: string, name: string | null = null): Promise<number> {
  return insertReturningId(db, 'INSERT INTO customers (email, name) VALUES ($1, $2) RETURNING id', [
    email,
    name,
  ]);
}

/** Subscription columns a test may set; the rest get plain defaults. */
export interface SubscriptionFixture {
  customerId: number;
  provider?: 'lemonsqueezy' | 'clickbank';
  providerId: string;
  status?: string;
  cadence?: 'monthly' | 'yearly';
  plan?: string;
  amountCents?: number | null;
  currency?: string;
  startDate: string;
  currentPeriodEnd?: string | null;
  endsAt?: string | null;
  payload?: unknown;
  createdAt?: string;
  updatedAt?: string;
}

/** Inserts a subscription → id. */
export function insertSubscription(db: Db, s: SubscriptionFixture): Promise<number> {
  return insertReturningId(
    db,
    `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, amount_cents, currency,
       start_date, current_period_end, ends_at, payload, created_at, updated_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING id`,
    [
      s.customerId,
      s.provider ?? 'lemonsqueezy',
      s.providerId,
      s.status ?? 'active',
      s.cadence ?? 'monthly',
      s.plan ?? 'pro',
      s.amountCents === undefined ? 1000 : s.amountCents,
      s.currency ?? 'USD',
      s.startDate,
      s.currentPeriodEnd ?? null,
      s.endsAt ?? null,
      JSON.stringify(s.payload ?? {}),
      s.createdAt ?? s.startDate,
      s.updatedAt ?? s.startDate,
    ],
  );
}

/** Inserts a member (forum access row) → id. */
export function insertMember(
  db: Db,
  m: {
    customerId: number;
    subscriptionId: number | null;
    mgStatus: 'active' | 'cancelled';
    expiresAt?: string | null;
    updatedAt: string;
  },
): Promise<number> {
  return insertReturningId(
    db,
    `INSERT INTO members (customer_id, subscription_id, mg_status, expires_at, updated_at)
     VALUES ($1,$2,$3,$4,$5) RETURNING id`,
    [m.customerId, m.subscriptionId, m.mgStatus, m.expiresAt ?? null, m.updatedAt],
  );
}

/** Inserts a subscription event → id. */
export function insertEvent(
  db: Db,
  e: {
    subscriptionId: number;
    type: string;
    occurredAt: string;
    amountCents?: number | null;
    currency?: string | null;
  },
): Promise<number> {
  return insertReturningId(
    db,
    `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
     VALUES ($1,$2,$3,$4,$5) RETURNING id`,
    [e.subscriptionId, e.type, e.occurredAt, e.amountCents ?? null, e.currency ?? null],
  );
}

/** ClickBank order columns a test may set (§3 Marketplace order record). */
export interface OrderFixture {
  subscriptionId: number | null;
  email: string;
  receipt: string;
  createdAtProvider: string;
  sku?: string | null;
  status?: string | null;
  title?: string | null;
  site?: string | null;
  affiliate?: string | null;
  country?: string | null;
  state?: string | null;
  postalCode?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  customerDisplayName?: string | null;
  customerRefundableState?: string | null;
  currency?: string | null;
  amountCents?: number | null;
  rebillAmountCents?: number | null;
  accountAmountCents?: number | null;
  nextPaymentAt?: string | null;
  rawJson?: unknown;
}

/** Inserts a ClickBank order → id. */
export function insertOrder(db: Db, o: OrderFixture): Promise<number> {
  return insertReturningId(
    db,
    `INSERT INTO clickbank_orders (subscription_id, email, receipt, sku, status, title, site, affiliate, country,
       state, postal_code, first_name, last_name, customer_display_name, customer_refundable_state, currency,
       amount_cents, rebill_amount_cents, account_amount_cents, next_payment_at, created_at_provider, raw_json)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22) RETURNING id`,
    [
      o.subscriptionId,
      o.email,
      o.receipt,
      o.sku ?? null,
      o.status ?? null,
      o.title ?? null,
      o.site ?? null,
      o.affiliate ?? null,
      o.country ?? null,
      o.state ?? null,
      o.postalCode ?? null,
      o.firstName ?? null,
      o.lastName ?? null,
      o.customerDisplayName ?? null,
      o.customerRefundableState ?? null,
      o.currency ?? null,
      o.amountCents ?? null,
      o.rebillAmountCents ?? null,
      o.accountAmountCents ?? null,
      o.nextPaymentAt ?? null,
      o.createdAtProvider,
      JSON.stringify(o.rawJson ?? {}),
    ],
  );
}
