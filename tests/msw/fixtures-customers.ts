/**
 * Customer page and search fixtures (docs/api.md "Customers", "Search"), as the reference server
 * sends them: John Doe on both providers (a LemonSqueezy subscription and a ClickBank order with
 * its refund), payments in two currencies, a failed forum job, and a timeline of every kind.
 */
import { normaliseCustomer, normaliseTimeline } from '../../src/api/customers';
import type { CustomerRecord, TimelineItem } from '../../src/domain/customer';
import { SUBSCRIPTION_ROWS, isoAt, type SubscriptionRowWire } from './fixtures';

const JOHN_LS = SUBSCRIPTION_ROWS[0]!;
const JOHN_CB: SubscriptionRowWire = {
  ...SUBSCRIPTION_ROWS[1]!,
  row_id: 90,
  email: 'johndoe@example.com',
  name: 'John Doe',
  provider_id: 'JD7Q2M9P',
  status: 'cancelled',
  start_date: isoAt(-300),
  current_period_end: isoAt(-30),
  expires_at: isoAt(-30),
  amount: 4700,
  currency: 'EUR',
};

/** GET /customers/johndoe@example.com. */
export const CUSTOMER_WIRE = {
  customer: {
    email: 'johndoe@example.com',
    name: 'John Doe',
    providers: ['lemonsqueezy', 'clickbank'],
    mg_status: 'active',
    mg_status_label: null,
    provider_status: 'active',
    cadence: 'monthly',
    expires_at: null,
    current_period_end: JOHN_LS.current_period_end,
    created_at: isoAt(-300),
    lifetime_revenue_cents: 14_593,
    currency: 'USD',
  },
  subscriptions: [JOHN_LS, JOHN_CB],
  orders: [
    {
      receipt: 'JD7Q2M9P',
      transaction_type: 'RFND',
      product: 'mg-monthly',
      amount_cents: 4700,
      currency: 'EUR',
      affiliate: 'topaffiliate',
      at: isoAt(-31, 15),
    },
    {
      receipt: 'JD7Q2M9P',
      transaction_type: 'SALE',
      product: 'mg-monthly',
      amount_cents: 4700,
      currency: 'EUR',
      affiliate: 'topaffiliate',
      at: isoAt(-300, 15),
    },
  ],
  payments: [
    {
      at: isoAt(-8),
      kind: 'renewal',
      provider: 'lemonsqueezy',
      amount_cents: 999,
      currency: 'USD',
      reference: 'inv_4411',
      subscription_id: '1',
    },
    {
      at: isoAt(-31, 15),
      kind: 'refund',
      provider: 'clickbank',
      amount_cents: 4700,
      currency: 'EUR',
      reference: 'JD7Q2M9P',
      subscription_id: 'JD7Q2M9P',
    },
    {
      at: isoAt(-100),
      kind: 'payment',
      provider: 'lemonsqueezy',
      amount_cents: 999,
      currency: 'USD',
      reference: 'ord_1001',
      subscription_id: '1',
    },
    {
      at: isoAt(-300, 15),
      kind: 'payment',
      provider: 'clickbank',
      amount_cents: 4700,
      currency: 'EUR',
      reference: 'JD7Q2M9P',
      subscription_id: 'JD7Q2M9P',
    },
  ],
  forum: {
    state: 'member',
    username: 'johndoe',
    jobs: [
      {
        id: 41,
        op: 'grant',
        status: 'failed',
        attempts: 8,
        last_error: 'Discourse 502: Bad Gateway',
        created_at: isoAt(-1),
        updated_at: isoAt(-1, 11),
        next_attempt_at: null,
      },
      {
        id: 37,
        op: 'invite',
        status: 'sent',
        attempts: 1,
        last_error: null,
        created_at: isoAt(-100),
        updated_at: isoAt(-100),
        next_attempt_at: null,
      },
    ],
    invites: [],
  },
};

/** CUSTOMER_WIRE as the console reads it. */
export const CUSTOMER: CustomerRecord = normaliseCustomer(CUSTOMER_WIRE);

/** A customer with nothing yet: no subscription, order, payment, job or timeline. */
export const NEW_CUSTOMER_WIRE = {
  customer: {
    email: 'new.customer@example.com',
    name: null,
    providers: [],
    mg_status: null,
    provider_status: null,
    expires_at: null,
    current_period_end: null,
    created_at: isoAt(0, 8),
    lifetime_revenue_cents: 0,
    currency: 'USD',
  },
  subscriptions: [],
  orders: [],
  payments: [],
  forum: { state: 'none', username: null, jobs: [], invites: [] },
};

/** NEW_CUSTOMER_WIRE as the console reads it. */
export const NEW_CUSTOMER: CustomerRecord = normaliseCustomer(NEW_CUSTOMER_WIRE);

/** One timeline entry of each kind for John Doe, newest first (wire). */
export const TIMELINE_WIRE_ITEMS = [
  {
    id: 'access:9',
    at: isoAt(0, 10),
    kind: 'access',
    title: 'Access revoked now',
    detail: { action: 'revoke_now', outcome: 'ok' },
    actor: 'support@example.com',
  },
  {
    id: 'forum:41',
    at: isoAt(-1, 11),
    kind: 'forum',
    title: 'Forum grant failed after 8 attempts',
    detail: { job: 41, error: 'Discourse 502: Bad Gateway' },
    actor: 'system',
  },
  {
    id: 'webhook:812',
    at: isoAt(-8, 9),
    kind: 'webhook',
    title: 'LemonSqueezy subscription_payment_success applied',
    detail: { provider: 'lemonsqueezy', event: 'subscription_payment_success', outcome: 'applied' },
    actor: 'webhook',
  },
  {
    id: 'payment:4411',
    at: isoAt(-8, 9),
    kind: 'payment',
    title: 'Renewal $9.99',
    detail: { amount_cents: 999, currency: 'USD', reference: 'inv_4411' },
    actor: 'webhook',
  },
  {
    id: 'refund:JD7Q2M9P',
    at: isoAt(-31, 15),
    kind: 'refund',
    title: 'Refund €47.00 (ClickBank RFND)',
    detail: { receipt: 'JD7Q2M9P', amount_cents: 4700, currency: 'EUR' },
    actor: 'webhook',
  },
  {
    id: 'subscription:106:2',
    at: isoAt(-100),
    kind: 'subscription',
    title: 'Subscription 1 became active',
    detail: { from: 'on_trial', to: 'active' },
    actor: 'webhook',
  },
  {
    id: 'isr:77',
    at: isoAt(-101, 20),
    kind: 'isr',
    title: 'ISR checkout_started from topaffiliate',
    detail: { source: 'clickbank', affiliate: 'topaffiliate', campaign: 'spring' },
    actor: null,
  },
  {
    id: 'log:5521',
    at: isoAt(-101, 21),
    kind: 'log',
    title: 'LemonSqueezy webhook processed',
    detail: { level: 'info', event: 'subscription_created' },
    actor: 'system',
  },
];

/** TIMELINE_WIRE_ITEMS as the console reads them. */
export const TIMELINE_ITEMS: readonly TimelineItem[] = normaliseTimeline({
  items: TIMELINE_WIRE_ITEMS,
}).items;

/**
 * `n` log-kind entries, one an hour going back from FIXTURE_NOW (the 5,000-event customer);
 * titles carry their number, so a play can tell pages apart.
 */
export function makeTimelineWireItems(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `log:${n - i}`,
    at: new Date(Date.parse(isoAt(0, 12)) - i * 3_600_000).toISOString(),
    kind: i % 3 === 0 ? 'webhook' : i % 3 === 1 ? 'payment' : 'log',
    title: `Event ${n - i}`,
    detail: { n: n - i },
    actor: i % 3 === 0 ? 'webhook' : 'system',
  }));
}

/** GET /search answers by query. */
export const SEARCH_RESULTS_WIRE = [
  {
    kind: 'receipt',
    label: 'JD7Q2M9P',
    email: 'johndoe@example.com',
    match: 'JD7Q2M9P',
    href: '/customers/johndoe%40example.com',
  },
  {
    kind: 'customer',
    label: 'johndoe@example.com',
    email: 'johndoe@example.com',
    match: 'johndoe@example.com',
    href: '/customers/johndoe%40example.com',
  },
  {
    kind: 'customer',
    label: 'John Doe',
    email: 'johndoe@example.com',
    match: 'John Doe',
    href: '/customers/johndoe%40example.com',
  },
  {
    kind: 'subscription',
    label: 'LemonSqueezy subscription 1',
    email: 'johndoe@example.com',
    match: '1',
    href: '/customers/johndoe%40example.com',
  },
  { kind: 'screen', label: 'Logs', email: null, match: 'Logs', href: '/logs' },
];
