/**
 * Deterministic fixture data in WIRE shape (snake_case, exactly as docs/api.md), shared by the
 * MSW handlers, Storybook screen stories, unit tests and dev. No randomness: every value derives
 * from the row index and the pinned story clock FIXTURE_NOW (2026-11-20T12:00:00Z, UTC).
 */
import lemonSqueezySubscription from './provider/lemonsqueezy-subscription.json';

/**
 * The one fixed clock (ISO 8601, UTC): .storybook/preview.tsx pins every story's `Date` to it, and
 * fixtures, handlers and stories derive their relative dates from it. Import it; never copy it.
 */
export const FIXTURE_NOW = '2026-11-20T12:00:00.000Z';
const NOW_MS = Date.parse(FIXTURE_NOW);
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** An ISO UTC instant `days` days (may be fractional or negative) from FIXTURE_NOW at `hour`:00. */
export function isoAt(days: number, hour = 9): string {
  const base = new Date(NOW_MS + days * DAY_MS);
  return new Date(
    Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), hour),
  ).toISOString();
}

/* ------------------------------------------------------------------------------------------ */
/* Wire types (docs/api.md)                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** GET /users row as sent. */
export interface UserRowWire {
  row_id: number;
  email: string;
  provider: string | null;
  provider_id: string | null;
  provider_status: string | null;
  mg_status: string | null;
  mg_status_label: string | null;
  cadence: string | null;
  start_date: string | null;
  expires_at: string | null;
  current_period_end: string | null;
  updated_at: string | null;
}

/** GET /subscriptions row as sent (amount in integer cents). */
export interface SubscriptionRowWire {
  row_id: number;
  email: string;
  name: string | null;
  provider: string | null;
  provider_id: string | null;
  status: string | null;
  cadence: string | null;
  start_date: string | null;
  current_period_end: string | null;
  expires_at: string | null;
  amount: number | null;
  currency: string | null;
  updated_at: string | null;
}

/** GET /clickbank/orders record as sent (§3 Marketplace order record). */
export interface ClickbankOrderWire {
  receipt: string;
  sku: string | null;
  status: string | null;
  title: string | null;
  site: string | null;
  affiliate: string | null;
  country: string | null;
  state: string | null;
  postal_code: string | null;
  first_name: string | null;
  last_name: string | null;
  customer_display_name: string | null;
  customer_refundable_state: string | null;
  currency: string | null;
  amount_cents: number | null;
  rebill_amount_cents: number | null;
  account_amount_cents: number | null;
  next_payment_at: string | null;
  created_at_provider: string | null;
  raw_json: unknown;
}

/* ------------------------------------------------------------------------------------------ */
/* Dashboard and status                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** GET /stats, exactly the docs/api.md example. */
export const STATS_WIRE = {
  currency: 'USD',
  mrr_cents: 1234500,
  arr_cents: 14814000,
  activeSubscribers: 812,
  activeMonthly: 640,
  activeYearly: 172,
  scheduledCancellations: 37,
  avgDaysRemaining: 41.7,
  newToday: 3,
  renewalsToday: 11,
  cancellationsToday: 1,
  totalSubscribers: 3000,
  totalRevenueCents: 98765400,
};

/** GET /stats from a backend with other spellings (§3 aliases, §5 money rule, no ARR). */
export const STATS_ALIASED_WIRE = {
  mrr: 123456,
  active_monthly: '640',
  active_yearly: 172,
  revoke_deferred_count: 37,
  average_days_remaining: '41.7',
  new_today: 3,
  renewals_today: 11,
  cancelsToday: 1,
};

/** GET /stats with zero all-time figures (the two all-time cards hidden) and no avg days. */
export const STATS_NO_ALL_TIME_WIRE = {
  ...STATS_WIRE,
  totalSubscribers: 0,
  totalRevenueCents: 0,
  avgDaysRemaining: null,
};

/** GET /status (§3 Admin stats; mrr/arr in cents). */
export const ADMIN_STATUS_WIRE = {
  db_ok: true,
  active_total: 812,
  active_monthly: 640,
  active_yearly: 172,
  scheduled_cancellations: 37,
  avg_days_remaining: 41.7,
  mrr: 1234500,
  arr: 14814000,
  pending_expire: 4,
  webhook_dedup_rows: 1289,
};

/* ------------------------------------------------------------------------------------------ */
/* Users                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * Eight hand-made users covering every §4 badge case: Active, Scheduled (active with a future
 * expiry), Cancelled, a label 'Active (cancels at period end)' (yellow), a label 'Expired' (red),
 * another label (grey), an unknown status (dash), and a trialing monthly user.
 */
export const USER_ROWS: UserRowWire[] = [
  {
    row_id: 17,
    email: 'ada@example.com',
    provider: 'lemonsqueezy',
    provider_id: '1',
    provider_status: 'active',
    mg_status: 'active',
    mg_status_label: null,
    cadence: 'monthly',
    start_date: '2026-03-12T09:00:00.000Z',
    expires_at: null,
    current_period_end: '2026-12-12T09:00:00.000Z',
    updated_at: '2026-11-20T11:30:00.000Z',
  },
  {
    row_id: 16,
    email: 'grace@example.com',
    provider: 'clickbank',
    provider_id: 'Q7XK2M9P',
    provider_status: 'active',
    mg_status: 'active',
    mg_status_label: null,
    cadence: 'monthly',
    start_date: '2026-09-18T14:05:00.000Z',
    expires_at: '2026-12-18T14:05:00.000Z',
    current_period_end: '2026-12-18T14:05:00.000Z',
    updated_at: '2026-11-20T10:15:00.000Z',
  },
  {
    row_id: 15,
    email: 'linus@example.com',
    provider: 'lemonsqueezy',
    provider_id: '2',
    provider_status: 'cancelled',
    mg_status: 'cancelled',
    mg_status_label: null,
    cadence: 'yearly',
    start_date: '2025-06-01T09:00:00.000Z',
    expires_at: '2026-06-01T09:00:00.000Z',
    current_period_end: '2026-06-01T09:00:00.000Z',
    updated_at: '2026-11-19T16:45:00.000Z',
  },
  {
    row_id: 14,
    email: 'margaret@example.com',
    provider: 'lemonsqueezy',
    provider_id: '3',
    provider_status: 'past_due',
    mg_status: 'active',
    mg_status_label: 'Active (cancels at period end)',
    cadence: 'monthly',
    start_date: '2026-01-20T09:00:00.000Z',
    expires_at: null,
    current_period_end: '2026-11-25T09:00:00.000Z',
    updated_at: '2026-11-19T08:00:00.000Z',
  },
  {
    row_id: 13,
    email: 'alan@example.com',
    provider: 'clickbank',
    provider_id: 'H3LP5RT2',
    provider_status: 'cancelled',
    mg_status: 'cancelled',
    mg_status_label: 'Expired',
    cadence: 'monthly',
    start_date: '2026-02-02T09:00:00.000Z',
    expires_at: '2026-10-02T09:00:00.000Z',
    current_period_end: null,
    updated_at: '2026-11-18T21:10:00.000Z',
  },
  {
    row_id: 12,
    email: 'barbara@example.com',
    provider: 'lemonsqueezy',
    provider_id: '4',
    provider_status: 'paused',
    mg_status: 'active',
    mg_status_label: 'Paused by operator',
    cadence: 'yearly',
    start_date: '2025-11-30T09:00:00.000Z',
    expires_at: null,
    current_period_end: '2026-11-30T09:00:00.000Z',
    updated_at: '2026-11-17T12:00:00.000Z',
  },
  {
    row_id: 11,
    email: 'edsger@example.com',
    provider: null,
    provider_id: null,
    provider_status: null,
    mg_status: null,
    mg_status_label: null,
    cadence: null,
    start_date: null,
    expires_at: null,
    current_period_end: null,
    updated_at: '2026-11-16T09:00:00.000Z',
  },
  {
    row_id: 10,
    email: 'katherine@example.com',
    provider: 'lemonsqueezy',
    provider_id: '5',
    provider_status: 'trialing',
    mg_status: 'active',
    mg_status_label: null,
    cadence: 'monthly',
    start_date: '2026-11-13T09:00:00.000Z',
    expires_at: null,
    current_period_end: '2026-11-27T09:00:00.000Z',
    updated_at: '2026-11-15T09:00:00.000Z',
  },
];

const STATUS_CYCLE = [
  'active',
  'active',
  'trialing',
  'active',
  'past_due',
  'active',
  'paused',
  'cancelled',
] as const;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * `n` generated users in wire shape, deterministic: row_id 1000 + i, emails
 * user0001@example.com…, every third on clickbank, every fourth yearly, a status cycle with
 * cancelled ones, every sixth active user scheduled to expire, updated_at one hour apart going
 * back from FIXTURE_NOW (so the default updated_at-descending order is the array order).
 */
export function makeUserRows(n: number): UserRowWire[] {
  return Array.from({ length: n }, (_, i): UserRowWire => {
    const clickbank = i % 3 === 2;
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length] ?? 'active';
    const cancelled = status === 'cancelled';
    const scheduled = !cancelled && i % 6 === 5;
    const yearly = i % 4 === 3;
    const start = isoAt(-(30 + i * 3));
    const periodEnd = isoAt((i % 28) + 1);
    return {
      row_id: 1000 + i,
      email: `user${pad(i + 1, 4)}@example.com`,
      provider: clickbank ? 'clickbank' : 'lemonsqueezy',
      provider_id: clickbank ? `CB${pad(i + 1, 6)}` : String(20000 + i),
      provider_status: status,
      mg_status: cancelled ? 'cancelled' : 'active',
      mg_status_label: null,
      cadence: yearly ? 'yearly' : 'monthly',
      start_date: start,
      expires_at: cancelled ? isoAt(-(i % 20) - 1) : scheduled ? periodEnd : null,
      current_period_end: periodEnd,
      updated_at: new Date(NOW_MS - (i + 1) * HOUR_MS).toISOString(),
    };
  });
}

/* ------------------------------------------------------------------------------------------ */
/* Subscriptions                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Six hand-made subscriptions, all in USD: both providers, both cadences, a missing amount. */
export const SUBSCRIPTION_ROWS: SubscriptionRowWire[] = [
  {
    row_id: 106,
    email: 'johndoe@example.com',
    name: 'John Doe',
    provider: 'lemonsqueezy',
    provider_id: '1',
    status: 'active',
    cadence: 'monthly',
    start_date: '2026-08-12T00:00:00.000Z',
    current_period_end: '2026-12-12T00:00:00.000Z',
    expires_at: null,
    amount: 999,
    currency: 'USD',
    updated_at: '2026-11-20T11:00:00.000Z',
  },
  {
    row_id: 105,
    email: 'grace@example.com',
    name: null,
    provider: 'clickbank',
    provider_id: 'Q7XK2M9P',
    status: 'active',
    cadence: 'monthly',
    start_date: '2026-09-18T14:05:00.000Z',
    current_period_end: '2026-12-18T14:05:00.000Z',
    expires_at: '2026-12-18T14:05:00.000Z',
    amount: 4700,
    currency: 'USD',
    updated_at: '2026-11-20T10:15:00.000Z',
  },
  {
    row_id: 104,
    email: 'linus@example.com',
    name: 'Linus Torvalds',
    provider: 'lemonsqueezy',
    provider_id: '2',
    status: 'cancelled',
    cadence: 'yearly',
    start_date: '2025-06-01T09:00:00.000Z',
    current_period_end: '2026-06-01T09:00:00.000Z',
    expires_at: '2026-06-01T09:00:00.000Z',
    amount: 9900,
    currency: 'USD',
    updated_at: '2026-11-19T16:45:00.000Z',
  },
  {
    row_id: 103,
    email: 'margaret@example.com',
    name: 'Margaret Hamilton',
    provider: 'lemonsqueezy',
    provider_id: '3',
    status: 'past_due',
    cadence: 'monthly',
    start_date: '2026-01-20T09:00:00.000Z',
    current_period_end: '2026-11-25T09:00:00.000Z',
    expires_at: null,
    amount: 999,
    currency: 'USD',
    updated_at: '2026-11-19T08:00:00.000Z',
  },
  {
    row_id: 102,
    email: 'barbara@example.com',
    name: 'Barbara Liskov',
    provider: 'lemonsqueezy',
    provider_id: '4',
    status: 'paused',
    cadence: 'yearly',
    start_date: '2025-11-30T09:00:00.000Z',
    current_period_end: '2026-11-30T09:00:00.000Z',
    expires_at: null,
    amount: null,
    currency: null,
    updated_at: '2026-11-17T12:00:00.000Z',
  },
  {
    row_id: 101,
    email: 'katherine@example.com',
    name: 'Katherine Johnson',
    provider: 'lemonsqueezy',
    provider_id: '5',
    status: 'trialing',
    cadence: 'monthly',
    start_date: '2026-11-13T09:00:00.000Z',
    current_period_end: '2026-11-27T09:00:00.000Z',
    expires_at: null,
    amount: 999,
    currency: 'USD',
    updated_at: '2026-11-15T09:00:00.000Z',
  },
];

/** SUBSCRIPTION_ROWS with two rows in EUR and GBP: the footer shows '— Mixed —' (§2). */
export const MIXED_CURRENCY_SUBSCRIPTION_ROWS: SubscriptionRowWire[] = SUBSCRIPTION_ROWS.map(
  (row, i) =>
    i === 0
      ? { ...row, currency: 'EUR', amount: 899 }
      : i === 2
        ? { ...row, currency: 'GBP' }
        : row,
);

/**
 * `n` generated subscriptions in wire shape, deterministic: row_id 5000 + n - i (the default
 * row_id-descending order is the array order), every third on clickbank, every fourth yearly
 * (9900 cents, else 999 or 4700 on clickbank), all USD.
 */
export function makeSubscriptionRows(n: number): SubscriptionRowWire[] {
  return Array.from({ length: n }, (_, i): SubscriptionRowWire => {
    const clickbank = i % 3 === 2;
    const yearly = i % 4 === 3;
    const status = STATUS_CYCLE[i % STATUS_CYCLE.length] ?? 'active';
    return {
      row_id: 5000 + n - i,
      email: `customer${pad(i + 1, 4)}@example.com`,
      name: i % 5 === 4 ? null : `Customer ${pad(i + 1, 4)}`,
      provider: clickbank ? 'clickbank' : 'lemonsqueezy',
      provider_id: clickbank ? `CB${pad(i + 1, 6)}` : String(30000 + i),
      status,
      cadence: yearly ? 'yearly' : 'monthly',
      start_date: isoAt(-(20 + i * 2)),
      current_period_end: isoAt((i % 30) + 1),
      expires_at: status === 'cancelled' ? isoAt((i % 30) + 1) : null,
      amount: yearly ? 9900 : clickbank ? 4700 : 999,
      currency: 'USD',
      updated_at: new Date(NOW_MS - (i + 1) * HOUR_MS).toISOString(),
    };
  });
}

/* ------------------------------------------------------------------------------------------ */
/* Subscription details and marketplace orders                                                  */
/* ------------------------------------------------------------------------------------------ */

/** The LemonSqueezy API's example Subscription object, verbatim (tests/msw/provider/README.md). */
export const LEMONSQUEEZY_SUBSCRIPTION = lemonSqueezySubscription;

const ls = lemonSqueezySubscription.attributes;

/**
 * GET /subscriptions/detail for the LemonSqueezy subscription (§3, docs/api.md): the customer
 * and payment fields come from the provider example's attributes, which travel unchanged in
 * provider_detail; the MG-side dates are moved to around FIXTURE_NOW so the drawer reads
 * coherently at the story clock.
 */
export const LEMONSQUEEZY_DETAIL_WIRE = {
  email: ls.user_email,
  name: ls.user_name,
  address: { city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
  provider: 'lemonsqueezy',
  provider_id: lemonSqueezySubscription.id,
  status: ls.status,
  status_formatted: ls.status_formatted,
  cadence: 'monthly',
  start_date: '2026-08-12T00:00:00.000Z',
  renews_at: '2026-12-12T00:00:00.000Z',
  current_period_end: '2026-12-12T00:00:00.000Z',
  ends_at: ls.ends_at,
  expires_at: null,
  amount: 999,
  currency: 'USD',
  store_id: ls.store_id,
  status_marketing: 'subscribed',
  city: 'Austin',
  region: 'Texas',
  country: 'US',
  total_revenue_currency: 3996,
  payment_processor: ls.payment_processor,
  card_brand: ls.card_brand,
  card_last_four: ls.card_last_four,
  cancelled: ls.cancelled,
  trial_ends_at: ls.trial_ends_at,
  billing_anchor: ls.billing_anchor,
  first_subscription_item: ls.first_subscription_item,
  pause: ls.pause,
  urls: ls.urls,
  created_at: '2026-08-12T00:00:00.000Z',
  updated_at: '2026-11-20T11:00:00.000Z',
  test_mode: ls.test_mode,
  provider_detail: lemonSqueezySubscription,
};

/** A ClickBank INS-style raw payload (v6 shape, as in the shared clickbankgo test vector). */
function clickbankRaw(receipt: string, time: string, type: string, amount: number) {
  return {
    transactionTime: time.replace('.000Z', '+00:00'),
    receipt,
    transactionType: type,
    vendor: 'mgvendor',
    role: 'VENDOR',
    totalAccountAmount: Math.round(amount * 0.9) / 100,
    paymentMethod: 'VISA',
    totalOrderAmount: amount / 100,
    currency: 'USD',
    lineItems: [
      {
        itemNo: 'mg-monthly',
        productTitle: 'MG Membership (Monthly)',
        recurring: true,
        accountAmount: Math.round(amount * 0.9) / 100,
        quantity: 1,
        lineItemType: 'ORIGINAL',
      },
    ],
    customer: {
      billing: {
        firstName: 'Grace',
        lastName: 'Hopper',
        fullName: 'Grace Hopper',
        email: 'grace@example.com',
        address: { state: 'CA', postalCode: '94103', country: 'US' },
      },
    },
    version: 6.0,
    attemptCount: 1,
  };
}

function clickbankOrder(
  receipt: string,
  created: string,
  type: string,
  status: string,
): ClickbankOrderWire {
  return {
    receipt,
    sku: 'mg-monthly',
    status,
    title: 'MG Membership (Monthly)',
    site: 'mgvendor',
    affiliate: 'topaff',
    country: 'US',
    state: 'CA',
    postal_code: '94103',
    first_name: 'Grace',
    last_name: 'Hopper',
    customer_display_name: 'Grace Hopper',
    customer_refundable_state: 'REFUNDABLE',
    currency: 'USD',
    amount_cents: 4700,
    rebill_amount_cents: 4700,
    account_amount_cents: 4230,
    next_payment_at: '2026-12-18T14:05:00.000Z',
    created_at_provider: created,
    raw_json: clickbankRaw(receipt, created, type, 4700),
  };
}

/** GET /clickbank/orders records for grace@example.com, newest first (one sale, two rebills). */
export const CLICKBANK_ORDERS_WIRE: ClickbankOrderWire[] = [
  clickbankOrder('Q7XK2M9P', '2026-11-18T14:05:00.000Z', 'BILL', 'ACTIVE'),
  clickbankOrder('Q7XK2M9P', '2026-10-18T14:05:00.000Z', 'BILL', 'COMPLETED'),
  clickbankOrder('Q7XK2M9P', '2026-09-18T14:05:00.000Z', 'SALE', 'COMPLETED'),
];

/** GET /subscriptions/detail for the ClickBank subscription: no name (the drawer uses the orders). */
export const CLICKBANK_DETAIL_WIRE = {
  email: 'grace@example.com',
  name: null,
  address: null,
  provider: 'clickbank',
  provider_id: 'Q7XK2M9P',
  status: 'active',
  status_formatted: 'Active',
  cadence: 'monthly',
  start_date: '2026-09-18T14:05:00.000Z',
  renews_at: '2026-12-18T14:05:00.000Z',
  current_period_end: '2026-12-18T14:05:00.000Z',
  ends_at: null,
  expires_at: '2026-12-18T14:05:00.000Z',
  amount: 4700,
  currency: 'USD',
  store_id: null,
  status_marketing: null,
  city: null,
  region: null,
  country: 'US',
  total_revenue_currency: 14100,
  payment_processor: 'clickbank',
  card_brand: null,
  card_last_four: null,
  cancelled: false,
  trial_ends_at: null,
  billing_anchor: 18,
  first_subscription_item: null,
  pause: null,
  urls: {},
  created_at: '2026-09-18T14:05:00.000Z',
  updated_at: '2026-11-20T10:15:00.000Z',
  test_mode: false,
  provider_detail: CLICKBANK_ORDERS_WIRE[0]?.raw_json ?? null,
};

/* ------------------------------------------------------------------------------------------ */
/* Actions, auth                                                                                */
/* ------------------------------------------------------------------------------------------ */

const actionBase = { ok: true, email: 'ada@example.com', mg_status: 'active', expires_at: null };

/** POST /users/actions/* answers, one per §8 alert (docs/api.md discourse variants). */
export const ACTION_RESULTS_WIRE = {
  /** → 'OK' */
  plain: { ...actionBase, scheduled_expires_at: null, discourse: null },
  /** → 'OK (scheduled for 2026-12-12 09:00 UTC)' */
  scheduled: {
    ...actionBase,
    expires_at: '2026-12-12T09:00:00.000Z',
    scheduled_expires_at: '2026-12-12T09:00:00.000Z',
    discourse: null,
  },
  /** → 'OK (Discourse invite sent to group 42)' */
  invited: {
    ...actionBase,
    scheduled_expires_at: null,
    discourse: { ok: true, invited: true, groupId: 42 },
  },
  /** → 'OK (Discourse updated)' */
  updated: { ...actionBase, scheduled_expires_at: null, discourse: { ok: true, status: 200 } },
  /** → 'OK (Discourse skipped: Discourse not configured)' */
  skipped: {
    ...actionBase,
    scheduled_expires_at: null,
    discourse: { skipped: true, reason: 'Discourse not configured' },
  },
  /** → 'Done, but Discourse error (422): Unprocessable Entity — Username is invalid; …' */
  discourseError: {
    ...actionBase,
    scheduled_expires_at: null,
    discourse: {
      ok: false,
      error: 'Unprocessable Entity',
      status: 422,
      payload: { errors: ['Username is invalid', 'Email has already been taken'] },
    },
  },
};

/** POST /auth/login success (docs/api.md). */
export const LOGIN_OK_WIRE = {
  ok: true,
  code: 'OK',
  message: 'Signed in',
  token: 'test-admin-token',
};

/** GET /auth/whoami for the signed-in operator. */
export const WHOAMI_WIRE = { ok: true, user: { email: 'admin@example.com' } };
