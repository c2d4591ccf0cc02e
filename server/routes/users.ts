/**
 * Users (forum access, one row per customer): GET /users and the five POST /users/actions/*
 * (specification §2 Users screen, §3 User row / Users list response / Action response, §4
 * mg_status, §7 calls, §9 page sizes and default sort; docs/api.md "Users").
 *
 * Decisions where the specification is open:
 * - mg_status filter: 'scheduled' = mg_status active with expires_at after now; 'active' = mg_status
 *   active WITHOUT a future expiry (so the two never overlap); 'cancelled' = mg_status cancelled.
 * - provider_status 'trialing' also matches LemonSqueezy's 'on_trial' (server/vocabulary.ts statusesMatching).
 * - Dates are UTC; a date-only `_to` includes its whole day; from after to is a 400.
 * - totalPages = max(1, ceil(total / pageSize)): an empty list is "page 1 of 1", so the console's
 *   clamp of the page to [1, totalPages] stays valid. A page past the end answers no rows.
 * - Sorting: nulls sort as the largest value (last ascending, first descending; a null expires_at
 *   means "never"). Ties are broken in the same direction by row_id, and for the subscription
 *   columns (provider, provider_id, provider_status, cadence, start_date, current_period_end)
 *   first by the subscription's id, so paging is stable and the sort indexes are usable.
 * - updated_at of a row is the member row's updated_at (changed by every access action).
 * - mg_status_label is always null: the console derives the label (§4) from mg_status + expires_at.
 * - The page query is server/db/list.ts pagedList (rows + total in one round trip); input is the
 *   zod schema usersListQuery (400 with issues).
 */
import { requestActor } from '../audit/audit';
import { requireRole } from '../auth/roles';
import { Hono } from 'hono';
import { z } from 'zod';
import { readDbOf, type AppDeps } from '../context';
import {
  ACCESS_ACTION_KINDS,
  actionBodySchema,
  applyAccessAction,
  type AccessActionKind,
} from '../access/actions';
import { iso } from '../access/params';
import {
  addEmailFilter,
  emailContains,
  emailFilterRead,
  listCountSql,
  pagedList,
  rowCountSql,
  Where,
} from '../db/list';
import { notFound } from '../errors';
import { parseJsonBody, validate } from '../http/body';
import {
  checkDateRanges,
  dateRangeParams,
  enumParam,
  onlyParams,
  pageParams,
  providerStatusParam,
  rangeOf,
  rowIdParam,
  signedSortParam,
  textParam,
} from '../http/fields';
import { CADENCES, MG_STATUS_FILTERS, PROVIDERS } from '../vocabulary';

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
  email: 'm.email',
  provider: 's.provider',
  provider_id: 's.provider_id',
  provider_status: 'm.sub_status',
  mg_status: 'm.mg_status',
  cadence: 's.cadence',
  start_date: 'm.sub_start_date',
  expires_at: 'm.expires_at',
  current_period_end: 'm.sub_current_period_end',
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

/**
 * Sort keys read from the member's subscription, with their SQL type. start_date, provider_status
 * and current_period_end are read from the member's copies (migrations 035 and 036) instead, in
 * the order of their indexes: the copy, the subscription id, the row id (COPY_SORTS); the rest are
 * member columns (email: the member's copy of it, 034).
 */
const SUBSCRIPTION_SORTS: Partial<Record<UserSortKey, 'text' | 'timestamptz'>> = {
  provider: 'text',
  provider_id: 'text',
  cadence: 'text',
};

/** Sort keys read from the member's copies of its subscription's columns (see SUBSCRIPTION_SORTS). */
const COPY_SORTS: ReadonlySet<UserSortKey> = new Set([
  'start_date',
  'provider_status',
  'current_period_end',
]);

/**
 * Sort keys whose index carries the member's copies of its subscription's provider, status,
 * cadence and start, its access status and its expiry (migrations 035 and 036), and the filters
 * reading only those columns: a page of such filters is read off the sort index, skipping the
 * rows that do not match (server/db/list.ts filtersCoveredBySortIndex).
 */
const COVERING_SORTS: ReadonlySet<UserSortKey> = new Set([
  'email',
  'start_date',
  'provider_status',
  'current_period_end',
  'expires_at',
  'updated_at',
]);
const COVERED_FILTERS: ReadonlySet<string> = new Set([
  'provider',
  'provider_status',
  'cadence',
  'mg_status',
  'start_from',
  'start_to',
  'exp_from',
  'exp_to',
]);

/** Joins of the narrow id query over `members m`, by name. */
const USER_JOINS = {
  subscription: 'LEFT JOIN subscriptions s ON s.id = m.subscription_id',
};

/**
 * The page for a subscription column (`key`, SQL type `type`) of the unfiltered list or of the
 * kept-count or range filters (`conditions` over m and s, 'true' when unfiltered): the union of
 * matching members with a subscription, read in that column's index order (ties: subscription id, then
 * row_id), and matching members without one (null key: last ascending, first descending), each
 * cut at LIMIT + OFFSET, so the sort indexes of 002_list_indexes.sql serve it (a LEFT JOIN could not).
 */
function subscriptionSortPage(key: string, type: string, dir: 'ASC' | 'DESC') {
  return (limit: string, offset: string, conditions: string) => `SELECT id, k0, k1 FROM (
      (SELECT m.id, ${key} AS k0, s.id AS k1 FROM subscriptions s JOIN members m ON m.subscription_id = s.id
        WHERE ${conditions}
        ORDER BY ${key} ${dir}, s.id ${dir}, m.id ${dir} LIMIT (${limit} + ${offset}))
      UNION ALL
      (SELECT m.id, NULL::${type} AS k0, NULL::bigint AS k1
         FROM members m LEFT JOIN subscriptions s ON s.id = m.subscription_id
        WHERE m.subscription_id IS NULL AND ${conditions}
        ORDER BY m.id ${dir} LIMIT (${limit} + ${offset}))) u
    ORDER BY k0 ${dir}, k1 ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
}

/** Active members whose expiry is at or before '?' (now), as members_active_expiry_idx reads them. */
const ACTIVE_EXPIRED = `(CASE WHEN m.mg_status = 'active' THEN m.expires_at END) <= ?`;

/** The mg_status filter alone (onlyParams). */
const MG_STATUS_FILTER: ReadonlySet<string> = new Set(['mg_status']);

/** The parameters of GET /users that page and sort (not filters). */
const LIST_PARAMS: ReadonlySet<string> = new Set(['page', 'pageSize', 'sort']);

/** The query string of GET /users (docs/api.md "Users"); unknown parameters are ignored. */
export const usersListQuery = z
  .object({
    ...pageParams(USERS_MAX_PAGE_SIZE, USERS_DEFAULT_PAGE_SIZE),
    sort: signedSortParam('sort', USER_SORT_KEYS, { key: 'updated_at', dir: 'desc' }),
    row_id: rowIdParam(),
    email: textParam('email'),
    provider: enumParam('provider', PROVIDERS),
    provider_id: textParam('provider_id', 200),
    provider_status: providerStatusParam('provider_status'),
    mg_status: enumParam('mg_status', MG_STATUS_FILTERS),
    cadence: enumParam('cadence', CADENCES),
    ...dateRangeParams('start'),
    ...dateRangeParams('exp'),
  })
  .superRefine(checkDateRanges(['start', 'exp']));
/** A validated GET /users query. */
export type UsersListQuery = z.output<typeof usersListQuery>;

/**
 * Runs the Users list query for the raw query string `q` at instant `deps.now()` → UsersPageJson
 * (§7 GET /users). Throws 400 (with issues) for an unknown sort key, malformed dates or ids,
 * page < 1, pageSize outside 1..500, or an unknown provider / mg_status / cadence value.
 */
export async function listUsers(
  deps: AppDeps,
  q: Record<string, string | undefined>,
): Promise<UsersPageJson> {
  const v = validate(usersListQuery, q);
  const now = deps.now();
  const w = new Where();
  if (v.row_id !== undefined) w.add('m.id = ?', v.row_id);
  // The member's copy of its customer's email, with its own trigram indexes (migrations 034, 047)
  // and the email sort index (036).
  const db = readDbOf(deps);
  const email = v.email === undefined ? undefined : emailContains('m', v.email);
  const emailRead = email && (await emailFilterRead(db, 'members', email));
  if (email && emailRead) addEmailFilter(w, email, emailRead);
  // The filters on the member's subscription read the member's copies of its provider, status,
  // cadence and start (migration 035), which the sort indexes carry, with no probe of a
  // subscription per row.
  if (v.provider !== undefined) w.keep(`m.sub_provider = ?`, 'provider = ?', [v.provider]);
  if (v.provider_id !== undefined) w.need('subscription').add('s.provider_id = ?', v.provider_id);
  if (v.provider_status !== undefined)
    w.keep(`m.sub_status = ANY(?::text[])`, 'status = ANY(?::text[])', [v.provider_status]);
  // The kept counts split members by whether expires_at is set; the filters that depend on now
  // correct them by the active members whose expiry has passed (the expiry job revokes them, so
  // they are few), in the form members_active_expiry_idx of migration 027 indexes.
  if (v.mg_status === 'cancelled') w.keep(`m.mg_status = 'cancelled'`, `mg_status = 'cancelled'`);
  else if (v.mg_status === 'scheduled')
    w.keep(`m.mg_status = 'active' AND m.expires_at > ?`, `mg_status = 'active' AND dated`, [now], {
      sign: -1,
      sql: ACTIVE_EXPIRED,
    });
  else if (v.mg_status === 'active')
    w.keep(
      `m.mg_status = 'active' AND (m.expires_at IS NULL OR m.expires_at <= ?)`,
      `mg_status = 'active' AND NOT dated`,
      [now],
      { sign: 1, sql: ACTIVE_EXPIRED },
    );
  if (v.cadence !== undefined) w.keep(`m.sub_cadence = ?`, 'cadence = ?', [v.cadence]);
  const start = rangeOf(v, 'start');
  // members_sub_start_date_idx (sub_start_date, subscription_id, id) and members_expires_at_idx
  // (expires_at, id) count a start or an expiry range on their own.
  if (start.from) w.range('m.sub_start_date >= ?', start.from);
  if (start.toExclusive) w.range('m.sub_start_date < ?', start.toExclusive);
  const exp = rangeOf(v, 'exp');
  if (exp.from) w.range('m.expires_at >= ?', exp.from);
  if (exp.toExclusive) w.range('m.expires_at < ?', exp.toExclusive);

  const { key, dir } = v.sort;
  const subType = SUBSCRIPTION_SORTS[key];
  // The email sort index carries the email, and the planner may test every entry of it rather
  // than recheck the trigram index's matches (module doc of server/db/list.ts, 6): 'mar' (6.5 %
  // of the members) 170–190 ms against 57–67 at 1M. A sort by a subscription column keeps
  // index-only scans: it reads that column off the subscriptions' index for every match.
  const throughTrigrams = emailRead === 'trigrams' && subType === undefined;
  const list = await pagedList<DbUserRow>(db, {
    from: 'members m',
    id: 'm.id',
    joins: USER_JOINS,
    sort: {
      // Subscription columns break ties by the subscription's id first (module doc).
      keys:
        key === 'row_id'
          ? []
          : COPY_SORTS.has(key)
            ? [SORT_SQL[key], 'm.subscription_id']
            : subType === undefined
              ? [SORT_SQL[key]]
              : [SORT_SQL[key], 's.id'],
      dir,
      joins: subType !== undefined ? ['subscription'] : [],
    },
    where: w,
    unfilteredTotal: rowCountSql('members'),
    keptTotal: listCountSql('users'),
    // members_status_expires_idx (mg_status, expires_at, id) reads an mg_status filter's members
    // in expiry order, skipping the scheduled ones for 'active' (the sample of the unfiltered
    // order would find almost none of the active members, who have no expiry and sort last), and
    // members_expires_at_idx (expires_at, id) an expiry range's members.
    filtersInSortIndex:
      key === 'expires_at' &&
      ((v.mg_status !== undefined && onlyParams(v, LIST_PARAMS, MG_STATUS_FILTER)) ||
        (w.ranged && !start.from && !start.toExclusive)),
    filtersCoveredBySortIndex:
      COVERING_SORTS.has(key) && onlyParams(v, LIST_PARAMS, COVERED_FILTERS),
    indexPage:
      subType === undefined
        ? undefined
        : subscriptionSortPage(SORT_SQL[key], subType, dir === 'desc' ? 'DESC' : 'ASC'),
    columns: `m.id AS row_id, c.email, s.provider, s.provider_id, s.status AS provider_status, m.mg_status,
       s.cadence, s.start_date, m.expires_at, s.current_period_end, m.updated_at`,
    hydrate: `JOIN members m ON m.id = p.id
  JOIN customers c ON c.id = m.customer_id
  LEFT JOIN subscriptions s ON s.id = m.subscription_id`,
    page: v.page,
    pageSize: v.pageSize,
    indexOnlyScans: !throughTrigrams,
  });
  return {
    rows: list.rows.map((r) => ({
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
    total: list.total,
    totalPages: list.totalPages,
    page: v.page,
    pageSize: v.pageSize,
  };
}

/**
 * Builds the Users router (paths relative to the API prefix): GET /users and
 * POST /users/actions/{grant|grant_on_date|revoke_now|revoke_deferred|revoke_on_date}.
 */
export function usersRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/users', async (c) => c.json(await listUsers(deps, c.req.query())));
  r.post('/users/actions/:action', requireRole('support'), async (c) => {
    const action = c.req.param('action');
    if (!(ACCESS_ACTION_KINDS as readonly string[]).includes(action)) {
      throw notFound(
        `Unknown action '${action}'; expected one of ${ACCESS_ACTION_KINDS.join(', ')}`,
      );
    }
    const req = await parseJsonBody(c, actionBodySchema(action as AccessActionKind), {
      required: true,
    });
    return c.json(await applyAccessAction(deps, req, { actor: requestActor(c, deps) }));
  });
  return r;
}
