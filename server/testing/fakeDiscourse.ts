/**
 * A fake Discourse HTTP server on 127.0.0.1 (random port) for tests: records every request
 * (method, path with query, headers, parsed JSON body) and answers with what the test's `reply`
 * function returns — or never answers ('hang'), to exercise time-outs. Loopback only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. `body` is the parsed JSON body, or null when empty. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the fake answers: a status and a JSON body, or 'hang' (never answer). */
export type FakeReply = { status: number; body: unknown } | 'hang';

/** A running fake: its base URL, the recorded requests, and close(). */
export interface FakeDiscourse {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the fake with `reply(request)` deciding each answer. */
export async function startFakeDiscourse(
  reply: (req: RecordedRequest) => FakeReply,
): Promise<FakeDiscourse> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const answer = reply(recorded);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
