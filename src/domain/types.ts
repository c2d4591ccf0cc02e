/**
 * The console's normalised domain shapes (specification §3). Wire spellings stay at the API
 * boundary (src/api); everything above it speaks these types. Money is integer cents plus an ISO
 * 4217 currency code; instants are ISO 8601 strings in UTC (or null when missing).
 *
 * This folder is pure: types and the specification's rules, no React, no fetch. Every layer may
 * import it.
 */

/** Billing providers (§1). */
export type Provider = 'lemonsqueezy' | 'clickbank';
export const PROVIDERS: readonly Provider[] = ['lemonsqueezy', 'clickbank'];

/** Billing cadence (§9). */
export type Cadence = 'monthly' | 'yearly';
export const CADENCES: readonly Cadence[] = ['monthly', 'yearly'];

/** Provider / subscription status values the filters offer (§4). Rows may carry others. */
export type ProviderStatus = 'active' | 'trialing' | 'paused' | 'past_due' | 'cancelled';
export const PROVIDER_STATUSES: readonly ProviderStatus[] = [
  'active',
  'trialing',
  'paused',
  'past_due',
  'cancelled',
];

/** Forum-access status stored on a user (§4). */
export type MgStatus = 'active' | 'cancelled';
/** mg_status filter values (§4): scheduled = active with a future scheduled expiry. */
export type MgStatusFilter = 'active' | 'scheduled' | 'cancelled';
export const MG_STATUS_FILTERS: readonly MgStatusFilter[] = ['active', 'scheduled', 'cancelled'];

/** Log levels (§9). */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** Visual tone shared by badges, banners and alerts (maps to --color-<tone>-fg/bg tokens). */
export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral' | 'done';

/** Async state of anything loaded: one union, never a pile of booleans (CONVENTIONS.md). */
export type AsyncState<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'empty' }
  | { status: 'ready'; data: T };

/** Dashboard figures after §3/§5 normalisation. Money in cents; counts are whole numbers. */
export interface DashboardStats {
  /** ISO 4217 code, 'USD' when the backend sends none (§1). */
  currency: string;
  mrrCents: number;
  /** Falls back to 12 × MRR (§5). */
  arrCents: number;
  activeTotal: number;
  activeMonthly: number;
  activeYearly: number;
  scheduledCancellations: number;
  /** Average days of access remaining, or null when missing (shown as a dash). */
  avgDaysRemaining: number | null;
  newToday: number;
  renewalsToday: number;
  cancellationsToday: number;
  /** All-time subscriber count; the card is hidden when 0. */
  totalSubscribers: number;
  /** All-time revenue in cents; the card is hidden when 0. */
  totalRevenueCents: number;
}

/** One row of GET /users (§3 User row). Instants are ISO UTC strings or null. */
export interface UserRow {
  rowId: number;
  email: string;
  provider: string | null;
  providerId: string | null;
  providerStatus: string | null;
  mgStatus: string | null;
  /** Server-given display label; takes precedence over mgStatus (§4). */
  mgStatusLabel: string | null;
  cadence: string | null;
  startDate: string | null;
  expiresAt: string | null;
  currentPeriodEnd: string | null;
  updatedAt: string | null;
}

/** One page of users (§3 Users list response). */
export interface UsersPage {
  rows: UserRow[];
  total: number;
  totalPages: number;
}

/** The five forum-access actions (§2 Users, §7). */
export type AccessAction =
  | { kind: 'grant' }
  | { kind: 'grant_on_date'; until: string }
  | { kind: 'revoke_now' }
  | { kind: 'revoke_deferred' }
  | { kind: 'revoke_on_date'; date: string };
export type AccessActionKind = AccessAction['kind'];

/** What the forum (Discourse) said about an action (§3 Action response). */
export interface DiscourseOutcome {
  ok?: boolean;
  error?: string | null;
  status?: number | null;
  errors?: string[];
  invited?: boolean;
  groupId?: number | string | null;
  skipped?: boolean;
  reason?: string | null;
  /** The forum update is queued on the server and runs in the background (the outbox). */
  queued?: boolean;
}

/** §3 Action response, normalised. */
export interface ActionResult {
  discourse: DiscourseOutcome | null;
  /** ISO UTC instant when the revocation is scheduled, else null. */
  scheduledExpiresAt: string | null;
}

/** One row of GET /subscriptions (§3 Subscription row). amountCents null = missing (a dash). */
export interface SubscriptionRow {
  rowId: number;
  email: string;
  name: string | null;
  provider: string | null;
  providerId: string | null;
  status: string | null;
  cadence: string | null;
  startDate: string | null;
  currentPeriodEnd: string | null;
  expiresAt: string | null;
  amountCents: number | null;
  currency: string | null;
  updatedAt: string | null;
}

export interface SubscriptionsPage {
  rows: SubscriptionRow[];
  total: number;
}

/** Postal address of a subscription's customer (§3 Subscription detail). */
export interface Address {
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

/** §3 Subscription detail, normalised. Every field may be missing (null). */
export interface SubscriptionDetail {
  email: string | null;
  name: string | null;
  address: Address | null;
  provider: string | null;
  providerId: string | null;
  status: string | null;
  statusFormatted: string | null;
  cadence: string | null;
  startDate: string | null;
  renewsAt: string | null;
  currentPeriodEnd: string | null;
  endsAt: string | null;
  expiresAt: string | null;
  amountCents: number | null;
  currency: string | null;
  storeId: string | number | null;
  statusMarketing: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  /** Lifetime revenue in cents (wire: total_revenue_currency). */
  totalRevenueCents: number | null;
  paymentProcessor: string | null;
  cardBrand: string | null;
  cardLastFour: string | null;
  cancelled: boolean | null;
  trialEndsAt: string | null;
  /** Day of month billing renews on. */
  billingAnchor: number | null;
  firstSubscriptionItem: unknown;
  pause: unknown;
  /** Named links (name → URL); the view shows only http(s) ones. */
  urls: Record<string, string>;
  createdAt: string | null;
  updatedAt: string | null;
  testMode: boolean | null;
  /** The provider's own payload, shown as raw JSON. */
  providerDetail: unknown;
}

/** §3 Marketplace order record (ClickBank), normalised. Money in cents. */
export interface MarketplaceOrder {
  receipt: string | null;
  sku: string | null;
  status: string | null;
  title: string | null;
  site: string | null;
  affiliate: string | null;
  country: string | null;
  state: string | null;
  postalCode: string | null;
  firstName: string | null;
  lastName: string | null;
  customerDisplayName: string | null;
  customerRefundableState: string | null;
  currency: string | null;
  amountCents: number | null;
  rebillAmountCents: number | null;
  accountAmountCents: number | null;
  nextPaymentAt: string | null;
  /** When the provider created the order (ISO UTC). */
  createdAtProvider: string | null;
  rawJson: unknown;
}

/** Who-am-I (§3). */
export interface WhoAmI {
  ok: boolean;
  user: { email?: string; name?: string } | null;
  /** The signed-in operator's role (viewer, support, admin, owner) when the server names it. */
  role?: string | null;
  /** The signed-in operator (docs/api.md GET /auth/whoami), when the server names one. */
  operator?: OperatorIdentity | null;
  /** True when an owner requires two-factor sign-in and this operator has not enrolled yet. */
  mustEnrolTotp?: boolean;
}

/** Who is signed in: GET /auth/whoami `operator`. */
export interface OperatorIdentity {
  id: number;
  email: string;
  /** Display name; the header shows it and its initial. */
  name: string;
  role: 'viewer' | 'support' | 'admin' | 'owner';
  totpEnabled: boolean;
}

/** Login codes and their messages (§8). */
export type LoginCode =
  | 'INCORRECT_USER'
  | 'INCORRECT_PASSWORD'
  | 'INVALID_JWT'
  | 'NO_TOKEN'
  | 'EMPTY_DATABASE'
  | 'DB_UNAVAILABLE';

/** Users list sort: a column key and direction (§2, §7: sent as `sort`, '-' prefix = desc). */
export interface SortState<K extends string = string> {
  key: K;
  direction: 'asc' | 'desc';
}

/** Users list query (§7 GET /users). Text fields untrimmed here; the API layer trims/drops. */
export interface UsersQuery {
  page: number;
  pageSize: number;
  sort: SortState<UserSortKey>;
  filters: UsersFilters;
}
export type UserSortKey =
  | 'row_id'
  | 'email'
  | 'provider'
  | 'provider_id'
  | 'provider_status'
  | 'mg_status'
  | 'cadence'
  | 'start_date'
  | 'expires_at'
  | 'updated_at';
/** Users filter row values; '' means "any". Dates are 'YYYY-MM-DD' (UTC days). */
export interface UsersFilters {
  rowId: string;
  email: string;
  provider: '' | Provider;
  providerId: string;
  providerStatus: '' | ProviderStatus;
  mgStatus: '' | MgStatusFilter;
  cadence: '' | Cadence;
  startFrom: string;
  startTo: string;
  expFrom: string;
  expTo: string;
}

/** Subscriptions sortable keys (§2). Default row_id descending. */
export type SubscriptionSortKey =
  | 'row_id'
  | 'email'
  | 'provider'
  | 'provider_id'
  | 'provider_status'
  | 'cadence'
  | 'start_date'
  | 'current_period_end'
  | 'expires_at'
  | 'amount'
  | 'updated_at';
export const SUBSCRIPTION_SORT_KEYS: readonly SubscriptionSortKey[] = [
  'row_id',
  'email',
  'provider',
  'provider_id',
  'provider_status',
  'cadence',
  'start_date',
  'current_period_end',
  'expires_at',
  'amount',
  'updated_at',
];
/** Subscriptions filter row values; '' means "any". Dates are 'YYYY-MM-DD' (UTC days). */
export interface SubscriptionsFilters {
  rowId: string;
  email: string;
  provider: '' | Provider;
  providerId: string;
  status: '' | ProviderStatus;
  cadence: '' | Cadence;
  startFrom: string;
  startTo: string;
  renewFrom: string;
  renewTo: string;
  expireFrom: string;
  expireTo: string;
  updatedFrom: string;
  updatedTo: string;
}
export interface SubscriptionsQuery {
  page: number;
  pageSize: number;
  sort: SortState<SubscriptionSortKey>;
  filters: SubscriptionsFilters;
}

/** Constants of §9. */
export const APP_VERSION = '0.0.1';
export const REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CURRENCY = 'USD';
export const USERS_PAGE_SIZES = [20, 50, 100, 200, 500] as const;
export const USERS_DEFAULT_PAGE_SIZE = 50;
export const SUBSCRIPTIONS_PAGE_SIZES = [20, 50, 100, 200] as const;
export const SUBSCRIPTIONS_DEFAULT_PAGE_SIZE = 50;
export const FILTER_DEBOUNCE_MS = 300;
export const SOUND_STORAGE_KEY = 'mg_sound_enabled';
export const TOKEN_STORAGE_KEY = 'mg_admin_token';
