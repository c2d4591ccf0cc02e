/**
 * Users (forum access, one row per customer): GET /users and the five POST /users/actions/*
 * (specification §2 Users screen, §3 User row / Users list response / Action response, §4
 * mg_status, §7 calls, §9 page sizes and default sort; docs/api.md "Users").
 *
 * Decisions where the specification is open:
 * - mg_status filter: 'scheduled' = mg_status active with expires_at after now; 'active' = mg_status
 *   active WITHOUT a future expiry (so the two never overlap); 'cancelled' = mg_status cancelled.
 * - provider_status 'trialing' also matches LemonSqueezy's 'on_trial' (server/access/statuses.ts).
 * - Dates are UTC; a date-only `_to` includes its whole day; from after to is a 400.
 * - totalPages = max(1, ceil(total / pageSize)): an empty list is "page 1 of 1", so the console's
 *   clamp of the page to [1, totalPages] stays valid. A page past the end answers no rows.
 * - Sorting: nulls sort as the largest value (last ascending, first descending; a null expires_at
 *   means "never"). Ties are broken in the same direction by row_id, and for the subscription
 *   columns (provider, provider_id, provider_status, cadence, start_date, current_period_end)
 *   first by the subscription's id, so paging is stable and the sort indexes are usable.
 * - updated_at of a row is the member row's updated_at (changed by every access action).
 * - mg_status_label is always null: the console derives the label (§4) from mg_status + expires_at.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import {
  ACCESS_ACTION_KINDS,
  applyAccessAction,
  parseActionBody,
  type AccessActionKind,
} from '../access/actions';
import {
  escapeLike,
  iso,
  parseDateRange,
  parseEnum,
  parseIntParam,
  parseRowId,
  parseSignedSort,
  parseTextParam,
  readJsonObject,
  type Query,
} from '../access/params';
import { parseProviderStatus } from '../access/statuses';
import { notFound } from '../errors';

/** Sort keys of GET /users (docs/api.md). */
export const USER_SORT_KEYS = [
  'row_id',
  'email',
  'provider',
  'provider_id',
  'provider_status',
  'mg_status',
  'cadence',
  'start_date',
  'expires_at',
  'current_period_end',
  'updated_at',
] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];

const SORT_SQL: Record<UserSortKey, string> = {
  row_id: 'm.id',
  email: 'c.email',
  provider: 's.provider',
  provider_id: 's.provider_id',
  provider_status: 's.status',
  mg_status: 'm.mg_status',
  cadence: 's.cadence',
  start_date: 's.start_date',
  expires_at: 'm.expires_at',
  current_period_end: 's.current_period_end',
  updated_at: 'm.updated_at',
};

/** Users page sizes (§9): 1..500, default 50. */
export const USERS_MAX_PAGE_SIZE = 500;
export const USERS_DEFAULT_PAGE_SIZE = 50;

/** One row of GET /users (§3 User row; docs/api.md). Instants are ISO UTC or null. */
export interface UserRowJson {
  row_id: number;
  email: string;
  provider: string | null;
  provider_id: string | null;
  provider_status: string | null;
  mg_status: string;
  mg_status_label: string | null;
  cadence: string | null;
  start_date: string | null;
  expires_at: string | null;
  current_period_end: string | null;
  updated_at: string | null;
}

/** The GET /users answer (§3 Users list response + page echo). */
export interface UsersPageJson {
  rows: UserRowJson[];
  total: number;
  totalPages: number;
  page: number;
  pageSize: number;
}

interface DbUserRow {
  row_id: number;
  email: string;
  provider: string | null;
  provider_id: string | null;
  provider_status: string | null;
  mg_status: string;
  cadence: string | null;
  start_date: Date | null;
  expires_at: Date | null;
  current_period_end: Date | null;
  updated_at: Date | null;
}

/** A WHERE clause under construction: SQL fragments with positional parameters. */
class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  needsCustomer = false;
  needsSubscription = false;
  /** Adds `sql` where each '?' is replaced by the next parameter placeholder. */
  add(sql: string, ...values: unknown[]): void {
    let i = 0;
    this.parts.push(sql.replace(/\?/g, () => `$${this.params.length + ++i}`));
    this.params.push(...values);
  }
  get sql(): string {
    return this.parts.length === 0 ? '' : `WHERE ${this.parts.join(' AND ')}`;
  }
}

/** Sort keys read from the member's subscription (the rest are member or customer columns). */
const SUBSCRIPTION_SORTS: Partial<Record<UserSortKey, 'text' | 'timestamptz'>> = {
  provider: 'text',
  provider_id: 'text',
  provider_status: 'text',
  cadence: 'text',
  start_date: 'timestamptz',
  current_period_end: 'timestamptz',
};

const ROW_COLUMNS = `m.id AS row_id, c.email, s.provider, s.provider_id, s.status AS provider_status, m.mg_status,
       s.cadence, s.start_date, m.expires_at, s.current_period_end, m.updated_at`;
const ROW_JOINS = `JOIN members m ON m.id = p.id
  JOIN customers c ON c.id = m.customer_id
  LEFT JOIN subscriptions s ON s.id = m.subscription_id`;

/**
 * The SQL of one page of users for filter `w` and `sort`; its last two parameters are LIMIT and
 * OFFSET (after w.params). The page's member ids are chosen first in a narrow query joining only
 * what the filters and the sort need; then only those rows are joined with their customer and
 * subscription (cheap deep pages).
 *
 * - With filters (`filtered`): every matching (id, sort key) is computed once with the filter
 *   indexes (a MATERIALIZED CTE), counted, and the page cut from it; the answer carries `total`
 *   on each row. This keeps a filter that correlates with the sort (e.g. a start range sorted by
 *   updated_at) from walking the whole sort index.
 * - Without filters: the page is read in sort-index order. For a subscription column the page
 *   comes from the union of members with a subscription, read in that column's index order
 *   (ties: subscription id, then row_id), and members without one (null key: last ascending,
 *   first descending), so the sort indexes of 002_list_indexes.sql serve it.
 */
function pageQuery(
  w: Where,
  sort: { key: UserSortKey; dir: 'asc' | 'desc' },
): { sql: string; filtered: boolean } {
  const n = w.params.length;
  const limit = `$${n + 1}::int`;
  const offset = `$${n + 2}::int`;
  const dir = sort.dir === 'desc' ? 'DESC' : 'ASC';
  const key = SORT_SQL[sort.key];
  const customerJoin =
    w.needsCustomer || sort.key === 'email' ? ' JOIN customers c ON c.id = m.customer_id' : '';
  const subType = SUBSCRIPTION_SORTS[sort.key];
  const order =
    subType === undefined ? `p.k ${dir}, p.id ${dir}` : `p.k ${dir}, p.sid ${dir}, p.id ${dir}`;

  if (w.parts.length > 0) {
    const subJoin =
      w.needsSubscription || subType !== undefined
        ? ' LEFT JOIN subscriptions s ON s.id = m.subscription_id'
        : '';
    const sid = subType === undefined ? '' : ', s.id AS sid';
    return {
      filtered: true,
      sql: `WITH f AS MATERIALIZED (SELECT m.id, ${key} AS k${sid} FROM members m${customerJoin}${subJoin} ${w.sql}),
                 p AS (SELECT * FROM f p ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})
            SELECT (SELECT count(*)::int FROM f) AS total, ${ROW_COLUMNS}
              FROM p ${ROW_JOINS}
             ORDER BY ${order}`,
    };
  }

  let page: string;
  if (subType === undefined) {
    page = `SELECT m.id, ${key} AS k FROM members m${customerJoin}
             ORDER BY ${key} ${dir}, m.id ${dir} LIMIT ${limit} OFFSET ${offset}`;
  } else {
    const withSub = `SELECT m.id, ${key} AS k, s.id AS sid
        FROM subscriptions s JOIN members m ON m.subscription_id = s.id${customerJoin}
       ORDER BY ${key} ${dir}, s.id ${dir}, m.id ${dir} LIMIT (${limit} + ${offset})`;
    const withoutSub = `SELECT m.id, NULL::${subType} AS k, NULL::bigint AS sid FROM members m${customerJoin}
        WHERE m.subscription_id IS NULL
       ORDER BY m.id ${dir} LIMIT (${limit} + ${offset})`;
    page = `SELECT id, k, sid FROM ((${withSub}) UNION ALL (${withoutSub})) u
             ORDER BY k ${dir}, sid ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
  }
  return {
    filtered: false,
    sql: `SELECT ${ROW_COLUMNS} FROM (${page}) p ${ROW_JOINS} ORDER BY ${order}`,
  };
}

/** Counts the members matching `w` (joins only what the filters need). */
async function countUsers(deps: AppDeps, w: Where): Promise<number> {
  const joins =
    (w.needsCustomer ? ' JOIN customers c ON c.id = m.customer_id' : '') +
    (w.needsSubscription ? ' LEFT JOIN subscriptions s ON s.id = m.subscription_id' : '');
  const r = await deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM members m${joins} ${w.sql}`,
    w.params,
  );
  return r.rows[0]?.n ?? 0;
}

/**
 * Runs the Users list query for query parameters `q` at instant `now` → UsersPageJson (§7 GET /users).
 * Throws 400 for an unknown sort key, malformed dates or ids, page < 1, pageSize outside 1..500,
 * or an unknown provider / mg_status / cadence value.
 */
export async function listUsers(deps: AppDeps, q: Query): Promise<UsersPageJson> {
  const page = parseIntParam(q, 'page', 1, 1_000_000, 1);
  const pageSize = parseIntParam(q, 'pageSize', 1, USERS_MAX_PAGE_SIZE, USERS_DEFAULT_PAGE_SIZE);
  const sort = parseSignedSort(q, 'sort', USER_SORT_KEYS, { key: 'updated_at', dir: 'desc' });
  const now = deps.now();
  const w = new Where();

  const rowId = parseRowId(q);
  if (rowId !== undefined) w.add('m.id = ?', rowId);
  const email = parseTextParam(q, 'email');
  if (email !== undefined) {
    w.needsCustomer = true;
    w.add(`c.email LIKE ? ESCAPE '\\'`, `%${escapeLike(email.toLowerCase())}%`);
  }
  const provider = parseEnum(q, 'provider', ['lemonsqueezy', 'clickbank'] as const);
  if (provider !== undefined) {
    w.needsSubscription = true;
    w.add('s.provider = ?', provider);
  }
  const providerId = parseTextParam(q, 'provider_id', 200);
  if (providerId !== undefined) {
    w.needsSubscription = true;
    w.add('s.provider_id = ?', providerId);
  }
  const statuses = parseProviderStatus(q, 'provider_status');
  if (statuses !== undefined) {
    w.needsSubscription = true;
    w.add('s.status = ANY(?::text[])', statuses);
  }
  const mg = parseEnum(q, 'mg_status', ['active', 'scheduled', 'cancelled'] as const);
  if (mg === 'cancelled') w.add(`m.mg_status = 'cancelled'`);
  else if (mg === 'scheduled') w.add(`m.mg_status = 'active' AND m.expires_at > ?`, now);
  else if (mg === 'active')
    w.add(`m.mg_status = 'active' AND (m.expires_at IS NULL OR m.expires_at <= ?)`, now);
  const cadence = parseEnum(q, 'cadence', ['monthly', 'yearly'] as const);
  if (cadence !== undefined) {
    w.needsSubscription = true;
    w.add('s.cadence = ?', cadence);
  }
  const start = parseDateRange(q, 'start');
  if (start.from) {
    w.needsSubscription = true;
    w.add('s.start_date >= ?', start.from);
  }
  if (start.toExclusive) {
    w.needsSubscription = true;
    w.add('s.start_date < ?', start.toExclusive);
  }
  const exp = parseDateRange(q, 'exp');
  if (exp.from) w.add('m.expires_at >= ?', exp.from);
  if (exp.toExclusive) w.add('m.expires_at < ?', exp.toExclusive);

  const query = pageQuery(w, sort);
  const rowsRes = await deps.db.query<DbUserRow & { total?: number }>(query.sql, [
    ...w.params,
    pageSize,
    (page - 1) * pageSize,
  ]);
  const first = rowsRes.rows[0];
  // A filtered page carries its total; an empty page past the end (or no filter) counts apart.
  const total =
    query.filtered && first?.total !== undefined
      ? first.total
      : page === 1 && query.filtered
        ? 0
        : await countUsers(deps, w);
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return {
    rows: rowsRes.rows.map((r) => ({
      row_id: Number(r.row_id),
      email: r.email,
      provider: r.provider,
      provider_id: r.provider_id,
      provider_status: r.provider_status,
      mg_status: r.mg_status,
      mg_status_label: null,
      cadence: r.cadence,
      start_date: iso(r.start_date),
      expires_at: iso(r.expires_at),
      current_period_end: iso(r.current_period_end),
      updated_at: iso(r.updated_at),
    })),
    total,
    totalPages,
    page,
    pageSize,
  };
}

/** The signed-in operator's email from `c.get('admin')` ({email}, set by the auth middleware), or null. */
export function actorOf(get: (key: string) => unknown): string | null {
  const admin = get('admin');
  if (
    admin &&
    typeof admin === 'object' &&
    typeof (admin as { email?: unknown }).email === 'string'
  ) {
    return (admin as { email: string }).email;
  }
  return null;
}

/**
 * Builds the Users router (paths relative to the API prefix): GET /users and
 * POST /users/actions/{grant|grant_on_date|revoke_now|revoke_deferred|revoke_on_date}.
 */
export function usersRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/users', async (c) => c.json(await listUsers(deps, c.req.query())));
  r.post('/users/actions/:action', async (c) => {
    const action = c.req.param('action');
    if (!(ACCESS_ACTION_KINDS as readonly string[]).includes(action)) {
      throw notFound(
        `Unknown action '${action}'; expected one of ${ACCESS_ACTION_KINDS.join(', ')}`,
      );
    }
    const kind = action as AccessActionKind;
    const body = await readJsonObject(() => c.req.text());
    const req = parseActionBody(kind, body);
    const actor = actorOf((k) => (c.var as Record<string, unknown>)[k]);
    return c.json(await applyAccessAction(deps, req, { actor }));
  });
  return r;
}
