/**
 * The Users and Subscriptions lists as {@link ListSpec}s (§2 filters, §7 parameters, §9 sizes and
 * default sorts), with named shorthands over the generic list rules in ./list. Pure.
 */
import {
  defaultListQuery,
  emptyFilters,
  listQueryFromSearch,
  listQueryToSearch,
  listRequestParams,
  withFilters,
  type ListSpec,
} from './list';
import {
  CADENCES,
  MG_STATUS_FILTERS,
  PROVIDERS,
  PROVIDER_STATUSES,
  SUBSCRIPTIONS_DEFAULT_PAGE_SIZE,
  SUBSCRIPTIONS_PAGE_SIZES,
  SUBSCRIPTION_SORT_KEYS,
  USERS_DEFAULT_PAGE_SIZE,
  USERS_PAGE_SIZES,
} from './types';
import type {
  SubscriptionsFilters,
  SubscriptionsQuery,
  SubscriptionSortKey,
  UserSortKey,
  UsersFilters,
  UsersQuery,
} from './types';

export { clampPage, nextSort, sortParam, withPageSize } from './list';

/** Sortable columns of GET /users (docs/api.md), in column order. */
export const USER_SORT_KEYS: readonly UserSortKey[] = [
  'row_id',
  'email',
  'provider',
  'provider_id',
  'provider_status',
  'mg_status',
  'cadence',
  'start_date',
  'expires_at',
  'updated_at',
];

/**
 * GET /users (§7): filters under their wire names, sort as one '-'-prefixed parameter, page sizes
 * 20/50/100/200/500 (default 50), default sort updated_at descending (§9).
 */
export const USERS_LIST: ListSpec<UsersFilters, UserSortKey> = {
  fields: {
    rowId: { param: 'row_id', kind: 'text' },
    email: { param: 'email', kind: 'text' },
    provider: { param: 'provider', kind: 'select', options: PROVIDERS },
    providerId: { param: 'provider_id', kind: 'text' },
    providerStatus: { param: 'provider_status', kind: 'select', options: PROVIDER_STATUSES },
    mgStatus: { param: 'mg_status', kind: 'select', options: MG_STATUS_FILTERS },
    cadence: { param: 'cadence', kind: 'select', options: CADENCES },
    startFrom: { param: 'start_from', kind: 'day' },
    startTo: { param: 'start_to', kind: 'day' },
    expFrom: { param: 'exp_from', kind: 'day' },
    expTo: { param: 'exp_to', kind: 'day' },
  },
  sortKeys: USER_SORT_KEYS,
  defaultSort: { key: 'updated_at', direction: 'desc' },
  sortEncoding: 'signed',
  pageSizes: USERS_PAGE_SIZES,
  defaultPageSize: USERS_DEFAULT_PAGE_SIZE,
};

/**
 * GET /subscriptions (§7): filters under their wire names (status travels as provider_status),
 * sort as sortKey + sortDir, page sizes 20/50/100/200 (default 50), default sort row_id
 * descending (§2, §9).
 */
export const SUBSCRIPTIONS_LIST: ListSpec<SubscriptionsFilters, SubscriptionSortKey> = {
  fields: {
    rowId: { param: 'row_id', kind: 'text' },
    email: { param: 'email', kind: 'text' },
    provider: { param: 'provider', kind: 'select', options: PROVIDERS },
    providerId: { param: 'provider_id', kind: 'text' },
    status: { param: 'provider_status', kind: 'select', options: PROVIDER_STATUSES },
    cadence: { param: 'cadence', kind: 'select', options: CADENCES },
    startFrom: { param: 'start_from', kind: 'day' },
    startTo: { param: 'start_to', kind: 'day' },
    renewFrom: { param: 'renew_from', kind: 'day' },
    renewTo: { param: 'renew_to', kind: 'day' },
    expireFrom: { param: 'expire_from', kind: 'day' },
    expireTo: { param: 'expire_to', kind: 'day' },
    updatedFrom: { param: 'updated_from', kind: 'day' },
    updatedTo: { param: 'updated_to', kind: 'day' },
  },
  sortKeys: SUBSCRIPTION_SORT_KEYS,
  defaultSort: { key: 'row_id', direction: 'desc' },
  sortEncoding: 'keyDir',
  pageSizes: SUBSCRIPTIONS_PAGE_SIZES,
  defaultPageSize: SUBSCRIPTIONS_DEFAULT_PAGE_SIZE,
};

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (inner !== null && typeof inner === 'object') deepFreeze(inner as object);
  }
  return Object.freeze(value);
}

/** A fresh Users filter row with every filter at "any" (''). */
export function emptyUsersFilters(): UsersFilters {
  return emptyFilters(USERS_LIST);
}

/** A fresh Subscriptions filter row with every filter at "any" (''). */
export function emptySubscriptionsFilters(): SubscriptionsFilters {
  return emptyFilters(SUBSCRIPTIONS_LIST);
}

/** Users defaults (§9): page 1, 50 rows, updated_at descending, no filters. Frozen. */
export const DEFAULT_USERS_QUERY: UsersQuery = deepFreeze(defaultListQuery(USERS_LIST));

/** Subscriptions defaults (§9): page 1, 50 rows, row_id descending, no filters. Frozen. */
export const DEFAULT_SUBSCRIPTIONS_QUERY: SubscriptionsQuery = deepFreeze(
  defaultListQuery(SUBSCRIPTIONS_LIST),
);

/**
 * GET /users query parameters (§7): page, pageSize, sort ('-' prefix = descending) and the
 * filters under their wire names, trimmed; blank filters are omitted (§5).
 */
export function buildUsersParams(q: UsersQuery): Record<string, string> {
  return listRequestParams(USERS_LIST, q);
}

/**
 * GET /subscriptions query parameters (§7): page, pageSize, sortKey, sortDir ('asc'|'desc') and
 * the non-empty filters, trimmed (status is sent as provider_status).
 */
export function buildSubscriptionsParams(q: SubscriptionsQuery): Record<string, string> {
  return listRequestParams(SUBSCRIPTIONS_LIST, q);
}

/** The users query with some filters changed; any filter change returns to page 1 (§4). */
export function withUsersFilters(q: UsersQuery, patch: Partial<UsersFilters>): UsersQuery {
  return withFilters(q, patch);
}

/** The subscriptions query with some filters changed, back on page 1 (§2 Clear, §4). */
export function withSubscriptionsFilters(
  q: SubscriptionsQuery,
  patch: Partial<SubscriptionsFilters>,
): SubscriptionsQuery {
  return withFilters(q, patch);
}

/** Users query → URL search params (only non-default values, wire names). */
export function usersQueryToSearch(q: UsersQuery): URLSearchParams {
  return listQueryToSearch(USERS_LIST, q);
}

/** URL search params → users query, tolerant of junk (see listQueryFromSearch). */
export function usersQueryFromSearch(search: URLSearchParams): UsersQuery {
  return listQueryFromSearch(USERS_LIST, search);
}

/** Subscriptions query → URL search params (only non-default values, wire names). */
export function subscriptionsQueryToSearch(q: SubscriptionsQuery): URLSearchParams {
  return listQueryToSearch(SUBSCRIPTIONS_LIST, q);
}

/** URL search params → subscriptions query, tolerant of junk (see listQueryFromSearch). */
export function subscriptionsQueryFromSearch(search: URLSearchParams): SubscriptionsQuery {
  return listQueryFromSearch(SUBSCRIPTIONS_LIST, search);
}
