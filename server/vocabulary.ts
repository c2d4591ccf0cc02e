/**
 * The server's fixed vocabularies, defined once: providers,
 * billing cadences, provider statuses and forum-access (mg) statuses. Routes validate against
 * these lists, the seed draws from them and the stats build their SQL from them; the schema's
 * CHECK constraints (server/db/migrations/001_init.sql) spell the same words.
 *
 * Specification: §2 Users / Subscriptions filter selects, §3 User row and Subscription row, §4
 * "mg_status" and "Users filter options".
 */

/** Payment providers (subscriptions.provider). */
export const PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;
/** One of PROVIDERS. */
export type Provider = (typeof PROVIDERS)[number];

/** Billing cadences (subscriptions.cadence). */
export const CADENCES = ['monthly', 'yearly'] as const;
/** One of CADENCES. */
export type Cadence = (typeof CADENCES)[number];

/**
 * LemonSqueezy's own subscription statuses, as its API and the stored payload spell them. The
 * status column stores them as they are except `on_trial`, stored as `trialing` (see
 * storedProviderStatus).
 */
export const LEMONSQUEEZY_STATUSES = [
  'on_trial',
  'active',
  'paused',
  'past_due',
  'unpaid',
  'cancelled',
  'expired',
] as const;
/** One of LEMONSQUEEZY_STATUSES. */
export type LemonSqueezyStatus = (typeof LEMONSQUEEZY_STATUSES)[number];

/** ClickBank order states mapped onto the status column. */
export const CLICKBANK_STATUSES = ['active', 'cancelled', 'expired'] as const;

/**
 * The status filter options of the console (§2 Subscriptions status select, §4 Users filter
 * options), in display order. The filter also accepts any other status word (unpaid, expired) so
 * every stored row stays reachable.
 */
export const PROVIDER_STATUS_FILTERS = [
  'active',
  'trialing',
  'paused',
  'past_due',
  'cancelled',
] as const;

/** Provider statuses that grant forum access on their own (see activeAccessCondition). */
export const ACCESS_STATUSES = ['active', 'trialing', 'past_due'] as const;

/**
 * SQL condition "subscription `alias` grants current access at the instant `nowParam`"
 * (a timestamptz parameter placeholder such as '$1'): its provider status is one of
 * ACCESS_STATUSES, or it is cancelled but paid until a future ends_at (LemonSqueezy keeps access
 * until ends_at); paused, unpaid and expired do not grant access. The one definition every query
 * uses (dashboard figures, metrics, webhooks).
 */
export function activeAccessCondition(alias = 's', nowParam = '$1'): string {
  const statuses = ACCESS_STATUSES.map((v) => `'${v}'`).join(', ');
  return `(${alias}.status IN (${statuses}) OR (${alias}.status = 'cancelled' AND ${alias}.ends_at > ${nowParam}))`;
}

/**
 * Filter words that match more than one stored spelling (LemonSqueezy `on_trial`, US `canceled`).
 * A Map, so a word such as '__proto__' or 'constructor' finds nothing instead of Object's own.
 */
const STATUS_ALIASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['trialing', ['trialing', 'on_trial']],
  ['on_trial', ['trialing', 'on_trial']],
  ['cancelled', ['cancelled', 'canceled']],
  ['canceled', ['cancelled', 'canceled']],
]);

/**
 * The stored status values a lower-case status filter word matches, e.g. 'trialing' →
 * ['trialing', 'on_trial']; any other word (even 'constructor') matches itself only.
 */
export function statusesMatching(word: string): string[] {
  return [...(STATUS_ALIASES.get(word) ?? [word])];
}

/** The status column's value for a LemonSqueezy status (`on_trial` is stored as `trialing`). */
export function storedProviderStatus(status: LemonSqueezyStatus): string {
  return status === 'on_trial' ? 'trialing' : status;
}

/** Stored forum-access states (members.mg_status, §4). */
export const MG_STATUSES = ['active', 'cancelled'] as const;
/** One of MG_STATUSES. */
export type MgStatus = (typeof MG_STATUSES)[number];

/**
 * The Users mg_status filter (§4): 'active' = active without a future expiry, 'scheduled' =
 * active with a future expiry (a scheduled revocation), 'cancelled'.
 */
export const MG_STATUS_FILTERS = ['active', 'scheduled', 'cancelled'] as const;
/** One of MG_STATUS_FILTERS. */
export type MgStatusFilter = (typeof MG_STATUS_FILTERS)[number];

/** Sort directions of the list endpoints. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
/** One of SORT_DIRECTIONS. */
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
