/**
 * The Subscription detail of the drawer (specification §2 "Subscription details", §3
 * "Subscription detail"; docs/api.md GET /subscriptions/detail), built from the stored rows:
 *
 * - lemonsqueezy: the LemonSqueezy-only fields come from the stored subscription object's
 *   `attributes` (status_formatted, store_id, card_brand, card_last_four, payment_processor,
 *   cancelled, trial_ends_at, billing_anchor, first_subscription_item, pause, urls, renews_at,
 *   ends_at, created_at, updated_at, test_mode, user_name → name, user_email → email). Customer
 *   marketing status and location come from a JSON:API `included` customers object when the stored
 *   payload carries one (LemonSqueezy `?include=customer`), else null. provider_detail = the object.
 * - clickbank: derived from the customer's order records: name and location from the latest order
 *   (customer_display_name, else first + last), amount = latest rebill amount, else order amount,
 *   renews_at = next_payment_at, card_brand = the payload's paymentMethod, test_mode = a TEST
 *   transaction type. provider_detail = the latest order's raw_json.
 *
 * Both: status, cadence, start_date, current_period_end, currency come from the subscription row;
 * expires_at = the subscription's ends_at (the list's Expires column); total_revenue_currency =
 * new + renewal event amounts minus refunds of all the customer's subscriptions in the detail's
 * currency, in cents.
 */
import type { Db } from '../db/types';
import { iso } from './params';
import type { Provider } from '../vocabulary';

/** §3 Subscription detail with docs/api.md snake_case keys. Instants ISO UTC or null; money in cents. */
export interface SubscriptionDetailJson {
  email: string;
  name: string | null;
  address: {
    city: string | null;
    state: string | null;
    postal_code: string | null;
    country: string | null;
  };
  provider: string;
  provider_id: string;
  status: string;
  status_formatted: string | null;
  cadence: string;
  start_date: string | null;
  renews_at: string | null;
  current_period_end: string | null;
  ends_at: string | null;
  expires_at: string | null;
  amount: number | null;
  currency: string;
  store_id: string | number | null;
  status_marketing: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  total_revenue_currency: number;
  payment_processor: string | null;
  card_brand: string | null;
  card_last_four: string | null;
  cancelled: boolean;
  trial_ends_at: string | null;
  billing_anchor: number | null;
  first_subscription_item: unknown;
  pause: unknown;
  urls: Record<string, string>;
  created_at: string | null;
  updated_at: string | null;
  test_mode: boolean;
  provider_detail: unknown;
}

/** The subscription row plus its customer, as loaded for a detail. */
export interface DetailSource {
  id: number;
  customer_id: number;
  email: string;
  customer_name: string | null;
  provider: Provider;
  provider_id: string;
  status: string;
  cadence: string;
  amount_cents: number | null;
  currency: string;
  start_date: Date;
  current_period_end: Date | null;
  ends_at: Date | null;
  payload: unknown;
  created_at: Date;
  updated_at: Date;
}

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const isoText = (v: unknown): string | null => (typeof v === 'string' ? iso(v) : null);

/** 'past_due' → 'Past Due'; the provider's own status_formatted is preferred where it exists. */
export function formatStatus(status: string): string {
  return status
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

const SOURCE_SQL = `SELECT s.id, s.customer_id, c.email, c.name AS customer_name, s.provider, s.provider_id, s.status,
       s.cadence, s.amount_cents, s.currency, s.start_date, s.current_period_end, s.ends_at, s.payload,
       s.created_at, s.updated_at
  FROM subscriptions s JOIN customers c ON c.id = s.customer_id`;

/** Loads the subscription (provider, provider_id) → DetailSource or null. */
export async function findByProviderId(
  db: Db,
  provider: Provider,
  providerId: string,
): Promise<DetailSource | null> {
  const r = await db.query<DetailSource>(
    `${SOURCE_SQL} WHERE s.provider = $1 AND s.provider_id = $2`,
    [provider, providerId],
  );
  return r.rows[0] ?? null;
}

/** Loads the most recent subscription (latest start_date, then id) of the customer `email` → DetailSource or null. */
export async function findLatestByEmail(db: Db, email: string): Promise<DetailSource | null> {
  const r = await db.query<DetailSource>(
    `${SOURCE_SQL} WHERE c.email = $1 ORDER BY s.start_date DESC, s.id DESC LIMIT 1`,
    [email],
  );
  return r.rows[0] ?? null;
}

/** Lifetime revenue of customer `customerId` in `currency`, in cents: new + renewal amounts minus refunds. */
export async function customerRevenueCents(
  db: Db,
  customerId: number,
  currency: string,
): Promise<number> {
  const r = await db.query<{ cents: number }>(
    `SELECT COALESCE(sum(CASE WHEN e.type IN ('new', 'renewal') THEN e.amount_cents
                              WHEN e.type = 'refund' THEN -abs(e.amount_cents) ELSE 0 END), 0)::float8 AS cents
       FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
      WHERE s.customer_id = $1 AND COALESCE(e.currency, s.currency) = $2`,
    [customerId, currency],
  );
  return Number(r.rows[0]?.cents ?? 0);
}

/** Keeps the string-valued entries of a LemonSqueezy `urls` object (name → link). */
function urlMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(asObject(v)))
    if (typeof val === 'string' && val !== '') out[k] = val;
  return out;
}

/** Builds the detail of a LemonSqueezy subscription `src` (see module doc) → SubscriptionDetailJson. */
export function lemonSqueezyDetail(
  src: DetailSource,
  revenueCents: number,
): SubscriptionDetailJson {
  const payload = asObject(src.payload);
  const a = asObject(payload.attributes);
  const included = Array.isArray(payload.included) ? payload.included : [];
  const customer = asObject(
    asObject(included.find((x) => asObject(x).type === 'customers')).attributes,
  );
  const city = str(customer.city);
  const region = str(customer.region);
  const country = str(customer.country);
  return {
    email: str(a.user_email) ?? src.email,
    name: str(a.user_name) ?? src.customer_name,
    address: { city, state: region, postal_code: null, country },
    provider: src.provider,
    provider_id: src.provider_id,
    status: src.status,
    status_formatted: str(a.status_formatted) ?? formatStatus(src.status),
    cadence: src.cadence,
    start_date: iso(src.start_date),
    renews_at: isoText(a.renews_at) ?? iso(src.current_period_end),
    current_period_end: iso(src.current_period_end),
    ends_at: isoText(a.ends_at) ?? iso(src.ends_at),
    expires_at: iso(src.ends_at),
    amount: src.amount_cents,
    currency: src.currency,
    store_id: typeof a.store_id === 'number' || typeof a.store_id === 'string' ? a.store_id : null,
    status_marketing: str(customer.status),
    city,
    region,
    country,
    total_revenue_currency: revenueCents,
    payment_processor: str(a.payment_processor),
    card_brand: str(a.card_brand),
    card_last_four: str(a.card_last_four),
    cancelled: typeof a.cancelled === 'boolean' ? a.cancelled : src.status === 'cancelled',
    trial_ends_at: isoText(a.trial_ends_at),
    billing_anchor: num(a.billing_anchor),
    first_subscription_item: a.first_subscription_item ?? null,
    pause: a.pause ?? null,
    urls: urlMap(a.urls),
    created_at: isoText(a.created_at) ?? iso(src.created_at),
    updated_at: isoText(a.updated_at) ?? iso(src.updated_at),
    test_mode: a.test_mode === true,
    provider_detail: src.payload,
  };
}

/** A ClickBank order record row (§3 Marketplace order record) as stored. */
export interface OrderRow {
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
  next_payment_at: Date | null;
  created_at_provider: Date;
  raw_json: unknown;
}

/** §3 Marketplace order record as JSON: instants as ISO UTC strings, money in cents. */
export type OrderJson = Omit<OrderRow, 'next_payment_at' | 'created_at_provider'> & {
  next_payment_at: string | null;
  created_at_provider: string | null;
};

const ORDER_COLUMNS = `receipt, sku, status, title, site, affiliate, country, state, postal_code, first_name,
  last_name, customer_display_name, customer_refundable_state, currency, amount_cents, rebill_amount_cents,
  account_amount_cents, next_payment_at, created_at_provider, raw_json`;

/** Order records of `email` (lower case), newest first (created_at_provider, then id) → OrderJson[]. */
export async function ordersByEmail(db: Db, email: string): Promise<OrderJson[]> {
  const r = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM clickbank_orders WHERE email = $1 ORDER BY created_at_provider DESC, id DESC`,
    [email],
  );
  return r.rows.map(orderJson);
}

/** Order records linked to subscription `subscriptionId`, newest first → OrderJson[]. */
export async function ordersBySubscription(db: Db, subscriptionId: number): Promise<OrderJson[]> {
  const r = await db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM clickbank_orders WHERE subscription_id = $1 ORDER BY created_at_provider DESC, id DESC`,
    [subscriptionId],
  );
  return r.rows.map(orderJson);
}

/** Serialises a stored order row → OrderJson. */
export function orderJson(o: OrderRow): OrderJson {
  return {
    ...o,
    next_payment_at: iso(o.next_payment_at),
    created_at_provider: iso(o.created_at_provider),
  };
}

/**
 * Builds the detail of a ClickBank subscription `src` from its orders (newest first; see module
 * doc) → SubscriptionDetailJson. With no orders, the order-derived fields are null.
 */
export function clickbankDetail(
  src: DetailSource,
  orders: OrderJson[],
  revenueCents: number,
): SubscriptionDetailJson {
  const latest = orders[0] ?? null;
  const raw = asObject(latest?.raw_json);
  const person = [latest?.first_name, latest?.last_name].filter((x): x is string => !!x).join(' ');
  const name =
    src.customer_name ?? latest?.customer_display_name ?? (person !== '' ? person : null);
  const amount = latest
    ? (latest.rebill_amount_cents ?? latest.amount_cents ?? src.amount_cents)
    : src.amount_cents;
  const txType = str(raw.transactionType);
  return {
    email: src.email,
    name,
    address: {
      city: null,
      state: latest?.state ?? null,
      postal_code: latest?.postal_code ?? null,
      country: latest?.country ?? null,
    },
    provider: src.provider,
    provider_id: src.provider_id,
    status: src.status,
    status_formatted: formatStatus(src.status),
    cadence: src.cadence,
    start_date: iso(src.start_date),
    renews_at: latest?.next_payment_at ?? iso(src.current_period_end),
    current_period_end: iso(src.current_period_end),
    ends_at: iso(src.ends_at),
    expires_at: iso(src.ends_at),
    amount,
    currency: latest?.currency ?? src.currency,
    store_id: null,
    status_marketing: null,
    city: null,
    region: latest?.state ?? null,
    country: latest?.country ?? null,
    total_revenue_currency: revenueCents,
    payment_processor: 'clickbank',
    card_brand: str(raw.paymentMethod),
    card_last_four: null,
    cancelled: src.status === 'cancelled',
    trial_ends_at: null,
    billing_anchor: null,
    first_subscription_item: null,
    pause: null,
    urls: {},
    created_at: iso(src.created_at),
    updated_at: iso(src.updated_at),
    test_mode: txType !== null && txType.toUpperCase().startsWith('TEST'),
    provider_detail: latest ? latest.raw_json : src.payload,
  };
}
