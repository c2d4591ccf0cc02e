/**
 * A fake LemonSqueezy API on 127.0.0.1 (random port) for tests and the bench: the list endpoint
 * reconciliation reads, `GET /v1/subscriptions?filter[store_id]=&page[number]=&page[size]=`,
 * answering JSON:API pages the way the API reference documents them —
 * `{meta:{page:{currentPage, from, lastPage, perPage, to, total}}, jsonapi:{version:'1.0'},
 * links:{first, last, next?, prev?}, data:[subscription objects]}` — sorted by id, filtered by the
 * objects' `attributes.store_id`, at most 100 a page; with `include=variant` the page's variants
 * (those in `variants`) follow in `included`, as JSON:API compound documents carry them. `GET
 * /v1/variants/:id` answers `{data: {type: 'variants', id, attributes: {name, interval,
 * interval_count, …}}}` from `variants`, or 404. A wrong Bearer key answers 401 with a
 * JSON:API error. `script` queues answers for the next requests (a 429 with Retry-After, a 5xx),
 * and every request is recorded. Loopback only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer for one coming request. */
export type ScriptedReply =
  { status: 429; retryAfter?: string } | { status: 500 | 502 | 503 | 504 } | { status: 'hang' };

/** One request the fake received. */
export interface FakeApiRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** A variant as the fake serves it: its billing interval unit and count. */
export interface FakeVariant {
  name?: string;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  interval_count?: number;
}

/** A running fake LemonSqueezy API. */
export interface FakeLemonSqueezyApi {
  url: string;
  /** The store's subscriptions: objects of the webhook's `data` shape; mutate freely. */
  subscriptions: Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
  /** Variants by id (GET /v1/variants/:id, and `included` for include=variant). */
  variants: Record<string, FakeVariant>;
  /** Whether the list honours include=variant (true); false answers without `included`. */
  includeVariants: boolean;
  /** Answers for the next requests, used first-in first-out before the real answer. */
  script: ScriptedReply[];
  requests: FakeApiRequest[];
  close(): Promise<void>;
}

/** Starts the fake for `apiKey` (the Bearer token it accepts). */
export async function startFakeLemonSqueezyApi(apiKey: string): Promise<FakeLemonSqueezyApi> {
  const fake: Omit<FakeLemonSqueezyApi, 'url' | 'close'> = {
    subscriptions: [],
    variants: {},
    includeVariants: true,
    script: [],
    requests: [],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: url.pathname + url.search, headers: req.headers });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/vnd.api+json', ...headers });
      res.end(JSON.stringify(body));
    };
    const scripted = fake.script.shift();
    if (scripted) {
      if (scripted.status === 'hang') return;
      if (scripted.status === 429) {
        send(
          429,
          { errors: [{ status: '429', title: 'Too Many Requests' }] },
          scripted.retryAfter === undefined ? {} : { 'Retry-After': scripted.retryAfter },
        );
        return;
      }
      send(scripted.status, {
        errors: [{ status: String(scripted.status), title: 'Server Error' }],
      });
      return;
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      send(401, { errors: [{ status: '401', title: 'Unauthenticated.' }] });
      return;
    }
    const variantPath = /^\/v1\/variants\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && variantPath) {
      const id = decodeURIComponent(variantPath[1] ?? '');
      const v = fake.variants[id];
      if (!v) {
        send(404, { errors: [{ status: '404', title: 'Not Found' }] });
        return;
      }
      send(200, { jsonapi: { version: '1.0' }, data: variantObject(id, v) });
      return;
    }
    if (req.method !== 'GET' || url.pathname !== '/v1/subscriptions') {
      send(404, { errors: [{ status: '404', title: 'Not Found' }] });
      return;
    }
    const store = url.searchParams.get('filter[store_id]');
    const size = Math.min(100, Math.max(1, Number(url.searchParams.get('page[size]') ?? 10) || 10));
    const number = Math.max(1, Number(url.searchParams.get('page[number]') ?? 1) || 1);
    const all = fake.subscriptions
      .filter((s) => store === null || String(s.attributes.store_id) === store)
      .sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
    const lastPage = Math.max(1, Math.ceil(all.length / size));
    const data = all.slice((number - 1) * size, number * size);
    const wantsVariants =
      fake.includeVariants &&
      (url.searchParams.get('include') ?? '').split(',').includes('variant');
    const variantIds = wantsVariants
      ? [...new Set(data.map((s) => String(s.attributes.variant_id ?? '')))].filter(
          (id) => fake.variants[id] !== undefined,
        )
      : [];
    const included = wantsVariants
      ? variantIds.map((id) => variantObject(id, fake.variants[id] as FakeVariant))
      : null;
    const link = (n: number) => {
      const q = new URLSearchParams(url.searchParams);
      q.set('page[number]', String(n));
      return `${base}/v1/subscriptions?${q.toString()}`;
    };
    send(200, {
      meta: {
        page: {
          currentPage: number,
          from: data.length ? (number - 1) * size + 1 : null,
          lastPage,
          perPage: size,
          to: data.length ? (number - 1) * size + data.length : null,
          total: all.length,
        },
      },
      jsonapi: { version: '1.0' },
      links: {
        first: link(1),
        last: link(lastPage),
        ...(number < lastPage ? { next: link(number + 1) } : {}),
        ...(number > 1 ? { prev: link(number - 1) } : {}),
      },
      data,
      ...(included ? { included } : {}),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A variant object as the API documents it (the attributes reconciliation and the tests read). */
function variantObject(id: string, v: FakeVariant): Record<string, unknown> {
  return {
    type: 'variants',
    id,
    attributes: {
      name: v.name ?? `Variant ${id}`,
      is_subscription: v.interval !== null,
      interval: v.interval,
      interval_count: v.interval === null ? null : (v.interval_count ?? 1),
      status: 'published',
    },
  };
}
