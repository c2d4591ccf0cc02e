import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { SESSION_COOKIE } from '../auth/session';
import { testSessionToken } from '../testing/deps';
import type { AppDeps, ServerConfig } from '../context';
import type { Db } from '../db/types';
import { freshDb, resetDb, testDeps } from '../testing/app';
import { SseReader, SseTimeout } from '../testing/sse';
import { emitLiveEvent, type LiveEventInput, type LiveEventMessage } from './emit';
import { createLiveHub, type LiveHub } from './hub';
import { pruneLiveEvents, replayEvents } from './stream';

const T0 = new Date('2026-11-20T12:00:00.000Z');
const PATH = '/api/admin/events/stream';

let db: Db;
const clock = { now: T0 };
const hubs: LiveHub[] = [];
const readers: SseReader[] = [];

beforeAll(async () => {
  db = await freshDb();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  clock.now = T0;
});
afterEach(async () => {
  for (const r of readers.splice(0)) await r.cancel();
  for (const h of hubs.splice(0)) await h.stop();
});

/** Deps over the shared database with a movable clock. */
function deps(overrides: Partial<ServerConfig> = {}): AppDeps {
  return { ...testDeps(db, T0, { sessionTtlS: 3600, ...overrides }), now: () => clock.now };
}

/** The whole app with its own hub (one "server instance"). */
function instance(overrides: Partial<ServerConfig> = {}) {
  const d = deps(overrides);
  const hub = createLiveHub(db);
  hubs.push(hub);
  return { app: createApp(d, { liveHub: hub }), deps: d, hub };
}

async function token(d: AppDeps, email = 'admin@example.com'): Promise<string> {
  return testSessionToken(db, d.config, clock.now, email);
}

type App = ReturnType<typeof instance>['app'];

async function open(app: App, headers: Record<string, string>, query = '') {
  return app.request(`${PATH}${query}`, { headers });
}

/** Opens a stream with the bearer token and reads its first frame (the retry). */
async function stream(app: App, tok: string, extra: Record<string, string> = {}, query = '') {
  const res = await open(app, { authorization: `Bearer ${tok}`, ...extra }, query);
  expect(res.status).toBe(200);
  const reader = new SseReader(res.body!);
  readers.push(reader);
  const first = await reader.next();
  expect(first?.retry).toMatch(/^\d+$/);
  return reader;
}

function event(n: number, type: LiveEventInput['type'] = 'subscription.new'): LiveEventInput {
  return {
    type,
    email: `buyer${n}@example.com`,
    provider: 'lemonsqueezy',
    amount_cents: 1000 + n,
    currency: 'USD',
    at: new Date(T0.getTime() + n * 1000),
  };
}

async function emit(n: number, type?: LiveEventInput['type']): Promise<LiveEventMessage> {
  return db.transaction((tx) => emitLiveEvent(tx, event(n, type)));
}

function message(frame: { data?: string } | null): LiveEventMessage {
  expect(frame?.data).toBeDefined();
  return JSON.parse(frame!.data!) as LiveEventMessage;
}

describe('GET /events/stream authentication', () => {
  it('answers the 401 JSON without a session, with a bad token and with an expired one', async () => {
    const { app, deps: d } = instance();
    const none = await open(app, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/application\/json/);
    expect(await none.json()).toEqual({
      error: 'unauthorized',
      ok: false,
      code: 'NO_TOKEN',
      message: 'Please sign in.',
    });

    const bad = await open(app, { authorization: 'Bearer not.a.jwt' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'unauthorized', code: 'INVALID_JWT' });

    const old = await token(d);
    clock.now = new Date(T0.getTime() + 3601_000);
    const expired = await open(app, { cookie: `${SESSION_COOKIE}=${old}` });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'INVALID_JWT' });
  });

  it('accepts the bearer header and the session cookie, with the stream headers', async () => {
    const { app, deps: d } = instance();
    const tok = await token(d);
    const ways: Record<string, string>[] = [
      { authorization: `Bearer ${tok}` },
      { cookie: `${SESSION_COOKIE}=${tok}` },
    ];
    for (const headers of ways) {
      const res = await open(app, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      const reader = new SseReader(res.body!);
      readers.push(reader);
      expect(await reader.next()).toEqual({ retry: '3000', comments: [] });
    }
  });

  it('answers 400 for a malformed Last-Event-ID', async () => {
    const { app, deps: d } = instance();
    const res = await open(app, {
      authorization: `Bearer ${await token(d)}`,
      'last-event-id': 'abc',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'bad_request' });
  });
});

describe('GET /events/stream delivery', () => {
  it('delivers a committed event with its id and message, never a rolled-back one', async () => {
    const { app, deps: d } = instance();
    const reader = await stream(app, await token(d));

    await expect(
      db.transaction(async (tx) => {
        await emitLiveEvent(tx, event(1));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const sent = await emit(2, 'subscription.renewal');

    const frame = await reader.nextEvent();
    expect(frame?.id).toBe(String(sent.id));
    expect(message(frame)).toEqual({
      id: sent.id,
      type: 'subscription.renewal',
      email: 'buyer2@example.com',
      provider: 'lemonsqueezy',
      amount_cents: 1002,
      currency: 'USD',
      at: '2026-11-20T12:00:02.000Z',
    });
    // Nothing else (in particular not the rolled-back event) is on the way.
    await expect(reader.nextEvent(150)).rejects.toBeInstanceOf(SseTimeout);
  });

  it('sends a ping comment every heartbeat', async () => {
    const { app, deps: d } = instance({ streamHeartbeatMs: 40 });
    const reader = await stream(app, await token(d));
    expect(await reader.next(1000)).toEqual({ comments: ['ping'] });
    expect(await reader.next(1000)).toEqual({ comments: ['ping'] });
  });

  it('ends the stream at the first heartbeat after its session has ended', async () => {
    const { app, deps: d } = instance({ streamHeartbeatMs: 40 });
    const reader = await stream(app, await token(d));
    expect(await reader.next(1000)).toEqual({ comments: ['ping'] });
    clock.now = new Date(T0.getTime() + 3601_000);
    expect(await reader.next(1000)).toEqual({ comments: ['session ended'] });
    expect(await reader.next(1000)).toBeNull();
  });

  it("ends a disabled operator's streams at once on every instance, long before a heartbeat", async () => {
    // A minute between heartbeats: only the session-end notification can end these streams in time.
    const a = instance({ streamHeartbeatMs: 60_000 });
    const b = instance({ streamHeartbeatMs: 60_000 });
    const owner = await token(a.deps);
    const vic = await testSessionToken(db, a.deps.config, clock.now, 'vic@team.example', 'viewer');
    const onA = await stream(a.app, vic);
    const onB = await stream(b.app, vic);
    const ownersOwn = await stream(a.app, owner);
    const id = (
      await db.query<{ id: number }>(
        "SELECT id::int AS id FROM operators WHERE email = 'vic@team.example'",
      )
    ).rows[0]!.id;
    const res = await a.app.request(`/api/admin/operators/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(res.status).toBe(200);
    for (const r of [onA, onB]) {
      expect(await r.next(2000)).toEqual({ comments: ['session ended'] });
      expect(await r.next(1000)).toBeNull();
    }
    // The owner's own stream is not theirs to lose: it stays open and still delivers.
    const sent = await emit(1);
    expect(message(await ownersOwn.nextEvent())).toEqual(sent);
  });

  it('does not keep an idle session alive: heartbeats re-check the session without counting as activity', async () => {
    const { app, deps: d } = instance({ streamHeartbeatMs: 40, sessionIdleS: 120 });
    const tok = await token(d);
    const reader = await stream(app, tok);
    expect(await reader.next(1000)).toEqual({ comments: ['ping'] });
    // 90 s later: still within the idle limit; a touching re-check would move last_seen_at here.
    clock.now = new Date(T0.getTime() + 90_000);
    await reader.next(1000);
    await reader.next(1000);
    // 150 s after sign-in, 60 s after those heartbeats: idle since sign-in → the session ends.
    clock.now = new Date(T0.getTime() + 150_000);
    let frame = await reader.next(1000);
    while (frame !== null && frame.comments[0] === 'ping') frame = await reader.next(1000);
    expect(frame).toEqual({ comments: ['session ended'] });
    const after = await app.request('/api/admin/users', {
      headers: { authorization: `Bearer ${tok}` },
    });
    expect(after.status).toBe(401);
  });

  it('delivers every event on every instance over one database (LISTEN/NOTIFY fan-out)', async () => {
    const a = instance();
    const b = instance();
    const ra = await stream(a.app, await token(a.deps));
    const rb = await stream(b.app, await token(b.deps));
    const rb2 = await stream(b.app, await token(b.deps));
    const sent = await emit(1);
    for (const r of [ra, rb, rb2]) expect(message(await r.nextEvent())).toEqual(sent);
    expect(a.hub.received).toBe(1);
    expect(b.hub.received).toBe(1);
  });
});

describe('GET /events/stream replay (Last-Event-ID)', () => {
  it('replays exactly the missed events in order, then continues live without duplicates', async () => {
    const { app, deps: d } = instance();
    const tok = await token(d);
    const first = await stream(app, tok);
    const e1 = await emit(1);
    const e2 = await emit(2);
    expect(message(await first.nextEvent()).id).toBe(e1.id);
    expect((await first.nextEvent())?.id).toBe(String(e2.id));
    await first.cancel();

    const e3 = await emit(3, 'access.granted');
    const e4 = await emit(4, 'isr.event');
    const again = await stream(app, tok, { 'last-event-id': String(e2.id) });
    // Committed while the replay runs: delivered once, whichever path sees it first.
    const e5 = await emit(5);
    const got = [await again.nextEvent(), await again.nextEvent(), await again.nextEvent()];
    expect(got.map((f) => f?.id)).toEqual([e3.id, e4.id, e5.id].map(String));
    expect(got.map(message)).toEqual([e3, e4, e5]);
    const e6 = await emit(6);
    expect(message(await again.nextEvent())).toEqual(e6);
    await expect(again.nextEvent(150)).rejects.toBeInstanceOf(SseTimeout);
  });

  it('delivers an event committed while the replay reads exactly once (replay and live overlap)', async () => {
    // The replay's SELECT waits at a gate, so the event is both in its result and in the live buffer.
    let open_gate!: () => void;
    const gate = new Promise<void>((resolve) => (open_gate = resolve));
    const gated = new Proxy(db, {
      get(target, prop) {
        if (prop === 'query') {
          return async (sql: string, params?: unknown[]) => {
            if (sql.includes('FROM live_events WHERE id >')) await gate;
            return target.query(sql, params);
          };
        }
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    const d = { ...deps(), db: gated };
    const hub = createLiveHub(db);
    hubs.push(hub);
    const app = createApp(d, { liveHub: hub });
    const e1 = await emit(1);
    const e2 = await emit(2);
    const reader = await stream(app, await token(d), { 'last-event-id': String(e1.id) });
    const e3 = await emit(3);
    while (hub.received < 1) await new Promise((r) => setTimeout(r, 5));
    open_gate();
    expect(message(await reader.nextEvent())).toEqual(e2);
    expect(message(await reader.nextEvent())).toEqual(e3);
    const e4 = await emit(4);
    expect(message(await reader.nextEvent())).toEqual(e4);
  });

  it('accepts ?lastEventId= from a fresh page and sends live only without one', async () => {
    const { app, deps: d } = instance();
    const tok = await token(d);
    const e1 = await emit(1);
    const e2 = await emit(2);
    const fresh = await stream(app, tok, {}, `?lastEventId=${e1.id}`);
    expect(message(await fresh.nextEvent())).toEqual(e2);

    const live = await stream(app, tok);
    const e3 = await emit(3);
    expect(message(await live.nextEvent())).toEqual(e3);
    expect(message(await fresh.nextEvent())).toEqual(e3);
  });

  it('replays the newest events up to the limit, oldest first, and prunes after a day', async () => {
    for (let n = 1; n <= 5; n++) await emit(n);
    expect((await replayEvents(db, 0, 3)).map((m) => m.email)).toEqual([
      'buyer3@example.com',
      'buyer4@example.com',
      'buyer5@example.com',
    ]);
    // Events are stamped T0+n s: a day after T0+2.5 s removes the first two.
    expect(await pruneLiveEvents(db, new Date(T0.getTime() + 86_400_000 + 2500))).toBe(2);
    expect((await replayEvents(db, 0, 10)).map((m) => m.email)).toEqual([
      'buyer3@example.com',
      'buyer4@example.com',
      'buyer5@example.com',
    ]);
  });
});

describe('GET /events/stream caps', () => {
  it('caps streams per session and overall (429), and frees a slot when a client leaves', async () => {
    const { app, deps: d } = instance({ streamMaxPerSession: 2, streamMaxTotal: 3 });
    const alice = await token(d, 'admin@example.com');
    clock.now = new Date(T0.getTime() + 1000); // another token of another session
    const other = await token(d, 'admin@example.com');
    clock.now = new Date(T0.getTime() + 2000);
    const third = await token(d, 'admin@example.com');

    const a1 = await stream(app, alice);
    await stream(app, alice);
    const refused = await open(app, { authorization: `Bearer ${alice}` });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(/this session \(at most 2\)/),
    });

    await stream(app, other);
    const full = await open(app, { authorization: `Bearer ${third}` });
    expect(full.status).toBe(429);
    expect(await full.json()).toMatchObject({
      error: 'rate_limited',
      message: expect.stringMatching(/on this server \(at most 3\)/),
    });

    await a1.cancel();
    await stream(app, alice);
    // Back at the overall cap.
    expect((await open(app, { authorization: `Bearer ${third}` })).status).toBe(429);
  });

  it('ends a client that lets its queue overflow, without holding up the others', async () => {
    const d = deps();
    const hub = createLiveHub(db);
    hubs.push(hub);
    const { createLiveStreamRouter } = await import('./stream');
    const router = createLiveStreamRouter(d, { hub, queueLimit: 4 });
    const tok = await token(d);
    const slowRes = await router.request('/events/stream', {
      headers: { authorization: `Bearer ${tok}` },
    });
    const fastRes = await router.request('/events/stream', {
      headers: { authorization: `Bearer ${tok}` },
    });
    const slow = new SseReader(slowRes.body!);
    const fast = new SseReader(fastRes.body!);
    readers.push(slow, fast);
    await fast.next();
    const sent: LiveEventMessage[] = [];
    for (let n = 1; n <= 8; n++) {
      sent.push(await emit(n));
      expect(message(await fast.nextEvent())).toEqual(sent[n - 1]);
    }
    // The slow one never read: it gets what was queued, a comment, then the end.
    const frames = [];
    for (let f = await slow.next(); f; f = await slow.next()) frames.push(f);
    expect(frames.at(-1)).toEqual({ comments: ['too slow; reconnect to replay'] });
    expect(frames.filter((f) => f.data).length).toBeLessThan(8);
    expect(hub.size).toBe(1);
  });
});
