/**
 * MSW handlers for the customer page and search (docs/api.md "Customers", "Search"): GET
 * /customers/:email (known emails, else 404), its keyset-paged timeline filtered by kind, the
 * forum job retry, and GET /search matching the fixtures by prefix, with loading and error states.
 */
import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw';
import {
  CUSTOMER_WIRE,
  NEW_CUSTOMER_WIRE,
  SEARCH_RESULTS_WIRE,
  TIMELINE_WIRE_ITEMS,
} from './fixtures-customers';
import { api, jsonError } from './handlers';

type TimelineWire = { id: string; at: string; kind: string }[];

const KNOWN: Record<string, JsonBodyType> = {
  [CUSTOMER_WIRE.customer.email]: CUSTOMER_WIRE,
  [NEW_CUSTOMER_WIRE.customer.email]: NEW_CUSTOMER_WIRE,
};

/** Pages `items` (newest first) like the server: kind filter, `before` = the last id seen. */
function timelinePage(items: TimelineWire, url: URL) {
  const kinds = (url.searchParams.get('kind') ?? '').split(',').filter(Boolean);
  const limit = Math.max(1, Number(url.searchParams.get('limit')) || 50);
  const before = url.searchParams.get('before');
  let filtered = kinds.length > 0 ? items.filter((i) => kinds.includes(i.kind)) : items;
  if (before) filtered = filtered.slice(filtered.findIndex((i) => i.id === before) + 1);
  const page = filtered.slice(0, limit);
  return {
    items: page,
    next_before: filtered.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

export const customerHandlers = {
  /** The known customers by email; others answer 404 NOT_FOUND. */
  ok: (records: Record<string, JsonBodyType> = KNOWN) =>
    http.get(api('/customers/:email'), ({ params }) => {
      const email = decodeURIComponent(String(params.email));
      const record = records[email];
      if (!record)
        return HttpResponse.json(
          { ok: false, code: 'NOT_FOUND', message: `No customer ${email}` },
          { status: 404 },
        );
      return HttpResponse.json(record);
    }),
  loading: () =>
    http.get(api('/customers/:email'), async () => {
      await delay('infinite');
    }),
  error: (status = 500, message = 'Customer query failed') =>
    http.get(api('/customers/:email'), () => jsonError(status, message)),
  /** A 200 whose JSON is not a customer record. */
  malformed: () =>
    http.get(api('/customers/:email'), () => HttpResponse.json({ customer: 'johndoe' })),
};

export const timelineHandlers = {
  /** `items` (newest first) paged and filtered; John Doe's entries by default. */
  ok: (items: TimelineWire = TIMELINE_WIRE_ITEMS) =>
    http.get(api('/customers/:email/timeline'), ({ request }) =>
      HttpResponse.json(timelinePage(items, new URL(request.url))),
    ),
  loading: () =>
    http.get(api('/customers/:email/timeline'), async () => {
      await delay('infinite');
    }),
  error: (status = 500, message = 'Timeline query failed') =>
    http.get(api('/customers/:email/timeline'), () => jsonError(status, message)),
};

export const forumRetryHandlers = {
  /** Re-queues the job: it answers the job as pending. */
  ok: () =>
    http.post(api('/customers/:email/forum-jobs/:id/retry'), ({ params }) =>
      HttpResponse.json({
        ok: true,
        job: { id: Number(params.id), op: 'grant', status: 'pending', attempts: 8 },
      }),
    ),
  error: (status = 409, message = 'Only a failed job can be retried') =>
    http.post(api('/customers/:email/forum-jobs/:id/retry'), () =>
      HttpResponse.json({ ok: false, code: 'CONFLICT', message }, { status }),
    ),
};

export const searchHandlers = {
  /** Results whose label, email or match starts with q (case-insensitive), in fixture order. */
  ok: (results = SEARCH_RESULTS_WIRE) =>
    http.get(api('/search'), ({ request }) => {
      const q = (new URL(request.url).searchParams.get('q') ?? '').trim().toLowerCase();
      return HttpResponse.json({
        results: results.filter((r) =>
          [r.label, r.email ?? '', r.match].some((v) => v.toLowerCase().startsWith(q)),
        ),
      });
    }),
  loading: () =>
    http.get(api('/search'), async () => {
      await delay('infinite');
    }),
  error: (status = 500, message = 'Search failed (500)') =>
    http.get(api('/search'), () => jsonError(status, message)),
};

/** The customer page and search in their default state. */
export function customerDefaultHandlers(): HttpHandler[] {
  return [
    customerHandlers.ok(),
    timelineHandlers.ok(),
    forumRetryHandlers.ok(),
    searchHandlers.ok(),
  ];
}
