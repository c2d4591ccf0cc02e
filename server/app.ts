/**
 * The reference server as one Hono app: security headers and request logging on
 * every answer; the console under /admin; the admin API under config.apiPrefix with its public
 * routes (auth, health) first, then the authentication middleware, then the dashboard routes and
 * every feature router of server/routes/registry.ts. Errors become the JSON of docs/api.md.
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { routePath } from 'hono/route';
import { secureHeaders } from 'hono/secure-headers';
import { createAccountRouter } from './auth/accountRoutes';
import {
  authLimits,
  createAuthRouter,
  requireAuth,
  trustedHops,
  type AuthEnv,
  type AuthRouterOptions,
} from './auth/routes';
import type { AppDeps } from './context';
import { ApiError } from './errors';
import { jsonBodyGuard, jsonBodyLimit } from './http/body';
import { dbWorkload } from './http/dbWorkload';
import { createLiveHub, type LiveHub } from './live/hub';
import { createLiveStreamRouter } from './live/stream';
import { sameOriginGuard } from './http/sameOrigin';
import { errorClass, requestIdOf, requestLogger, safeErrorMessage, writeDbLog } from './logging';
import { featureRoutes } from './routes/registry';
import { createHealthRouter } from './routes/health';
import { createStatsRouter } from './routes/stats';
import { CONSOLE_BASE, createConsoleRouter } from './static';
import { webhookRoutes } from './webhooks';

/** The Content-Security-Policy directives the console runs under (no inline scripts). */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

interface ZodLikeIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

function zodIssues(err: unknown): ZodLikeIssue[] | null {
  if (err && typeof err === 'object' && (err as { name?: unknown }).name === 'ZodError') {
    const issues = (err as { issues?: unknown }).issues;
    if (Array.isArray(issues)) return issues as ZodLikeIssue[];
  }
  return null;
}

/** True for errors that mean the embedded database cannot be used at all (closed, not ready). */
/** Error codes of a PostgreSQL server that cannot answer: connection exceptions (08…), shutdown or start-up (57P01–57P03), too many connections (53300). */
const PG_DOWN_CODES = /^(08\d{3}|08P01|57P0[1-3]|53300)$/;
/** Node socket errors of an unreachable database server. */
const NET_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * Whether `err` means the database cannot be reached (→ 503 db_unavailable, not 500): a closed
 * PGlite or pool ("database is closed"), or a PostgreSQL server that refuses, drops or times out
 * connections.
 */
export function isDatabaseDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (
    /PGlite is closed|database is closed|not ready|Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end/i.test(
      err.message,
    )
  ) {
    return true;
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (PG_DOWN_CODES.test(code) || NET_DOWN_CODES.has(code))) {
    return true;
  }
  // node-postgres reports a refused connection to a host with several addresses as an AggregateError.
  if (err instanceof AggregateError) return err.errors.some((e) => isDatabaseDown(e));
  return false;
}

/** Seconds a client is told to wait (Retry-After) after a database time-out. */
export const DB_TIMEOUT_RETRY_AFTER_S = 5;

/**
 * Whether `err` is a database time-out (→ 503 db_timeout with Retry-After, not 500): a statement
 * cancelled by its statement_timeout (SQLSTATE 57014 query_canceled, also raised when an operator
 * cancels the statement) or by a read replica's replay (40001, "conflict with recovery"), or no
 * pool connection free within the pool's connection time-out. The
 * database is up; the request may succeed when retried.
 */
export function isDatabaseTimeout(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === '57014') return true;
  // A read replica cancels a query whose rows its replay must remove (a conflict with recovery);
  // retried, the query reads the replayed rows.
  if (code === '40001' && /conflict with recovery/i.test(err.message)) return true;
  return /timeout exceeded when trying to connect/i.test(err.message);
}

const HTTP_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'db_unavailable',
};

/**
 * Turns anything thrown by a route into the docs/api.md error JSON; 5xx are logged (process and
 * logs table) with the request id, which a 500's answer also carries so an operator can find the
 * line. The error itself is logged through serializeError (server/logging.ts): customer data the
 * error carries stays out of both logs, the stack stays in the process log.
 */
function errorResponse(err: unknown, c: Context, deps: AppDeps): Response {
  const request_id = requestIdOf(c);
  if (err instanceof ApiError) {
    if (err.status >= 500) {
      deps.log.error({ code: err.code, path: c.req.path, request_id }, err.message);
      writeDbLog(deps, 'error', err.message, {
        code: err.code,
        method: c.req.method,
        path: c.req.path,
        status: err.status,
        request_id,
      });
    }
    return c.json({ error: err.code, message: err.message, ...err.extra }, err.status as 400);
  }
  const issues = zodIssues(err);
  if (issues) {
    const first = issues[0];
    const where = first && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
    return c.json(
      {
        error: 'bad_request',
        message: first ? `Invalid request: ${where}${first.message}` : 'Invalid request',
        issues: issues.map((i) => ({
          path: i.path.map(String).join('.'),
          message: i.message,
          code: i.code,
        })),
      },
      400,
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status >= 500) deps.log.error({ path: c.req.path, status, request_id }, err.message);
    return c.json(
      {
        error: HTTP_CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request'),
        message: err.message || 'Request failed',
      },
      status,
    );
  }
  if (isDatabaseTimeout(err)) {
    const pool = (err as { code?: unknown }).code !== '57014';
    deps.log.warn(
      { path: c.req.path, route: routePath(c), request_id },
      pool ? 'database pool exhausted: no connection free in time' : 'database statement timed out',
    );
    c.header('Retry-After', String(DB_TIMEOUT_RETRY_AFTER_S));
    return c.json(
      {
        error: 'db_timeout',
        code: 'DB_TIMEOUT',
        message: pool
          ? 'The database is busy. Try again in a few seconds.'
          : 'The database took too long to answer. Try again in a few seconds.',
      },
      503,
    );
  }
  if (isDatabaseDown(err)) {
    deps.log.error({ path: c.req.path, request_id }, 'database unavailable');
    return c.json(
      { error: 'db_unavailable', message: 'Backend database is currently unavailable.' },
      503,
    );
  }
  const where = {
    method: c.req.method,
    path: c.req.path,
    route: routePath(c),
    request_id,
    error_class: errorClass(err),
  };
  deps.log.error({ ...where, err }, 'unhandled error');
  writeDbLog(deps, 'error', 'Unhandled server error', {
    method: where.method,
    path: where.path,
    route: where.route,
    request_id,
    error: where.error_class,
    detail: safeErrorMessage(err).slice(0, 500),
  });
  return c.json({ error: 'internal', message: 'Internal server error', request_id }, 500);
}

/** Test seams for createApp. */
export interface CreateAppOptions {
  /** Passed to the auth router (e.g. an injected rate limiter). */
  auth?: AuthRouterOptions;
  /**
   * The process's live event hub (server/live/hub.ts) feeding GET {prefix}/events/stream;
   * startServer passes its own and stops it on close. Default: a hub of this app over deps.db,
   * started by the first stream.
   */
  liveHub?: LiveHub;
}

/**
 * Builds the whole server: `createApp(deps).fetch` serves the admin API
 * under deps.config.apiPrefix (public: POST /auth/login, /auth/logout, /logout, GET /auth/whoami,
 * /health, /health/db; everything else needs a session, CONTRACT.md "Authentication") and the
 * console under /admin. Unknown API paths answer 404 JSON `{error:'not_found', message}`.
 */
export function createApp(deps: AppDeps, options: CreateAppOptions = {}): Hono {
  const { config } = deps;
  const app = new Hono();

  const hstsMaxAge = config.hstsMaxAge ?? 0;
  // Every answer names its request (X-Request-Id; a proxy's well-formed id is kept), and every log
  // line about it carries the same id.
  app.use('*', requestId({ limitLength: 100 }));
  // Every database call of the request gets its workload's statement time-out.
  app.use('*', dbWorkload(config.apiPrefix));
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      xFrameOptions: 'DENY',
      referrerPolicy: 'strict-origin-when-cross-origin',
      xContentTypeOptions: 'nosniff',
      // HSTS_MAX_AGE: off on loopback http, 180 days elsewhere by default.
      strictTransportSecurity: hstsMaxAge > 0 ? `max-age=${hstsMaxAge}; includeSubDomains` : false,
    }),
  );
  app.use('*', requestLogger(deps.log));

  const api = new Hono<AuthEnv>();
  // Cross-site unsafe requests are refused before anything else.
  api.use('*', sameOriginGuard(trustedHops(config)));
  const limits = authLimits(deps, options.auth);
  api.route('/', createAuthRouter(deps, limits));
  api.route('/', createHealthRouter(deps));
  // The live stream authenticates itself (bearer or cookie, re-checked on every heartbeat).
  api.route(
    '/',
    createLiveStreamRouter(deps, {
      hub:
        options.liveHub ??
        createLiveHub(deps.db, (payload) =>
          deps.log.warn({ payload: payload.slice(0, 200) }, 'ignored a malformed live event'),
        ),
    }),
  );
  // Authenticate BEFORE reading any body: an unauthenticated huge or malformed body gets 401.
  api.use('*', requireAuth(deps));
  api.use('*', jsonBodyLimit());
  api.use('*', jsonBodyGuard());
  api.use('*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  api.route('/', createAccountRouter(deps, limits));
  api.route('/', createStatsRouter(deps));
  for (const factory of featureRoutes) api.route('/', factory(deps));
  api.all('*', (c) =>
    c.json({ error: 'not_found', message: `No API route for ${c.req.method} ${c.req.path}` }, 404),
  );
  app.route(config.apiPrefix, api);

  // Provider webhooks: at the server root, no session; each verifies its own signature.
  app.route('/', webhookRoutes(deps));

  app.get('/', (c) => c.redirect(`${CONSOLE_BASE}/`, 302));
  app.get(CONSOLE_BASE, (c) => c.redirect(`${CONSOLE_BASE}/`, 302));
  app.route('/', createConsoleRouter(config));

  app.notFound((c) => {
    const p = c.req.path;
    if (p === config.apiPrefix || p.startsWith(`${config.apiPrefix}/`)) {
      return c.json({ error: 'not_found', message: `No API route for ${c.req.method} ${p}` }, 404);
    }
    return c.text('Not found', 404);
  });
  app.onError((err, c) => errorResponse(err, c, deps));
  return app;
}
