/**
 * MSW handlers for the Metrics and Integrated Tracking endpoints (CONTRACT.md): GET
 * /metrics/overview, /isr-metrics/summary, /isr-metrics/daily, /isr-metrics/affiliates and
 * /isr-events. Each factory answers one state: ok (fixtures-metrics), loading
 * (delay('infinite')), error (a docs/api.md JSON error) and the resource's own states.
 */
import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import { api, jsonError } from './handlers';
import {
  ISR_AFFILIATES_WIRE,
  ISR_EVENTS,
  METRICS_WIRE,
  makeIsrDailyWire,
  makeIsrSummaryWire,
  makeMetricsWire,
  type IsrEventWire,
  type MetricsWireOptions,
} from './fixtures-metrics';

function loading(path: string): HttpHandler {
  return http.get(api(path), async () => {
    await delay('infinite');
    return new HttpResponse(null, { status: 204 });
  });
}

/** Days between two 'YYYY-MM-DD…' values, inclusive (28 when either is missing). */
function spanDays(from: string | null, to: string | null): number {
  if (!from || !to) return 28;
  const days =
    (Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) /
      86_400_000 +
    1;
  return Number.isFinite(days) && days >= 1 ? Math.min(days, 800) : 28;
}

/** GET /metrics/overview. */
export const metricsHandlers = {
  /** A fixed answer (default: 28 days, both providers, amounts in cents). */
  ok: (data: JsonBodyType = METRICS_WIRE) =>
    http.get(api('/metrics/overview'), () => HttpResponse.json(data)),
  /** An answer sized to the requested from..to (as the reference server does), with `options`. */
  byRange: (options: Omit<MetricsWireOptions, 'days'> = {}) =>
    http.get(api('/metrics/overview'), ({ request }) => {
      const url = new URL(request.url);
      const days = spanDays(url.searchParams.get('from'), url.searchParams.get('to'));
      return HttpResponse.json(makeMetricsWire({ ...options, days }));
    }),
  loading: () => loading('/metrics/overview'),
  error: (status = 500, message = 'Metrics query failed') =>
    http.get(api('/metrics/overview'), () => jsonError(status, message)),
  /** 200 with a JSON array: the screen shows its default 'Failed to load metrics' (§8). */
  malformed: () => http.get(api('/metrics/overview'), () => HttpResponse.json([1, 2, 3])),
  /** A valid answer without any amount series (§2 message). */
  noAmountSeries: () =>
    http.get(api('/metrics/overview'), () =>
      HttpResponse.json(makeMetricsWire({ amountSeriesName: null })),
    ),
};

/** GET /isr-metrics/summary. */
export const isrSummaryHandlers = {
  /** The summary of the requested range's days (default 14). */
  ok: () =>
    http.get(api('/isr-metrics/summary'), ({ request }) => {
      const url = new URL(request.url);
      return HttpResponse.json(
        makeIsrSummaryWire(spanDays(url.searchParams.get('from'), url.searchParams.get('to'))),
      );
    }),
  /** No events in range: zeros. */
  empty: () =>
    http.get(api('/isr-metrics/summary'), () =>
      HttpResponse.json({
        total_amount_cents: 0,
        total_events: 0,
        clickbank_amount_cents: 0,
        clickbank_events: 0,
        lemonsqueezy_amount_cents: 0,
        lemonsqueezy_events: 0,
      }),
    ),
  loading: () => loading('/isr-metrics/summary'),
  error: (status = 500, message = 'ISR summary query failed') =>
    http.get(api('/isr-metrics/summary'), () => jsonError(status, message)),
};

/** GET /isr-metrics/daily. */
export const isrDailyHandlers = {
  ok: () =>
    http.get(api('/isr-metrics/daily'), ({ request }) => {
      const url = new URL(request.url);
      return HttpResponse.json({
        rows: makeIsrDailyWire(spanDays(url.searchParams.get('from'), url.searchParams.get('to'))),
      });
    }),
  empty: () => http.get(api('/isr-metrics/daily'), () => HttpResponse.json({ rows: [] })),
  loading: () => loading('/isr-metrics/daily'),
  error: () => http.get(api('/isr-metrics/daily'), () => jsonError(500, 'ISR daily query failed')),
};

/** GET /isr-metrics/affiliates. */
export const isrAffiliatesHandlers = {
  ok: (rows: JsonBodyType = ISR_AFFILIATES_WIRE) =>
    http.get(api('/isr-metrics/affiliates'), () => HttpResponse.json({ rows })),
  empty: () => http.get(api('/isr-metrics/affiliates'), () => HttpResponse.json({ rows: [] })),
  loading: () => loading('/isr-metrics/affiliates'),
};

/** GET /isr-events: filters (q over receipt/order/affiliate/email/campaign, exact fields) and pages of 50. */
export const isrEventsHandlers = {
  list: (rows: IsrEventWire[] = ISR_EVENTS) =>
    http.get(api('/isr-events'), ({ request }) => {
      const url = new URL(request.url);
      const q = (name: string) => url.searchParams.get(name);
      const text = q('q')?.toLowerCase();
      const filtered = rows.filter((r) => {
        if (
          text &&
          ![r.receipt, r.order_id, r.affiliate, r.customer_email, r.campaign].some((v) =>
            v?.toLowerCase().includes(text),
          )
        )
          return false;
        if (q('source') && r.source !== q('source')) return false;
        if (q('affiliate') && r.affiliate !== q('affiliate')) return false;
        if (q('subid') && r.subid !== q('subid')) return false;
        if (q('receipt') && r.receipt !== q('receipt')) return false;
        if (q('order_id') && r.order_id !== q('order_id')) return false;
        return true;
      });
      const pageSize = Math.max(1, Number(q('pageSize')) || 50);
      const page = Math.max(1, Number(q('page')) || 1);
      return HttpResponse.json({
        rows: filtered.slice((page - 1) * pageSize, page * pageSize),
        total: filtered.length,
      });
    }),
  empty: () => http.get(api('/isr-events'), () => HttpResponse.json({ rows: [], total: 0 })),
  loading: () => loading('/isr-events'),
  error: () => http.get(api('/isr-events'), () => jsonError(500, 'ISR events query failed')),
};

/** Every Metrics/ISR call answering from the fixtures (for ./defaultHandlers and story bases). */
export function metricsDefaultHandlers(): HttpHandler[] {
  return [
    metricsHandlers.byRange(),
    isrSummaryHandlers.ok(),
    isrDailyHandlers.ok(),
    isrAffiliatesHandlers.ok(),
    isrEventsHandlers.list(),
  ];
}
