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
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { applyAccessAction, parseActionBody, type AccessActionKind } from '../access/actions';
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
import {
  escapeLike,
  iso,
  normaliseEmail,
  parseDateRange,
  parseEnum,
  parseIntParam,
  parseRowId,
  parseTextParam,
  queryText,
  readJsonObject,
  type Query,
} from '../access/params';
import { refreshSubscriptions, type RefreshOptions } from '../access/refresh';
import { parseProviderStatus } from '../access/statuses';
import { badRequest, notFound } from '../errors';
import { actorOf } from './users';

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
  email: 'c.email',
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

/**
 * Runs the Subscriptions list query for `q` → SubscriptionsPageJson (§7 GET /subscriptions).
 * Throws 400 for an unknown sortKey/sortDir, malformed dates or ids, page < 1, pageSize outside
 * 1..200, or an unknown provider / cadence.
 */
export async function listSubscriptions(deps: AppDeps, q: Query): Promise<SubscriptionsPageJson> {
  const page = parseIntParam(q, 'page', 1, 1_000_000, 1);
  const pageSize = parseIntParam(
    q,
    'pageSize',
    1,
    SUBSCRIPTIONS_MAX_PAGE_SIZE,
    SUBSCRIPTIONS_DEFAULT_PAGE_SIZE,
  );
  const sortKey = parseEnum(q, 'sortKey', SUBSCRIPTION_SORT_KEYS) ?? 'row_id';
  const sortDir = parseEnum(q, 'sortDir', ['asc', 'desc'] as const) ?? 'desc';

  const parts: string[] = [];
  const params: unknown[] = [];
  let needsCustomer = false;
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  const rowId = parseRowId(q);
  if (rowId !== undefined) add('s.id = ?', rowId);
  const email = parseTextParam(q, 'email');
  if (email !== undefined) {
    needsCustomer = true;
    add(`c.email LIKE ? ESCAPE '\\'`, `%${escapeLike(email.toLowerCase())}%`);
  }
  const provider = parseEnum(q, 'provider', ['lemonsqueezy', 'clickbank'] as const);
  if (provider !== undefined) add('s.provider = ?', provider);
  const providerId = parseTextParam(q, 'provider_id', 200);
  if (providerId !== undefined) add('s.provider_id = ?', providerId);
  const statuses = parseProviderStatus(q, 'provider_status');
  if (statuses !== undefined) add('s.status = ANY(?::text[])', statuses);
  const cadence = parseEnum(q, 'cadence', ['monthly', 'yearly'] as const);
  if (cadence !== undefined) add('s.cadence = ?', cadence);
  for (const [prefix, column] of [
    ['start', 's.start_date'],
    ['renew', 's.current_period_end'],
    ['expire', 's.ends_at'],
    ['updated', 's.updated_at'],
  ] as const) {
    const range = parseDateRange(q, prefix);
    if (range.from) add(`${column} >= ?`, range.from);
    if (range.toExclusive) add(`${column} < ?`, range.toExclusive);
  }
  const where = parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`;

  // The page's ids are chosen first in a narrow query (customers joined only when the filter or
  // sort needs them); then only those rows are joined with their customer (cheap deep pages).
  // With filters, every match is computed once (MATERIALIZED), counted and cut, so a filter that
  // correlates with the sort never walks the whole sort index; without, the sort index is read.
  const dir = sortDir === 'desc' ? 'DESC' : 'ASC';
  const key = SORT_SQL[sortKey];
  const pageJoin =
    needsCustomer || sortKey === 'email' ? ' JOIN customers c ON c.id = s.customer_id' : '';
  const n = params.length;
  const limitOffset = `LIMIT $${n + 1}::int OFFSET $${n + 2}::int`;
  const columns = `s.id AS row_id, c.email, c.name, s.provider, s.provider_id, s.status, s.cadence, s.start_date,
            s.current_period_end, s.ends_at AS expires_at, s.amount_cents AS amount, s.currency, s.updated_at`;
  const joins = `JOIN subscriptions s ON s.id = p.id JOIN customers c ON c.id = s.customer_id ORDER BY p.k ${dir}, p.id ${dir}`;
  const filtered = parts.length > 0;
  const sql = filtered
    ? `WITH f AS MATERIALIZED (SELECT s.id, ${key} AS k FROM subscriptions s${pageJoin} ${where}),
            p AS (SELECT * FROM f p ORDER BY p.k ${dir}, p.id ${dir} ${limitOffset})
       SELECT (SELECT count(*)::int FROM f) AS total, ${columns} FROM p ${joins}`
    : `SELECT ${columns}
         FROM (SELECT s.id, ${key} AS k FROM subscriptions s${pageJoin} ORDER BY ${key} ${dir}, s.id ${dir} ${limitOffset}) p
       ${joins}`;
  const rowsRes = await deps.db.query<DbSubscriptionRow & { total?: number }>(sql, [
    ...params,
    pageSize,
    (page - 1) * pageSize,
  ]);
  const first = rowsRes.rows[0];
  let total: number;
  if (filtered && first?.total !== undefined) total = first.total;
  else if (filtered && page === 1) total = 0;
  else {
    const countRes = await deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM subscriptions s${needsCustomer ? ' JOIN customers c ON c.id = s.customer_id' : ''} ${where}`,
      params,
    );
    total = countRes.rows[0]?.n ?? 0;
  }
  return {
    rows: rowsRes.rows.map((r) => ({
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
    total,
    page,
    pageSize,
  };
}

/**
 * Loads one subscription detail (§3) selected by provider + provider_id, or by email (that
 * customer's most recent subscription; provider + provider_id win when both are given) →
 * SubscriptionDetailJson. `enrich` is accepted and ignored (details are always complete).
 * 400 without a usable selector, 404 when nothing matches.
 */
export async function subscriptionDetail(deps: AppDeps, q: Query): Promise<SubscriptionDetailJson> {
  const providerText = queryText(q, 'provider');
  const providerId = parseTextParam(q, 'provider_id', 200);
  const emailText = queryText(q, 'email');
  let src;
  if (providerText !== undefined || providerId !== undefined) {
    const provider = parseEnum(q, 'provider', ['lemonsqueezy', 'clickbank'] as const);
    if (provider === undefined || providerId === undefined) {
      throw badRequest('provider and provider_id must be given together (or give email)');
    }
    src = await findByProviderId(deps.db, provider, providerId);
    if (!src) throw notFound(`No ${provider} subscription with id ${providerId}`);
  } else if (emailText !== undefined) {
    const email = normaliseEmail(emailText);
    if (email === null) throw badRequest(`email must be an email address (got '${emailText}')`);
    src = await findLatestByEmail(deps.db, email);
    if (!src) throw notFound(`No subscription for ${email}`);
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
  r.post('/subscriptions/refresh', async (c) => c.json(await refreshSubscriptions(deps, refresh)));
  for (const [path, kind] of Object.entries(TWINS)) {
    r.post(`/subscriptions/${path}`, async (c) => {
      const body = await readJsonObject(() => c.req.text());
      const req = parseActionBody(kind, body);
      const actor = actorOf((k) => (c.var as Record<string, unknown>)[k]);
      return c.json(await applyAccessAction(deps, req, { actor }));
    });
  }
  return r;
}
