/**
 * MSW handlers for the webhook inbox (docs/api.md "Webhook deliveries"): GET /webhook-deliveries
 * filtered (provider, outcome, event, email) and paged like the reference server, GET
 * /webhook-deliveries/:id, POST /webhook-deliveries/:id/replay, the loading and error states, and
 * a who-am-I answer naming the operator's role.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { DeliveryOutcome } from '../../src/domain/webhooks';
import { WEBHOOK_ROWS, webhookDetailWire, type WebhookRowWire } from './fixtures-webhooks';
import { api, jsonError } from './handlers';

function list(rows: WebhookRowWire[]): HttpHandler {
  return http.get(api('/webhook-deliveries'), ({ request }) => {
    const url = new URL(request.url);
    const p = (name: string) => url.searchParams.get(name);
    const event = p('event')?.toLowerCase();
    const filtered = rows.filter(
      (r) =>
        (!p('provider') || r.provider === p('provider')) &&
        (!p('outcome') || r.outcome === p('outcome')) &&
        (!event || r.event?.toLowerCase() === event) &&
        (!p('email') || r.email === p('email')?.toLowerCase()),
    );
    const pageSize = Math.max(1, Number(p('pageSize')) || 50);
    const page = Math.max(1, Number(p('page')) || 1);
    const total = filtered.length;
    return HttpResponse.json({
      rows: filtered.slice((page - 1) * pageSize, page * pageSize),
      total,
      page,
      pageSize,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      totalCapped: false,
    });
  });
}

/** GET /webhook-deliveries/:id from `rows`; 404 for another id. */
function detail(rows: WebhookRowWire[]): HttpHandler {
  return http.get(api('/webhook-deliveries/:id'), ({ params }) => {
    const found = rows.find((r) => String(r.id) === params.id);
    return found
      ? HttpResponse.json(webhookDetailWire(found))
      : jsonError(404, 'No such webhook delivery');
  });
}

/** The inbox endpoints. */
export const webhooksHandlers = {
  /** The list, the detail and a replay answering `replayOutcome`, over `rows`. */
  all: (rows: WebhookRowWire[] = WEBHOOK_ROWS, replayOutcome: DeliveryOutcome = 'duplicate') => [
    list(rows),
    detail(rows),
    http.post(api('/webhook-deliveries/:id/replay'), () =>
      HttpResponse.json({
        outcome: replayOutcome,
        effects: replayOutcome === 'applied' ? ['subscription.updated'] : [],
        error: null,
      }),
    ),
  ],
  empty: () => [list([])],
  loading: () => [
    http.get(api('/webhook-deliveries'), async () => {
      await delay('infinite');
      return new HttpResponse(null, { status: 204 });
    }),
  ],
  error: (status = 500, message = 'Inbox query failed') => [
    http.get(api('/webhook-deliveries'), () => jsonError(status, message)),
  ],
  /** GET /auth/whoami answering an operator of `role`. */
  whoami: (role: 'viewer' | 'support' | 'admin' | 'owner') =>
    http.get(api('/auth/whoami'), () =>
      HttpResponse.json({
        ok: true,
        user: { email: 'admin@example.com' },
        operator: { id: 1, email: 'admin@example.com', role },
      }),
    ),
};
