/**
 * List queries of the Users and Subscriptions screens: defaults (§9), request parameters (§7),
 * sorting and paging rules (§2, §4) and URL state (URLSearchParams both ways). Pure.
 */
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
  SortState,
  SubscriptionsFilters,
  SubscriptionsQuery,
  UserSortKey,
  UsersFilters,
  UsersQuery,
} from './types';

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

/** A fresh Users filter row with every filter at "any" (''). */
export function emptyUsersFilters(): UsersFilters {
  return {
    rowId: '',
    email: '',
    provider: '',
    providerId: '',
    providerStatus: '',
    mgStatus: '',
    cadence: '',
    startFrom: '',
    startTo: '',
    expFrom: '',
    expTo: '',
  };
}

/** A fresh Subscriptions filter row with every filter at "any" (''). */
export function emptySubscriptionsFilters(): SubscriptionsFilters {
  return {
    rowId: '',
    email: '',
    provider: '',
    providerId: '',
    status: '',
    cadence: '',
    startFrom: '',
    startTo: '',
    renewFrom: '',
    renewTo: '',
    expireFrom: '',
    expireTo: '',
    updatedFrom: '',
    updatedTo: '',
  };
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (inner !== null && typeof inner === 'object') deepFreeze(inner as object);
  }
  return Object.freeze(value);
}

/** Users defaults (§9): page 1, 50 rows, updated_at descending, no filters. Frozen. */
export const DEFAULT_USERS_QUERY: UsersQuery = deepFreeze({
  page: 1,
  pageSize: USERS_DEFAULT_PAGE_SIZE,
  sort: { key: 'updated_at', direction: 'desc' },
  filters: emptyUsersFilters(),
});

/** Subscriptions defaults (§9): page 1, 50 rows, row_id descending, no filters. Frozen. */
export const DEFAULT_SUBSCRIPTIONS_QUERY: SubscriptionsQuery = deepFreeze({
  page: 1,
  pageSize: SUBSCRIPTIONS_DEFAULT_PAGE_SIZE,
  sort: { key: 'row_id', direction: 'desc' },
  filters: emptySubscriptionsFilters(),
});

/** Wire name of each Users filter (§7 GET /users). */
const USERS_FILTER_PARAMS: Record<keyof UsersFilters, string> = {
  rowId: 'row_id',
  email: 'email',
  provider: 'provider',
  providerId: 'provider_id',
  providerStatus: 'provider_status',
  mgStatus: 'mg_status',
  expFrom: 'exp_from',
  expTo: 'exp_to',
  cadence: 'cadence',
  startFrom: 'start_from',
  startTo: 'start_to',
};

/** Wire name of each Subscriptions filter (§7 GET /subscriptions). */
const SUBSCRIPTIONS_FILTER_PARAMS: Record<keyof SubscriptionsFilters, string> = {
  rowId: 'row_id',
  email: 'email',
  provider: 'provider',
  providerId: 'provider_id',
  status: 'provider_status',
  cadence: 'cadence',
  startFrom: 'start_from',
  startTo: 'start_to',
  renewFrom: 'renew_from',
  renewTo: 'renew_to',
  expireFrom: 'expire_from',
  expireTo: 'expire_to',
  updatedFrom: 'updated_from',
  updatedTo: 'updated_to',
};

/** The `sort` parameter of GET /users (§7): the key, '-' prefixed when descending. */
export function sortParam<K extends string>(sort: SortState<K>): string {
  return sort.direction === 'desc' ? `-${sort.key}` : sort.key;
}

function addTrimmedFilters<F extends object>(
  out: Record<string, string>,
  filters: F,
  names: Record<keyof F, string>,
): void {
  for (const field of Object.keys(names) as (keyof F)[]) {
    const value = String(filters[field] ?? '').trim();
    if (value) out[names[field]] = value;
  }
}

/**
 * GET /users query parameters (§7): page, pageSize, sort ('-' prefix = descending) and the
 * filters under their wire names, trimmed; blank filters are omitted (§5).
 * e.g. {page:1,…,filters:{email:' ada '}} → {page:'1', pageSize:'50', sort:'-updated_at', email:'ada'}.
 */
export function buildUsersParams(q: UsersQuery): Record<string, string> {
  const out: Record<string, string> = {
    page: String(q.page),
    pageSize: String(q.pageSize),
    sort: sortParam(q.sort),
  };
  addTrimmedFilters(out, q.filters, USERS_FILTER_PARAMS);
  return out;
}

/**
 * GET /subscriptions query parameters (§7): page, pageSize, sortKey, sortDir ('asc'|'desc') and
 * the non-empty filters, trimmed (status is sent as provider_status).
 */
export function buildSubscriptionsParams(q: SubscriptionsQuery): Record<string, string> {
  const out: Record<string, string> = {
    page: String(q.page),
    pageSize: String(q.pageSize),
    sortKey: q.sort.key,
    sortDir: q.sort.direction,
  };
  addTrimmedFilters(out, q.filters, SUBSCRIPTIONS_FILTER_PARAMS);
  return out;
}

/**
 * The sort after clicking column `key` (§2): the same column toggles its direction; a newly
 * chosen column starts ascending.
 */
export function nextSort<K extends string>(current: SortState<K>, key: K): SortState<K> {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

/**
 * A page number clamped between 1 and the total pages (§4). Fractions round down; a non-finite
 * page gives 1; totalPages < 1 (an empty list) counts as one page.
 */
export function clampPage(page: number, totalPages: number): number {
  const last = Number.isFinite(totalPages) ? Math.max(1, Math.floor(totalPages)) : 1;
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), last);
}

/** The users query with some filters changed; any filter change returns to page 1 (§4). */
export function withUsersFilters(q: UsersQuery, patch: Partial<UsersFilters>): UsersQuery {
  return { ...q, page: 1, filters: { ...q.filters, ...patch } };
}

/** The subscriptions query with some filters changed, back on page 1 (§2 Clear, §4). */
export function withSubscriptionsFilters(
  q: SubscriptionsQuery,
  patch: Partial<SubscriptionsFilters>,
): SubscriptionsQuery {
  return { ...q, page: 1, filters: { ...q.filters, ...patch } };
}

/** A query with a new page size; a page-size change returns to page 1 (§4). */
export function withPageSize<Q extends { page: number; pageSize: number }>(q: Q, pageSize: number): Q {
  return { ...q, page: 1, pageSize };
}

/* ------------------------------------------------------------------------------------------ */
/* URL state                                                                                    */
/* ------------------------------------------------------------------------------------------ */

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_FIELDS = new Set<string>([
  'startFrom',
  'startTo',
  'expFrom',
  'expTo',
  'renewFrom',
  'renewTo',
  'expireFrom',
  'expireTo',
  'updatedFrom',
  'updatedTo',
]);

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | '' {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

function positiveInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** Which select-type filters take which values; any other field is free text or a day. */
const USERS_CHOICES: Partial<Record<keyof UsersFilters, readonly string[]>> = {
  provider: PROVIDERS,
  providerStatus: PROVIDER_STATUSES,
  mgStatus: MG_STATUS_FILTERS,
  cadence: CADENCES,
};
const SUBSCRIPTIONS_CHOICES: Partial<Record<keyof SubscriptionsFilters, readonly string[]>> = {
  provider: PROVIDERS,
  status: PROVIDER_STATUSES,
  cadence: CADENCES,
};

function readFilters<F extends object>(
  search: URLSearchParams,
  empty: F,
  names: Record<keyof F, string>,
  choices: Partial<Record<keyof F, readonly string[]>>,
): F {
  const out: Record<string, string> = { ...(empty as Record<string, string>) };
  for (const field of Object.keys(names) as (keyof F & string)[]) {
    const value = search.get(names[field]);
    if (value === null) continue;
    const allowed = choices[field];
    if (allowed) out[field] = oneOf(allowed, value);
    else if (DATE_FIELDS.has(field)) out[field] = DAY_RE.test(value) ? value : '';
    else out[field] = value;
  }
  return out as F;
}

function writeFilters<F extends object>(
  search: URLSearchParams,
  filters: F,
  names: Record<keyof F, string>,
): void {
  for (const field of Object.keys(names) as (keyof F)[]) {
    const value = String(filters[field] ?? '');
    if (value !== '') search.set(names[field], value);
  }
}

/**
 * Users query → URL search params. Only what differs from DEFAULT_USERS_QUERY is written, under
 * the wire names (page, pageSize, sort '-key', row_id, email…); text is kept as typed (not
 * trimmed) so the URL restores exactly what the operator sees.
 */
export function usersQueryToSearch(q: UsersQuery): URLSearchParams {
  const search = new URLSearchParams();
  const d = DEFAULT_USERS_QUERY;
  if (q.page !== d.page) search.set('page', String(q.page));
  if (q.pageSize !== d.pageSize) search.set('pageSize', String(q.pageSize));
  if (q.sort.key !== d.sort.key || q.sort.direction !== d.sort.direction) {
    search.set('sort', sortParam(q.sort));
  }
  writeFilters(search, q.filters, USERS_FILTER_PARAMS);
  return search;
}

/**
 * URL search params → users query, tolerant of junk: a page that is not a positive integer → 1,
 * a page size outside §9's choices → 50, an unknown sort → updated_at desc, a select value that
 * is not an option → '' (any), a date that is not 'YYYY-MM-DD' → ''. Text filters as given.
 * Round trip: usersQueryFromSearch(usersQueryToSearch(q)) equals q for every valid q.
 */
export function usersQueryFromSearch(search: URLSearchParams): UsersQuery {
  const d = DEFAULT_USERS_QUERY;
  const pageSize = positiveInt(search.get('pageSize'));
  const rawSort = search.get('sort') ?? '';
  const desc = rawSort.startsWith('-');
  const key = oneOf(USER_SORT_KEYS, desc ? rawSort.slice(1) : rawSort);
  return {
    page: positiveInt(search.get('page')) ?? d.page,
    pageSize:
      pageSize !== null && (USERS_PAGE_SIZES as readonly number[]).includes(pageSize)
        ? pageSize
        : d.pageSize,
    sort: key ? { key, direction: desc ? 'desc' : 'asc' } : { ...d.sort },
    filters: readFilters(search, emptyUsersFilters(), USERS_FILTER_PARAMS, USERS_CHOICES),
  };
}

/**
 * Subscriptions query → URL search params: only non-default values, under the wire names
 * (page, pageSize, sortKey, sortDir, row_id, email, provider_status, renew_from…).
 */
export function subscriptionsQueryToSearch(q: SubscriptionsQuery): URLSearchParams {
  const search = new URLSearchParams();
  const d = DEFAULT_SUBSCRIPTIONS_QUERY;
  if (q.page !== d.page) search.set('page', String(q.page));
  if (q.pageSize !== d.pageSize) search.set('pageSize', String(q.pageSize));
  if (q.sort.key !== d.sort.key || q.sort.direction !== d.sort.direction) {
    search.set('sortKey', q.sort.key);
    search.set('sortDir', q.sort.direction);
  }
  writeFilters(search, q.filters, SUBSCRIPTIONS_FILTER_PARAMS);
  return search;
}

/**
 * URL search params → subscriptions query, tolerant of junk like usersQueryFromSearch (an
 * unknown sortKey → row_id desc; a sortDir other than asc/desc → desc).
 * Round trip: subscriptionsQueryFromSearch(subscriptionsQueryToSearch(q)) equals q for valid q.
 */
export function subscriptionsQueryFromSearch(search: URLSearchParams): SubscriptionsQuery {
  const d = DEFAULT_SUBSCRIPTIONS_QUERY;
  const pageSize = positiveInt(search.get('pageSize'));
  const key = oneOf(SUBSCRIPTION_SORT_KEYS, search.get('sortKey'));
  const direction = search.get('sortDir') === 'asc' ? 'asc' : 'desc';
  return {
    page: positiveInt(search.get('page')) ?? d.page,
    pageSize:
      pageSize !== null && (SUBSCRIPTIONS_PAGE_SIZES as readonly number[]).includes(pageSize)
        ? pageSize
        : d.pageSize,
    sort: key ? { key, direction } : { ...d.sort },
    filters: readFilters(
      search,
      emptySubscriptionsFilters(),
      SUBSCRIPTIONS_FILTER_PARAMS,
      SUBSCRIPTIONS_CHOICES,
    ),
  };
}
