/**
 * A fake LemonSqueezy API on 127.0.0.1 (random port) for tests and the bench: the list endpoint
 * reconciliation reads, `GET /v1/subscriptions?filter[store_id]=&page[number]=&page[size]=`,
 * answering JSON:API pages the way the API reference documents them —
 * `{meta:{page:{currentPage, from, lastPage, perPage, to, total}}, jsonapi:{version:'1.0'},
 * links:{first, last, next?, prev?}, data:[subscription objects]}` — sorted by id, filtered by the
 * objects' `attributes.store_id`, at most 100 a page. A wrong Bearer key answers 401 with a
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

/** A running fake LemonSqueezy API. */
export interface FakeLemonSqueezyApi {
  url: string;
  /** The store's subscriptions: objects of the webhook's `data` shape; mutate freely. */
  subscriptions: Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
  /** Answers for the next requests, used first-in first-out before the real answer. */
  script: ScriptedReply[];
  requests: FakeApiRequest[];
  close(): Promise<void>;
}

/** Starts the fake for `apiKey` (the Bearer token it accepts). */
export async function startFakeLemonSqueezyApi(apiKey: string): Promise<FakeLemonSqueezyApi> {
  const fake: Omit<FakeLemonSqueezyApi, 'url' | 'close'> = {
    subscriptions: [],
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
