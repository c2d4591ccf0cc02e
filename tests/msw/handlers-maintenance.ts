/**
 * MSW handlers of the maintenance area (§7 candidate paths, CONTRACT.md): each factory answers
 * one state. `stateful()` behaves like the reference server: a dry run lists the due users, a
 * POST {dryRun:false} applies them, and the next dry run shows 0.
 */
import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import { api, jsonError, whoamiHandlers } from './handlers';
import {
  DIAG_WIRE,
  DUE_EMAILS,
  ENFORCE_WIRE,
  PING_WIRE,
  expirationWire,
} from './fixtures-maintenance';
import {
  RECONCILE_APPLIED_WIRE,
  RECONCILE_DRY_WIRE,
  RECONCILE_NOT_CONFIGURED,
  RECONCILE_NOTHING_WIRE,
} from './fixtures-reconcile';

const EXPIRATION = '/maintenance/run-expiration';

/** The expiration run (GET preview / POST apply) at maintenance/run-expiration. */
export const expirationHandlers = {
  /** Dry run and apply both list `emails`. */
  fixed: (emails: string[] = DUE_EMAILS) => [
    http.get(api(EXPIRATION), () => HttpResponse.json(expirationWire(emails, true))),
    http.post(api(EXPIRATION), () => HttpResponse.json(expirationWire(emails, false))),
  ],
  /** Like the server: after an apply, a dry run shows 0. */
  stateful: (emails: string[] = DUE_EMAILS) => {
    let due = [...emails];
    return [
      http.get(api(EXPIRATION), () => HttpResponse.json(expirationWire(due, true))),
      http.post(api(EXPIRATION), async ({ request }) => {
        const body = (await request.json().catch(() => null)) as { dryRun?: unknown } | null;
        if (body?.dryRun !== false)
          return jsonError(400, 'Nothing was applied: send the body {"dryRun": false}');
        const applied = due;
        due = [];
        return HttpResponse.json(expirationWire(applied, false));
      }),
    ];
  },
  /** Never answers (the busy state). */
  loading: () => [
    http.get(api(EXPIRATION), async () => {
      await delay('infinite');
      return new HttpResponse(null, { status: 204 });
    }),
  ],
  /** Every candidate path answers 404 (§8 'Not Found – none of the candidate paths…'). */
  allNotFound: () =>
    ['maintenance/run-expiration', 'run-expiration', 'jobs/run-expiration'].flatMap((p) => [
      http.get(api(p), () => jsonError(404, 'Not found')),
      http.post(api(p), () => jsonError(404, 'Not found')),
    ]),
  /** No answer at all (§8 'Network error'). */
  networkError: () => [
    http.get(api(EXPIRATION), () => HttpResponse.error()),
    http.post(api(EXPIRATION), () => HttpResponse.error()),
  ],
};

/**
 * POST /maintenance/reconcile like the reference server with LemonSqueezy configured and ClickBank
 * not: a LemonSqueezy dry run lists what differs until an apply fixes it, then nothing; ClickBank
 * answers 409 not_configured.
 */
export const reconcileHandlers = {
  stateful: () => {
    let fixed = false;
    return [
      http.post(api('/maintenance/reconcile'), async ({ request }) => {
        const body = (await request.json().catch(() => null)) as {
          provider?: unknown;
          dryRun?: unknown;
        } | null;
        if (body?.provider === 'clickbank') {
          return HttpResponse.json(RECONCILE_NOT_CONFIGURED, { status: 409 });
        }
        if (body?.dryRun === false) {
          const answer = fixed
            ? { ...RECONCILE_NOTHING_WIRE, dryRun: false }
            : RECONCILE_APPLIED_WIRE;
          fixed = true;
          return HttpResponse.json(answer);
        }
        return HttpResponse.json(fixed ? RECONCILE_NOTHING_WIRE : RECONCILE_DRY_WIRE);
      }),
    ];
  },
  /** The provider cannot be read (424). */
  unavailable: () => [
    http.post(api('/maintenance/reconcile'), () =>
      jsonError(424, 'LemonSqueezy refused the credentials (HTTP 401)'),
    ),
  ],
};

/** GET /auth/whoami answering an operator of `role` (what gates Apply). */
export function operatorWhoami(role: 'viewer' | 'support' | 'admin' | 'owner'): HttpHandler {
  return http.get(api('/auth/whoami'), () =>
    HttpResponse.json({
      ok: true,
      user: { email: 'ops@example.com' },
      operator: { id: 2, email: 'ops@example.com', role },
    }),
  );
}

/** GET /maintenance/diag. */
export const diagHandlers = {
  ok: (data: JsonBodyType = DIAG_WIRE) =>
    http.get(api('/maintenance/diag'), () => HttpResponse.json(data)),
  error: (status = 500, message = 'Diagnostics failed') =>
    http.get(api('/maintenance/diag'), () => jsonError(status, message)),
};

/** The three pings. */
export const pingHandlers = {
  discourse: (body: JsonBodyType = PING_WIRE.discourseOk) =>
    http.get(api('/maintenance/ping-discourse'), () => HttpResponse.json(body)),
  /** Every forum candidate path 404s. */
  discourseAllNotFound: () =>
    ['maintenance/ping-discourse', 'maintenance/ping', 'ping-discourse', 'ping'].map((p) =>
      http.get(api(p), () => jsonError(404, 'Not found')),
    ),
  lemonsqueezy: (body: JsonBodyType = PING_WIRE.lemonsqueezyOk) =>
    http.get(api('/maintenance/ping-lemonsqueezy'), () => HttpResponse.json(body)),
  lemonsqueezyNetworkError: () =>
    http.get(api('/maintenance/ping-lemonsqueezy'), () => HttpResponse.error()),
  /** Answers per `which` (secret / developer / none). */
  clickbank: () =>
    http.get(api('/maintenance/ping-clickbank'), ({ request }) => {
      const which = new URL(request.url).searchParams.get('which');
      if (which === 'secret') return HttpResponse.json(PING_WIRE.clickbankSecretOk);
      if (which === 'developer')
        return HttpResponse.json({
          ok: false,
          reason: 'ClickBank developer and clerk keys not configured',
        });
      return HttpResponse.json({
        ok: false,
        reason: 'developer: ClickBank developer and clerk keys not configured; secret: ok',
      });
    }),
};

/** POST /maintenance/enforce-now. */
export const enforceHandlers = {
  ok: (body: JsonBodyType = ENFORCE_WIRE) =>
    http.post(api('/maintenance/enforce-now'), () => HttpResponse.json(body)),
  unknown: () =>
    http.post(api('/maintenance/enforce-now'), async ({ request }) => {
      const body = (await request.json()) as { email?: string };
      return jsonError(404, `No user with email ${body.email ?? ''}`);
    }),
};

/** Every maintenance call answering like a healthy reference server with nothing configured. */
export function maintenanceHandlers(): HttpHandler[] {
  return [
    ...expirationHandlers.stateful(),
    diagHandlers.ok(),
    pingHandlers.discourse(PING_WIRE.discourseNotConfigured),
    pingHandlers.lemonsqueezy(PING_WIRE.lemonsqueezyOk),
    pingHandlers.clickbank(),
    enforceHandlers.ok(),
    ...reconcileHandlers.stateful(),
    whoamiHandlers.signedIn(),
  ];
}
