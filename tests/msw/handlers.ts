/**
 * MSW request handlers per resource, shared by Storybook screen stories
 * (`parameters: { msw: { handlers: [...] } }`), unit tests (msw/node) and dev. Each factory
 * returns one handler (or a list) for one state: ok / loading (delay('infinite')) / error (a JSON
 * error as docs/api.md: {error, message}) / the resource's own states. Answers are in wire shape.
 */
import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import type { LoginCode } from '../../src/domain/types';
import {
  ACTION_RESULTS_WIRE,
  ADMIN_STATUS_WIRE,
  CLICKBANK_DETAIL_WIRE,
  CLICKBANK_ORDERS_WIRE,
  FIXTURE_NOW,
  LEMONSQUEEZY_DETAIL_WIRE,
  LOGIN_OK_WIRE,
  MIXED_CURRENCY_SUBSCRIPTION_ROWS,
  STATS_WIRE,
  SUBSCRIPTION_ROWS,
  USER_ROWS,
  makeUserRows,
  type ClickbankOrderWire,
  type SubscriptionRowWire,
  type UserRowWire,
} from './fixtures';

/** The default admin API prefix (CONTRACT.md). */
export const API_PREFIX = '/api/admin';

/**
 * The handler URL of an API path under the default prefix, on any origin:
 * api('/stats') → '*\/api/admin/stats'. The leading wildcard lets the same handlers match the
 * browser's same-origin requests (Storybook, dev) and Node's absolute ones (unit tests).
 */
export function api(path: string): string {
  return `*${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`;
}

const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal',
  502: 'bad_gateway',
  503: 'db_unavailable',
};

/** A docs/api.md error answer: {error: <machine code>, message} with the given status. */
export function jsonError(
  status = 500,
  message = 'Internal server error',
): HttpResponse<{ error: string; message: string }> {
  return HttpResponse.json({ error: ERROR_CODES[status] ?? 'error', message }, { status });
}

type Method = 'get' | 'post';

function loading(method: Method, path: string): HttpHandler {
  return http[method](api(path), async () => {
    await delay('infinite');
    return new HttpResponse(null, { status: 204 });
  });
}

function failing(method: Method, path: string, status: number, message: string): HttpHandler {
  return http[method](api(path), () => jsonError(status, message));
}

/* ------------------------------------------------------------------------------------------ */
/* Auth and health                                                                              */
/* ------------------------------------------------------------------------------------------ */

/** GET /auth/whoami. */
export const whoamiHandlers = {
  /** Signed in as `email`. */
  signedIn: (email = 'admin@example.com') =>
    http.get(api('/auth/whoami'), () => HttpResponse.json({ ok: true, user: { email } })),
  /** 401 {ok:false, code} — not signed in. */
  signedOut: (code: 'NO_TOKEN' | 'INVALID_JWT' = 'NO_TOKEN') =>
    http.get(api('/auth/whoami'), () =>
      HttpResponse.json(
        { ok: false, code, message: code === 'NO_TOKEN' ? 'No token' : 'Invalid token' },
        { status: 401 },
      ),
    ),
  loading: () => loading('get', '/auth/whoami'),
};

/** GET /health. */
export const healthHandlers = {
  ok: () =>
    http.get(api('/health'), () =>
      HttpResponse.json({ ok: true, version: '0.0.1', uptime_s: 3600 }),
    ),
  /** The server answers but is not healthy (500). */
  down: () => failing('get', '/health', 500, 'Internal server error'),
  /** No answer at all (network error). */
  unreachable: () => http.get(api('/health'), () => HttpResponse.error()),
  loading: () => loading('get', '/health'),
};

/** GET /health/db. */
export const healthDbHandlers = {
  ok: () => http.get(api('/health/db'), () => HttpResponse.json({ ok: true })),
  /** 503 {ok:false}: the database is down. */
  down: () => http.get(api('/health/db'), () => HttpResponse.json({ ok: false }, { status: 503 })),
  unreachable: () => http.get(api('/health/db'), () => HttpResponse.error()),
  loading: () => loading('get', '/health/db'),
};

/** The HTTP status the reference server uses for each login code (docs/api.md). */
export const LOGIN_CODE_STATUS: Record<LoginCode | 'RATE_LIMITED', number> = {
  INCORRECT_USER: 401,
  INCORRECT_PASSWORD: 401,
  INVALID_JWT: 401,
  NO_TOKEN: 401,
  EMPTY_DATABASE: 503,
  DB_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
};

/** POST /auth/login. */
export const loginHandlers = {
  /** 200 {ok:true, code:'OK', message:'Signed in', token}. */
  ok: (token = LOGIN_OK_WIRE.token) =>
    http.post(api('/auth/login'), () => HttpResponse.json({ ...LOGIN_OK_WIRE, token })),
  /** A refused login with the given code, its docs/api.md status and a server message. */
  code: (code: LoginCode | 'RATE_LIMITED', message = `Server says ${code}`) =>
    http.post(api('/auth/login'), () =>
      HttpResponse.json({ ok: false, code, message }, { status: LOGIN_CODE_STATUS[code] }),
    ),
  networkError: () => http.post(api('/auth/login'), () => HttpResponse.error()),
  loading: () => loading('post', '/auth/login'),
};

/** POST /auth/logout and its POST /logout fallback. */
export const logoutHandlers = {
  ok: () => http.post(api('/auth/logout'), () => HttpResponse.json({ ok: true })),
  /** /auth/logout is missing (404); /logout answers. */
  fallback: () => [
    failing('post', '/auth/logout', 404, 'Not found'),
    http.post(api('/logout'), () => HttpResponse.json({ ok: true })),
  ],
  /** Both fail: logout must still clear the token. */
  failing: () => [
    http.post(api('/auth/logout'), () => HttpResponse.error()),
    http.post(api('/logout'), () => HttpResponse.error()),
  ],
};

/* ------------------------------------------------------------------------------------------ */
/* Dashboard and status                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** GET /stats. */
export const statsHandlers = {
  ok: (data: JsonBodyType = STATS_WIRE) => http.get(api('/stats'), () => HttpResponse.json(data)),
  loading: () => loading('get', '/stats'),
  error: (status = 500, message = 'Stats query failed') =>
    failing('get', '/stats', status, message),
  /** 200 with a JSON array: the screen shows its default 'Failed to load stats'. */
  malformed: () => http.get(api('/stats'), () => HttpResponse.json([1, 2, 3])),
};

/** GET /status (admin stats). */
export const statusHandlers = {
  ok: (data: JsonBodyType = ADMIN_STATUS_WIRE) =>
    http.get(api('/status'), () => HttpResponse.json(data)),
  loading: () => loading('get', '/status'),
  error: (status = 500, message = 'Status query failed') =>
    failing('get', '/status', status, message),
};

/* ------------------------------------------------------------------------------------------ */
/* Lists: a tiny in-memory server for paging, sorting and filtering                             */
/* ------------------------------------------------------------------------------------------ */

type Row = object;

function compareValues(a: unknown, b: unknown): number {
  if (a == null && b == null) return 0;
  if (a == null) return 1;
  if (b == null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function sortRows<R extends Row>(rows: R[], key: string, direction: 'asc' | 'desc'): R[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...rows].sort((x, y) => {
    const a = (x as Record<string, unknown>)[key];
    const b = (y as Record<string, unknown>)[key];
    if (a == null || b == null) return compareValues(a, b);
    return sign * compareValues(a, b);
  });
}

function inDayRange(value: unknown, from: string | null, to: string | null): boolean {
  if (!from && !to) return true;
  if (typeof value !== 'string') return false;
  const day = value.slice(0, 10);
  return (!from || day >= from.slice(0, 10)) && (!to || day <= to.slice(0, 10));
}

function page<R>(rows: R[], url: URL, defaultSize: number) {
  const pageSize = Math.max(1, Number(url.searchParams.get('pageSize')) || defaultSize);
  const total = rows.length;
  const totalPages = Math.ceil(total / pageSize);
  const current = Math.max(1, Number(url.searchParams.get('page')) || 1);
  return {
    rows: rows.slice((current - 1) * pageSize, current * pageSize),
    total,
    totalPages,
    page: current,
    pageSize,
  };
}

/** GET /users with paging, sort ('-key'), and the §7 filters applied to `rows` like the server. */
function usersList(rows: UserRowWire[]): HttpHandler {
  return http.get(api('/users'), ({ request }) => {
    const url = new URL(request.url);
    const q = (name: string) => url.searchParams.get(name);
    const now = Date.parse(FIXTURE_NOW);
    const filtered = rows.filter((r) => {
      if (q('row_id') && String(r.row_id) !== q('row_id')) return false;
      if (q('email') && !r.email.toLowerCase().includes(q('email')!.toLowerCase())) return false;
      if (q('provider') && r.provider !== q('provider')) return false;
      if (q('provider_id') && r.provider_id !== q('provider_id')) return false;
      if (q('provider_status') && r.provider_status !== q('provider_status')) return false;
      if (q('cadence') && r.cadence !== q('cadence')) return false;
      const scheduled =
        r.mg_status === 'active' && r.expires_at !== null && Date.parse(r.expires_at) > now;
      if (q('mg_status') === 'scheduled' && !scheduled) return false;
      if (q('mg_status') === 'active' && (r.mg_status !== 'active' || scheduled)) return false;
      if (q('mg_status') === 'cancelled' && r.mg_status !== 'cancelled') return false;
      return (
        inDayRange(r.start_date, q('start_from'), q('start_to')) &&
        inDayRange(r.expires_at, q('exp_from'), q('exp_to'))
      );
    });
    const sort = q('sort') ?? '-updated_at';
    const sorted = sortRows(
      filtered,
      sort.replace(/^-/, ''),
      sort.startsWith('-') ? 'desc' : 'asc',
    );
    return HttpResponse.json(page(sorted, url, 50));
  });
}

/** GET /users. */
export const usersHandlers = {
  /** Pages, sorts and filters `rows` (default: the eight §4 cases). */
  list: (rows: UserRowWire[] = USER_ROWS) => usersList(rows),
  /** 500 generated users (makeUserRows), for paging and page-size stories. */
  many: (n = 500) => usersList(makeUserRows(n)),
  empty: () => usersList([]),
  loading: () => loading('get', '/users'),
  error: (status = 500, message = 'Users query failed') =>
    failing('get', '/users', status, message),
};

/** POST /users/actions/:action, one factory per §8 alert. */
export const actionHandlers = {
  plain: () => actionAnswer(ACTION_RESULTS_WIRE.plain),
  scheduled: (at = ACTION_RESULTS_WIRE.scheduled.scheduled_expires_at) =>
    actionAnswer({ ...ACTION_RESULTS_WIRE.scheduled, expires_at: at, scheduled_expires_at: at }),
  invited: (groupId: number | string = 42) =>
    actionAnswer({
      ...ACTION_RESULTS_WIRE.invited,
      discourse: { ok: true, invited: true, groupId },
    }),
  updated: () => actionAnswer(ACTION_RESULTS_WIRE.updated),
  skipped: (reason = 'Discourse not configured') =>
    actionAnswer({ ...ACTION_RESULTS_WIRE.skipped, discourse: { skipped: true, reason } }),
  discourseError: () => actionAnswer(ACTION_RESULTS_WIRE.discourseError),
  /** The action itself failed: the alert shows the message. */
  failure: (status = 500, message = 'Could not update access') =>
    failing('post', '/users/actions/:action', status, message),
  loading: () => loading('post', '/users/actions/:action'),
};

function actionAnswer(body: JsonBodyType): HttpHandler {
  return http.post(api('/users/actions/:action'), () => HttpResponse.json(body));
}

/* ------------------------------------------------------------------------------------------ */
/* Subscriptions                                                                                */
/* ------------------------------------------------------------------------------------------ */

function subscriptionsList(rows: SubscriptionRowWire[]): HttpHandler {
  return http.get(api('/subscriptions'), ({ request }) => {
    const url = new URL(request.url);
    const q = (name: string) => url.searchParams.get(name);
    const filtered = rows.filter((r) => {
      if (q('row_id') && String(r.row_id) !== q('row_id')) return false;
      const email = q('email')?.toLowerCase();
      if (email && !`${r.email} ${r.name ?? ''}`.toLowerCase().includes(email)) return false;
      if (q('provider') && r.provider !== q('provider')) return false;
      if (q('provider_id') && r.provider_id !== q('provider_id')) return false;
      if (q('provider_status') && r.status !== q('provider_status')) return false;
      if (q('cadence') && r.cadence !== q('cadence')) return false;
      return (
        inDayRange(r.start_date, q('start_from'), q('start_to')) &&
        inDayRange(r.current_period_end, q('renew_from'), q('renew_to')) &&
        inDayRange(r.expires_at, q('expire_from'), q('expire_to')) &&
        inDayRange(r.updated_at, q('updated_from'), q('updated_to'))
      );
    });
    const key = q('sortKey') ?? 'row_id';
    const sorted = sortRows(
      filtered,
      key === 'provider_status' ? 'status' : key,
      q('sortDir') === 'asc' ? 'asc' : 'desc',
    );
    const { rows: pageRows, total, page: current, pageSize } = page(sorted, url, 50);
    return HttpResponse.json({ rows: pageRows, total, page: current, pageSize });
  });
}

/** GET /subscriptions and POST /subscriptions/refresh. */
export const subscriptionsHandlers = {
  /** Pages, sorts and filters `rows` (default: six USD subscriptions). */
  list: (rows: SubscriptionRowWire[] = SUBSCRIPTION_ROWS) => subscriptionsList(rows),
  /** USD, EUR and GBP on one page: the footer shows '— Mixed —'. */
  mixedCurrency: () => subscriptionsList(MIXED_CURRENCY_SUBSCRIPTION_ROWS),
  empty: () => subscriptionsList([]),
  loading: () => loading('get', '/subscriptions'),
  error: (status = 500, message = 'Subscriptions query failed') =>
    failing('get', '/subscriptions', status, message),
  refresh: (refreshed = 6) =>
    http.post(api('/subscriptions/refresh'), () =>
      HttpResponse.json({ ok: true, refreshed, message: `Refreshed ${refreshed} subscriptions` }),
    ),
};

/** GET /subscriptions/detail. */
export const detailHandlers = {
  /** The LemonSqueezy API example subscription (tests/msw/provider). */
  lemonsqueezy: (detail: JsonBodyType = LEMONSQUEEZY_DETAIL_WIRE) =>
    http.get(api('/subscriptions/detail'), () => HttpResponse.json(detail)),
  /** A ClickBank subscription without a name (the drawer falls back to the orders). */
  clickbank: (detail: JsonBodyType = CLICKBANK_DETAIL_WIRE) =>
    http.get(api('/subscriptions/detail'), () => HttpResponse.json(detail)),
  /** Answers the detail matching provider_id or email in the fixtures, else 404. */
  byKey: () =>
    http.get(api('/subscriptions/detail'), ({ request }) => {
      const url = new URL(request.url);
      const id = url.searchParams.get('provider_id');
      const email = url.searchParams.get('email');
      const found = [LEMONSQUEEZY_DETAIL_WIRE, CLICKBANK_DETAIL_WIRE].find(
        (d) => (id !== null && d.provider_id === id) || (email !== null && d.email === email),
      );
      return found ? HttpResponse.json(found) : jsonError(404, 'Subscription not found');
    }),
  loading: () => loading('get', '/subscriptions/detail'),
  error: (status = 500, message = 'Detail query failed') =>
    failing('get', '/subscriptions/detail', status, message),
};

/** GET /clickbank/orders (the spec's /api/admin/clickbank/orders). */
export const clickbankOrdersHandlers = {
  list: (orders: ClickbankOrderWire[] = CLICKBANK_ORDERS_WIRE) =>
    http.get(api('/clickbank/orders'), () =>
      HttpResponse.json({ local: { clickbank_details: orders } }),
    ),
  /** No local order records. */
  none: () =>
    http.get(api('/clickbank/orders'), () =>
      HttpResponse.json({ local: { clickbank_details: [] } }),
    ),
  /** A non-OK answer: 'ClickBank orders fetch failed ({status})'. */
  failure: (status = 502) => failing('get', '/clickbank/orders', status, 'Upstream error'),
  loading: () => loading('get', '/clickbank/orders'),
};
