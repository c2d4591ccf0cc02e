/**
 * One description of a server-paged, filterable, sortable list, and the pure rules every such list
 * follows (§4 Lists and paging, §5 validation, §7 queries, §9 page sizes): defaults, the request
 * parameters, the URL state both ways, sorting, paging and clamping. Users, Subscriptions, Logs
 * and ISR events are each one {@link ListSpec}; nothing here knows which.
 */
import { toWireDateTime } from './format';
import { totalPages } from './paging';

export { totalPages };
import type { SortState } from './types';

/** Filter values of a list: every field a string, '' meaning "any" (untrimmed, as typed). */
export type FilterValues<F> = { [P in keyof F]: string };

/**
 * How one filter field travels:
 * - `text`: free text; trimmed and dropped when blank in requests (§5); debounced in the UI (§4);
 * - `select`: one of `options` (anything else reads as '' = any);
 * - `day`: a UTC day 'YYYY-MM-DD' (date input);
 * - `datetime`: a datetime-local value 'YYYY-MM-DDTHH:MM[:SS]' (UTC), sent as
 *   'YYYY-MM-DD HH:MM:SS' (§5).
 */
export type FilterParam =
  | { param: string; kind: 'text' }
  | { param: string; kind: 'select'; options: readonly string[] }
  | { param: string; kind: 'day' }
  | { param: string; kind: 'datetime' };

/**
 * How the sort travels (§7): `signed` = one `sort` parameter, '-' prefixed when descending
 * (GET /users); `keyDir` = `sortKey` + `sortDir` (GET /subscriptions); `none` = the server's own
 * fixed order (logs newest first, ISR events), never sent nor kept in the URL.
 */
export type SortEncoding = 'signed' | 'keyDir' | 'none';

/** Everything that makes one list: its filters, sort keys, page sizes and defaults. */
export interface ListSpec<F extends FilterValues<F>, K extends string> {
  /** Each filter's wire/URL parameter name and kind. */
  fields: { readonly [P in keyof F]: FilterParam };
  /** The sortable keys (wire names). */
  sortKeys: readonly K[];
  /** The sort when the URL names none. */
  defaultSort: SortState<K>;
  /** How the sort is encoded in requests and the URL. */
  sortEncoding: SortEncoding;
  /** Page-size choices (§9). */
  pageSizes: readonly number[];
  /** The page size when the URL names none (§9). */
  defaultPageSize: number;
}

/** A list's full state: the page (1-based), rows per page, the sort and the filter values. */
export interface ListQuery<F extends FilterValues<F>, K extends string> {
  page: number;
  pageSize: number;
  sort: SortState<K>;
  filters: F;
}

/** Every filter of `spec` at "any" (''). A fresh object on each call. */
export function emptyFilters<F extends FilterValues<F>, K extends string>(spec: ListSpec<F, K>): F {
  const out: Record<string, string> = {};
  for (const key of Object.keys(spec.fields)) out[key] = '';
  return out as F;
}

/** The list's defaults: page 1, the default size and sort, no filters. A fresh object. */
export function defaultListQuery<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
): ListQuery<F, K> {
  return {
    page: 1,
    pageSize: spec.defaultPageSize,
    sort: { ...spec.defaultSort },
    filters: emptyFilters(spec),
  };
}

/** The `sort` parameter of GET /users (§7): the key, '-' prefixed when descending. */
export function sortParam<K extends string>(sort: SortState<K>): string {
  return sort.direction === 'desc' ? `-${sort.key}` : sort.key;
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

/** The query with some filters changed; any filter change returns to page 1 (§4). */
export function withFilters<Q extends { page: number; filters: object }>(
  q: Q,
  patch: Partial<Q['filters']>,
): Q {
  return { ...q, page: 1, filters: { ...q.filters, ...patch } };
}

/** A query with a new page size; a page-size change returns to page 1 (§4). */
export function withPageSize<Q extends { page: number; pageSize: number }>(
  q: Q,
  pageSize: number,
): Q {
  return { ...q, page: 1, pageSize };
}

/** The query sorted by `key` per {@link nextSort}, back on page 1. */
export function withSort<F extends FilterValues<F>, K extends string>(
  q: ListQuery<F, K>,
  key: K,
): ListQuery<F, K> {
  return { ...q, page: 1, sort: nextSort(q.sort, key) };
}

/** Whether two filter sets are equal field by field. */
export function sameFilters<F extends FilterValues<F>>(a: F, b: F): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof F>;
  for (const key of keys) if ((a[key] ?? '') !== (b[key] ?? '')) return false;
  return true;
}

/** Whether the filter values differ from "any" anywhere (drives Clear's usefulness, summaries). */
export function hasActiveFilters<F extends FilterValues<F>>(filters: F): boolean {
  return Object.values<string>(filters).some((value) => value.trim() !== '');
}

/** The names of the text fields of a spec (debounced by the UI, §4). */
export function textFieldKeys<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
): (keyof F)[] {
  return (Object.keys(spec.fields) as (keyof F)[]).filter(
    (key) => spec.fields[key].kind === 'text',
  );
}

/**
 * The request parameters (§7): page, pageSize, the sort per the spec's encoding and every
 * non-blank filter under its wire name, trimmed (§5). `datetime` values become
 * 'YYYY-MM-DD HH:MM:SS' (a value that is not a date-time is dropped).
 * e.g. users {page:1, pageSize:50, sort:-updated_at, email:' ada '} →
 * {page:'1', pageSize:'50', sort:'-updated_at', email:'ada'}.
 */
export function listRequestParams<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
  q: ListQuery<F, K>,
): Record<string, string> {
  const out: Record<string, string> = { page: String(q.page), pageSize: String(q.pageSize) };
  if (spec.sortEncoding === 'signed') out.sort = sortParam(q.sort);
  if (spec.sortEncoding === 'keyDir') {
    out.sortKey = q.sort.key;
    out.sortDir = q.sort.direction;
  }
  for (const key of Object.keys(spec.fields) as (keyof F)[]) {
    const field = spec.fields[key];
    const value = String(q.filters[key] ?? '').trim();
    if (!value) continue;
    if (field.kind === 'datetime') {
      const wire = toWireDateTime(value);
      if (wire) out[field.param] = wire;
    } else {
      out[field.param] = value;
    }
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */
/* URL state                                                                                    */
/* ------------------------------------------------------------------------------------------ */

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

function positiveInt(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

/** A URL value read back as the field allows: junk becomes '' (any). */
function readField(field: FilterParam, value: string): string {
  switch (field.kind) {
    case 'select':
      return oneOf(field.options, value) ?? '';
    case 'day':
      return DAY_RE.test(value) ? value : '';
    case 'datetime':
      return DATETIME_RE.test(value) ? value : '';
    default:
      return value;
  }
}

/**
 * Query → URL search params. Only what differs from the defaults is written, under the wire
 * names; text is kept as typed (not trimmed) so the URL restores exactly what the operator sees.
 */
export function listQueryToSearch<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
  q: ListQuery<F, K>,
): URLSearchParams {
  const search = new URLSearchParams();
  if (q.page !== 1) search.set('page', String(q.page));
  if (q.pageSize !== spec.defaultPageSize) search.set('pageSize', String(q.pageSize));
  const isDefaultSort =
    q.sort.key === spec.defaultSort.key && q.sort.direction === spec.defaultSort.direction;
  if (!isDefaultSort && spec.sortEncoding === 'signed') search.set('sort', sortParam(q.sort));
  if (!isDefaultSort && spec.sortEncoding === 'keyDir') {
    search.set('sortKey', q.sort.key);
    search.set('sortDir', q.sort.direction);
  }
  for (const key of Object.keys(spec.fields) as (keyof F)[]) {
    const value = String(q.filters[key] ?? '');
    if (value !== '') search.set(spec.fields[key].param, value);
  }
  return search;
}

/**
 * URL search params → query, tolerant of junk: a page that is not a positive integer → 1, a page
 * size outside the choices → the default, an unknown sort key → the default sort, a select value
 * that is not an option → '' (any), a malformed date → ''. Text filters as given.
 * Round trip: listQueryFromSearch(spec, listQueryToSearch(spec, q)) equals q for every valid q.
 */
export function listQueryFromSearch<F extends FilterValues<F>, K extends string>(
  spec: ListSpec<F, K>,
  search: URLSearchParams,
): ListQuery<F, K> {
  const pageSize = positiveInt(search.get('pageSize'));
  let sort: SortState<K> = { ...spec.defaultSort };
  if (spec.sortEncoding === 'signed') {
    const raw = search.get('sort') ?? '';
    const desc = raw.startsWith('-');
    const key = oneOf(spec.sortKeys, desc ? raw.slice(1) : raw);
    if (key) sort = { key, direction: desc ? 'desc' : 'asc' };
  } else if (spec.sortEncoding === 'keyDir') {
    const key = oneOf(spec.sortKeys, search.get('sortKey'));
    if (key) sort = { key, direction: search.get('sortDir') === 'asc' ? 'asc' : 'desc' };
  }
  const filters = emptyFilters(spec) as Record<string, string>;
  for (const key of Object.keys(spec.fields) as (keyof F & string)[]) {
    const field = spec.fields[key];
    const value = search.get(field.param);
    if (value !== null) filters[key] = readField(field, value);
  }
  return {
    page: positiveInt(search.get('page')) ?? 1,
    pageSize:
      pageSize !== null && spec.pageSizes.includes(pageSize) ? pageSize : spec.defaultPageSize,
    sort,
    filters: filters as F,
  };
}
