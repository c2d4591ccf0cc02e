/**
 * Subscriptions: GET /subscriptions (list), GET /subscriptions/detail, POST /subscriptions/refresh
 * and the access twins POST /subscriptions/{grant, revoke-now, revoke-deferred, revoke-on-date}
 * (specification §2 Subscriptions screen, §3 Subscription row / detail, §7, §9; docs/api.md).
 *
 * Decisions where the specification is open:
 * - A row's expires_at is the subscription's ends_at; the expire_from/expire_to filter reads the
 *   same column, so the filter and the column agree. renew_* reads current_period_end.
 * - sortKey is one of the 11 keys of §2 (else 400); sortDir asc|desc, default desc; the default
 *   sort is row_id descending (§9). Ties are broken by row_id in the same direction; nulls sort
 *   as the largest value.
 * - status filter parameter is `provider_status` (§7); 'trialing' also matches 'on_trial'.
 * - page ≥ 1, pageSize 1..200 (§9 sizes 20, 50, 100, 200), default 50.
 * - POST /subscriptions/refresh re-reads LemonSqueezy subscriptions when LEMONSQUEEZY_API_KEY is
 *   set (server/access/refresh.ts); without provider keys it answers 200 {ok:false, refreshed:0}.
 * - The list query is server/db/list.ts pagedList (rows + total in one round trip); every query
 *   string and action body is a zod schema (subscriptionsListQuery, subscriptionDetailQuery,
 *   actionBodySchema): bad input answers 400 with issues.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { readDbOf, type AppDeps } from '../context';
import { actionBodySchema, applyAccessAction, type AccessActionKind } from '../access/actions';
import {
  clickbankDetail,
  customerRevenueCents,
  findByProviderId,
  findLatestByEmail,
  lemonSqueezyDetail,
  ordersByEmail,
  ordersBySubscription,
  type SubscriptionDetailJson,
} from '../access/detail';
import { iso } from '../access/params';
import { refreshSubscriptions, type RefreshOptions } from '../access/refresh';
import {
  addEmailFilter,
  emailContains,
  emailFilterRead,
  listCountSql,
  pagedList,
  rowCountSql,
  Where,
} from '../db/list';
import { badRequest, notFound } from '../errors';
import { parseJsonBody, validate } from '../http/body';
import {
  checkDateRanges,
  dateRangeParams,
  emailParam,
  onlyParams,
  enumParam,
  pageParams,
  providerStatusParam,
  rangeOf,
  rowIdParam,
  textParam,
} from '../http/fields';
import { CADENCES, PROVIDERS, SORT_DIRECTIONS } from '../vocabulary';
import { recordAudit, requestActor } from '../audit/audit';
import { requireRole } from '../auth/roles';

/** Sortable keys of the Subscriptions screen (§2), in the specification's order. */
export const SUBSCRIPTION_SORT_KEYS = [
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
] as const;
export type SubscriptionSortKey = (typeof SUBSCRIPTION_SORT_KEYS)[number];

const SORT_SQL: Record<SubscriptionSortKey, string> = {
  row_id: 's.id',
  email: 's.email',
  provider: 's.provider',
  provider_id: 's.provider_id',
  provider_status: 's.status',
  cadence: 's.cadence',
  start_date: 's.start_date',
  current_period_end: 's.current_period_end',
  expires_at: 's.ends_at',
  amount: 's.amount_cents',
  updated_at: 's.updated_at',
};

/** Subscriptions page sizes (§9): 1..200, default 50. */
export const SUBSCRIPTIONS_MAX_PAGE_SIZE = 200;
export const SUBSCRIPTIONS_DEFAULT_PAGE_SIZE = 50;

/** One row of GET /subscriptions (§3 Subscription row). amount in cents or null; instants ISO UTC. */
export interface SubscriptionRowJson {
  row_id: number;
  email: string;
  name: string | null;
  provider: string;
  provider_id: string;
  status: string;
  cadence: string;
  start_date: string | null;
  current_period_end: string | null;
  expires_at: string | null;
  amount: number | null;
  currency: string;
  updated_at: string | null;
}

/** The GET /subscriptions answer (docs/api.md). */
export interface SubscriptionsPageJson {
  rows: SubscriptionRowJson[];
  total: number;
  page: number;
  pageSize: number;
}

interface DbSubscriptionRow {
  row_id: number;
  email: string;
  name: string | null;
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
}

/** Date range filters of GET /subscriptions: `<prefix>_from` / `<prefix>_to` and the column each reads. */
const DATE_FILTERS = [
  ['start', 's.start_date'],
  ['renew', 's.current_period_end'],
  ['expire', 's.ends_at'],
  ['updated', 's.updated_at'],
] as const;

/**
 * Sort keys whose index carries the provider, status, cadence, start and renewal (migrations 036
 * and 038; the email sort reads the subscription's copy of it, 034), and the filters reading only
 * those columns: a page of such filters is read off the sort index, skipping the rows that do
 * not match (server/db/list.ts filtersCoveredBySortIndex).
 */
const COVERING_SORTS: ReadonlySet<SubscriptionSortKey> = new Set([
  'email',
  'start_date',
  'current_period_end',
  'updated_at',
]);
const COVERED_FILTERS: ReadonlySet<string> = new Set([
  'provider',
  'provider_status',
  'cadence',
  'start_from',
  'start_to',
  'renew_from',
  'renew_to',
]);

/** The parameters of GET /subscriptions that page and sort (not filters). */
const LIST_PARAMS: ReadonlySet<string> = new Set(['page', 'pageSize', 'sortKey', 'sortDir']);

/** True when the sort index of `sortKey` carries the columns of every filter of `v`. */
function coveredBySortIndex(v: SubscriptionsListQuery, sortKey: SubscriptionSortKey): boolean {
  return COVERING_SORTS.has(sortKey) && onlyParams(v, LIST_PARAMS, COVERED_FILTERS);
}

/** The query string of GET /subscriptions (docs/api.md "Subscriptions"); unknown parameters are ignored. */
export const subscriptionsListQuery = z
  .object({
    ...pageParams(SUBSCRIPTIONS_MAX_PAGE_SIZE, SUBSCRIPTIONS_DEFAULT_PAGE_SIZE),
    sortKey: enumParam('sortKey', SUBSCRIPTION_SORT_KEYS),
    sortDir: enumParam('sortDir', SORT_DIRECTIONS),
    row_id: rowIdParam(),
    email: textParam('email'),
    provider: enumParam('provider', PROVIDERS),
    provider_id: textParam('provider_id', 200),
    provider_status: providerStatusParam('provider_status'),
    cadence: enumParam('cadence', CADENCES),
    ...dateRangeParams('start'),
    ...dateRangeParams('renew'),
    ...dateRangeParams('expire'),
    ...dateRangeParams('updated'),
  })
  .superRefine(checkDateRanges(DATE_FILTERS.map(([prefix]) => prefix)));
/** A validated GET /subscriptions query. */
export type SubscriptionsListQuery = z.output<typeof subscriptionsListQuery>;

/**
 * Runs the Subscriptions list query for the raw query string `q` → SubscriptionsPageJson (§7 GET
 * /subscriptions). Throws 400 (with issues) for an unknown sortKey/sortDir, malformed dates or
 * ids, page < 1, pageSize outside 1..200, or an unknown provider / cadence.
 */
export async function listSubscriptions(
  deps: AppDeps,
  q: Record<string, string | undefined>,
): Promise<SubscriptionsPageJson> {
  const v = validate(subscriptionsListQuery, q);
  const sortKey = v.sortKey ?? 'row_id';
  const db = readDbOf(deps);
  const w = new Where();
  if (v.row_id !== undefined) w.add('s.id = ?', v.row_id);
  // The subscription's copy of its customer's email, with its own trigram indexes (migrations
  // 034, 047) and the email sort index (038).
  const email = v.email === undefined ? undefined : emailContains('s', v.email);
  const emailRead = email && (await emailFilterRead(db, 'subscriptions', email));
  if (email && emailRead) addEmailFilter(w, email, emailRead);
  if (v.provider !== undefined) w.keep('s.provider = ?', 'provider = ?', [v.provider]);
  if (v.provider_id !== undefined) w.add('s.provider_id = ?', v.provider_id);
  if (v.provider_status !== undefined)
    w.keep('s.status = ANY(?::text[])', 'status = ANY(?::text[])', [v.provider_status]);
  if (v.cadence !== undefined) w.keep('s.cadence = ?', 'cadence = ?', [v.cadence]);
  const rangeColumns = new Set<string>();
  for (const [prefix, column] of DATE_FILTERS) {
    const range = rangeOf(v, prefix);
    if (!range.from && !range.toExclusive) continue;
    rangeColumns.add(column);
    // Start and renewal ranges of whole UTC days are counted per day (migration 033); any range
    // is otherwise counted off its column's index (column, id).
    const dim = prefix === 'start' ? 'start' : prefix === 'renew' ? 'renew' : null;
    if (dim !== null) w.dateRange(column, range, dim);
    else {
      if (range.from) w.range(`${column} >= ?`, range.from);
      if (range.toExclusive) w.range(`${column} < ?`, range.toExclusive);
    }
  }

  // The email sort index carries the email: with index-only scans the planner may test every
  // entry of it rather than recheck the trigram index's matches (module doc of
  // server/db/list.ts, 6): 'ana' (4 % of the rows) 145–155 ms against 70–80 at 1M.
  const throughTrigrams = emailRead === 'trigrams';
  const list = await pagedList<DbSubscriptionRow>(db, {
    from: 'subscriptions s',
    id: 's.id',
    joins: { customer: 'JOIN customers c ON c.id = s.customer_id' },
    // row_id is the id itself: no separate key.
    sort: {
      keys: sortKey === 'row_id' ? [] : [SORT_SQL[sortKey]],
      dir: v.sortDir ?? 'desc',
    },
    where: w,
    unfilteredTotal: rowCountSql('subscriptions'),
    keptTotal: listCountSql('subscriptions'),
    // A range sorted by its own column is read off that column's (column, id) index.
    filtersInSortIndex: w.ranged && rangeColumns.size === 1 && rangeColumns.has(SORT_SQL[sortKey]),
    filtersCoveredBySortIndex: coveredBySortIndex(v, sortKey),
    columns: `s.id AS row_id, c.email, c.name, s.provider, s.provider_id, s.status, s.cadence, s.start_date,
            s.current_period_end, s.ends_at AS expires_at, s.amount_cents AS amount, s.currency, s.updated_at`,
    hydrate: 'JOIN subscriptions s ON s.id = p.id JOIN customers c ON c.id = s.customer_id',
    page: v.page,
    pageSize: v.pageSize,
    indexOnlyScans: !throughTrigrams,
  });
  return {
    rows: list.rows.map((r) => ({
      row_id: Number(r.row_id),
      email: r.email,
      name: r.name,
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
    })),
    total: list.total,
    page: v.page,
    pageSize: v.pageSize,
  };
}

/** The query string of GET /subscriptions/detail (`enrich` is accepted and ignored). */
export const subscriptionDetailQuery = z.object({
  provider: enumParam('provider', PROVIDERS),
  provider_id: textParam('provider_id', 200),
  email: emailParam('email'),
});

/**
 * Loads one subscription detail (§3) selected by provider + provider_id, or by email (that
 * customer's most recent subscription; provider + provider_id win when both are given) →
 * SubscriptionDetailJson. `enrich` is accepted and ignored (details are always complete).
 * 400 without a usable selector, 404 when nothing matches.
 */
export async function subscriptionDetail(
  deps: AppDeps,
  q: Record<string, string | undefined>,
): Promise<SubscriptionDetailJson> {
  const v = validate(subscriptionDetailQuery, q);
  let src;
  if (v.provider !== undefined || v.provider_id !== undefined) {
    if (v.provider === undefined || v.provider_id === undefined) {
      throw badRequest('provider and provider_id must be given together (or give email)');
    }
    src = await findByProviderId(deps.db, v.provider, v.provider_id);
    if (!src) throw notFound(`No ${v.provider} subscription with id ${v.provider_id}`);
  } else if (v.email !== undefined) {
    src = await findLatestByEmail(deps.db, v.email);
    if (!src) throw notFound(`No subscription for ${v.email}`);
  } else {
    throw badRequest('Give provider and provider_id, or email');
  }
  const revenue = await customerRevenueCents(deps.db, Number(src.customer_id), src.currency);
  if (src.provider === 'lemonsqueezy') return lemonSqueezyDetail(src, revenue);
  let orders = await ordersBySubscription(deps.db, Number(src.id));
  if (orders.length === 0) orders = await ordersByEmail(deps.db, src.email);
  return clickbankDetail(src, orders, revenue);
}

/** The twin paths of the access actions under /subscriptions (§7). */
const TWINS: Record<string, AccessActionKind> = {
  grant: 'grant',
  'revoke-now': 'revoke_now',
  'revoke-deferred': 'revoke_deferred',
  'revoke-on-date': 'revoke_on_date',
};

/**
 * Builds the Subscriptions router (paths relative to the API prefix). `refresh` overrides the
 * provider endpoints used by POST /subscriptions/refresh (tests point it at a local fake).
 */
export function subscriptionsRoutes(deps: AppDeps, refresh: RefreshOptions = {}): Hono {
  const r = new Hono();
  r.get('/subscriptions', async (c) => c.json(await listSubscriptions(deps, c.req.query())));
  r.get('/subscriptions/detail', async (c) =>
    c.json(await subscriptionDetail(deps, c.req.query())),
  );
  r.post('/subscriptions/refresh', requireRole('support'), async (c) => {
    const result = await refreshSubscriptions(deps, refresh);
    await recordAudit(
      deps.db,
      requestActor(c, deps),
      {
        action: 'subscriptions.refresh',
        outcome: result.ok ? 'ok' : 'failed',
        detail: { refreshed: result.refreshed, message: result.message.slice(0, 200) },
      },
      deps.now(),
    );
    return c.json(result);
  });
  for (const [path, kind] of Object.entries(TWINS)) {
    r.post(`/subscriptions/${path}`, requireRole('support'), async (c) => {
      const req = await parseJsonBody(c, actionBodySchema(kind), { required: true });
      return c.json(await applyAccessAction(deps, req, { actor: requestActor(c, deps) }));
    });
  }
  return r;
}
