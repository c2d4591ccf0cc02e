import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../main';
import { SseReader } from '../testing/sse';
import { makeTestConfig, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '../testing/deps';
import { emitLiveEvent } from './emit';

let server: RunningServer;
let base: string;

beforeAll(async () => {
  const config = await makeTestConfig({ streamMaxTotal: 1 });
  server = await startServer(config, {
    log: pino({ level: 'silent' }),
    hostname: '127.0.0.1',
    seed: false,
  });
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function cookie(): Promise<string> {
  const login = await fetch(`${base}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  return (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}

describe('the event stream over real HTTP (startServer)', () => {
  it('frees the slot when the client disconnects, delivers over the socket and ends on close()', async () => {
    const session = await cookie();
    const url = `${base}/api/admin/events/stream`;

    // STREAM_MAX_TOTAL = 1: the second stream is refused until the first client goes away.
    const gone = new AbortController();
    const first = await fetch(url, { headers: { cookie: session }, signal: gone.signal });
    expect(first.status).toBe(200);
    expect((await fetch(url, { headers: { cookie: session } })).status).toBe(429);
    gone.abort();
    let res = await fetch(url, { headers: { cookie: session } });
    for (let i = 0; i < 50 && res.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 20));
      res = await fetch(url, { headers: { cookie: session } });
    }
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const reader = new SseReader(res.body!);
    expect((await reader.next())?.retry).toBe('3000');
    const sent = await server.deps.db.transaction((tx) =>
      emitLiveEvent(tx, {
        type: 'subscription.new',
        email: 'new@example.com',
        provider: 'clickbank',
        amount_cents: 4700,
        currency: 'USD',
        at: new Date('2026-11-20T12:00:00Z'),
      }),
    );
    const frame = await reader.nextEvent();
    expect(frame?.id).toBe(String(sent.id));
    expect(JSON.parse(frame?.data ?? '')).toEqual(sent);

    await server.close();
    expect(await reader.next()).toEqual({ comments: ['server shutting down'] });
    expect(await reader.next()).toBeNull();
  });
});
