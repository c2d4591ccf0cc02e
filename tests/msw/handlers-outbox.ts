/** MSW handlers of the forum outbox: an action whose forum update is queued. */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { api } from './handlers';
import { ACTION_QUEUED_WIRE } from './fixtures-outbox';

export const outboxActionHandlers = {
  /** POST /users/actions/:action → 'OK (Discourse update queued: …)'. */
  queued: (): HttpHandler =>
    http.post(api('/users/actions/:action'), () => HttpResponse.json(ACTION_QUEUED_WIRE)),
};
