/**
 * MSW handlers for the revenue endpoints (docs/api.md "Revenue"): GET /metrics/revenue,
 * /metrics/revenue/movements/:date and /metrics/cohorts; ok (fixtures-revenue), loading
 * (delay('infinite')) and error (a docs/api.md JSON error).
 */
import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import { api, jsonError } from './handlers';
import { MOVEMENT_LIST_WIRE, makeCohortsWire, makeRevenueWire } from './fixtures-revenue';

function loading(path: string): HttpHandler {
  return http.get(api(path), async () => {
    await delay('infinite');
    return new HttpResponse(null, { status: 204 });
  });
}

/** GET /metrics/revenue, /metrics/cohorts and the drill-down list. */
export const revenueHandlers = {
  ok: (data: JsonBodyType = makeRevenueWire()) =>
    http.get(api('/metrics/revenue'), () => HttpResponse.json(data)),
  loading: () => loading('/metrics/revenue'),
  error: (message = 'Revenue figures are unavailable') =>
    http.get(api('/metrics/revenue'), () => jsonError(500, message)),
  cohorts: (data: JsonBodyType = makeCohortsWire()) =>
    http.get(api('/metrics/cohorts'), () => HttpResponse.json(data)),
  movements: (data: JsonBodyType = MOVEMENT_LIST_WIRE) =>
    http.get(api('/metrics/revenue/movements/:date'), () => HttpResponse.json(data)),
};

/** Every revenue endpoint answering its default fixture. */
export function revenueDefaultHandlers(): HttpHandler[] {
  return [revenueHandlers.ok(), revenueHandlers.cohorts(), revenueHandlers.movements()];
}
