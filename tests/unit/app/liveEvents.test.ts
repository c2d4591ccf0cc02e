/**
 * The live-events client (src/app/liveEvents.ts) with a fake EventSource, fake timers and a fake
 * network: stream states and reconnects, the feed and its unread count, the coalesced
 * invalidation, and — with a real QueryClient — that a live message refetches what is on screen
 * once, and plays the §4 sound only when it should.
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../src/api/queryKeys';
import { createCoalescer, createLiveEventsClient } from '../../../src/app/liveEvents';
import { connectLiveEvents } from '../../../src/app/useLiveEvents';
import { fakeEventSources, fakeNetwork } from './fakeEventSource';

const URL = 'http://console.test/api/admin/events/stream';
const PAGE_START = Date.parse('2026-11-20T12:00:00Z');

const sale = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'subscription.new',
  email: `${id}@example.com`,
  provider: 'clickbank',
  amount_cents: 4700,
  currency: 'USD',
  at: '2026-11-20T12:00:10Z',
  ...extra,
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(PAGE_START);
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(online = true) {
  const sources = fakeEventSources();
  const net = fakeNetwork(online);
  const warn = vi.fn();
  const onEvent = vi.fn();
  const onReconnect = vi.fn();
  const client = createLiveEventsClient({
    url: URL,
    createEventSource: sources.factory,
    network: net.network,
    random: () => 1,
    pageStartMs: PAGE_START,
    onEvent,
    onReconnect,
    warn,
  });
  const states: string[] = [];
  client.subscribe(() => {
    const state = client.getSnapshot().state;
    if (states.at(-1) !== state) states.push(state);
  });
  return { client, sources, net, warn, onEvent, onReconnect, states };
}

describe('createLiveEventsClient: stream state', () => {
  it('opens one stream at the URL on start, connecting then connected', () => {
    const { client, sources } = setup();
    expect(sources.opened).toHaveLength(0);
    client.start();
    client.start();
    expect(sources.opened.map((s) => s.url)).toEqual([URL]);
    expect(client.getSnapshot().state).toBe('connecting');
    sources.opened[0]!.open();
    expect(client.getSnapshot().state).toBe('connected');
  });

  it('lets EventSource retry a dropped stream (Last-Event-ID), then calls it offline after three failures and backs off itself', () => {
    const { client, sources, states, onReconnect } = setup();
    client.start();
    const first = sources.opened[0]!;
    first.open();
    first.fail();
    expect(client.getSnapshot().state).toBe('reconnecting');
    first.fail();
    expect(first.isClosed).toBe(false);
    first.fail();
    expect(client.getSnapshot().state).toBe('offline');
    expect(first.isClosed).toBe(true);
    expect(first.listenerCount).toBe(0);
    // Back-off after 3 failures: 4 s (random = 1 → the full ceiling).
    vi.advanceTimersByTime(3_999);
    expect(sources.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sources.opened).toHaveLength(2);
    expect(client.getSnapshot().state).toBe('offline');
    sources.opened[1]!.open();
    expect(client.getSnapshot().state).toBe('connected');
    expect(states).toEqual(['connected', 'reconnecting', 'offline', 'connected']);
    expect(onReconnect).toHaveBeenCalledTimes(1);
  });

  it('EventSource reconnecting by itself counts as a reconnect once it opens', () => {
    const { client, sources, onReconnect } = setup();
    client.start();
    const source = sources.opened[0]!;
    source.open();
    expect(onReconnect).not.toHaveBeenCalled();
    source.fail();
    source.open();
    expect(client.getSnapshot().state).toBe('connected');
    expect(onReconnect).toHaveBeenCalledTimes(1);
    expect(sources.opened).toHaveLength(1);
  });

  it('a refused stream (CLOSED: 401, 429, 5xx) is offline at once and retried with growing back-off', () => {
    const { client, sources, warn } = setup();
    client.start();
    sources.opened[0]!.refuse();
    expect(client.getSnapshot().state).toBe('offline');
    expect(warn).toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(sources.opened).toHaveLength(2);
    sources.opened[1]!.refuse();
    vi.advanceTimersByTime(1_999);
    expect(sources.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources.opened).toHaveLength(3);
    // The cap: never more than 30 s between attempts.
    for (let i = 0; i < 10; i += 1) {
      sources.opened.at(-1)!.refuse();
      vi.advanceTimersByTime(30_000);
    }
    expect(sources.opened).toHaveLength(13);
  });

  it('goes offline with the browser (no retries meanwhile) and reconnects at once when it is back', () => {
    const { client, sources, net } = setup();
    client.start();
    sources.opened[0]!.open();
    net.set(false);
    expect(client.getSnapshot().state).toBe('offline');
    expect(sources.opened[0]!.isClosed).toBe(true);
    vi.advanceTimersByTime(120_000);
    expect(sources.opened).toHaveLength(1);
    net.set(true);
    expect(sources.opened).toHaveLength(2);
    expect(client.getSnapshot().state).toBe('reconnecting');
    sources.opened[1]!.open();
    expect(client.getSnapshot().state).toBe('connected');
  });

  it('starts offline when the browser is offline, without opening anything', () => {
    const { client, sources, net } = setup(false);
    client.start();
    expect(client.getSnapshot().state).toBe('offline');
    expect(sources.opened).toHaveLength(0);
    net.set(true);
    expect(sources.opened).toHaveLength(1);
  });

  it('stop closes the stream, cancels the retry and stops listening; start opens it again', () => {
    const { client, sources, net } = setup();
    client.start();
    sources.opened[0]!.refuse();
    client.stop();
    expect(net.listenerCount).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(sources.opened).toHaveLength(1);
    client.start();
    expect(sources.opened).toHaveLength(2);
    client.stop();
    expect(sources.opened[1]!.isClosed).toBe(true);
  });

  it('a factory that throws is logged and retried, never thrown', () => {
    const warn = vi.fn();
    let calls = 0;
    const client = createLiveEventsClient({
      url: URL,
      createEventSource: () => {
        calls += 1;
        throw new Error('blocked by CSP');
      },
      network: fakeNetwork().network,
      random: () => 0,
      warn,
    });
    expect(() => client.start()).not.toThrow();
    expect(client.getSnapshot().state).toBe('offline');
    vi.advanceTimersByTime(500);
    expect(calls).toBe(2);
    client.stop();
  });
});

describe('createLiveEventsClient: feed', () => {
  it('keeps the events newest first, drops repeats of an id, counts unread until the feed opens', () => {
    const { client, sources, onEvent } = setup();
    client.start();
    const source = sources.opened[0]!;
    source.open();
    source.send(sale('1'), '1');
    source.send(sale('2'), '2');
    source.send(sale('1'), '1'); // replayed after a reconnect
    let snapshot = client.getSnapshot();
    expect(snapshot.events.map((e) => e.id)).toEqual(['2', '1']);
    expect(snapshot.unreadCount).toBe(2);
    expect(onEvent).toHaveBeenCalledTimes(2);

    client.setFeedOpen(true);
    snapshot = client.getSnapshot();
    expect(snapshot).toMatchObject({ isFeedOpen: true, unreadCount: 0 });
    source.send(sale('3'), '3');
    expect(client.getSnapshot().unreadCount).toBe(0);
    client.setFeedOpen(false);
    source.send(sale('4'), '4');
    expect(client.getSnapshot()).toMatchObject({ isFeedOpen: false, unreadCount: 1 });
    expect(client.getSnapshot().events.map((e) => e.id)).toEqual(['4', '3', '2', '1']);
  });

  it('caps the feed and the unread count at 50', () => {
    const { client, sources } = setup();
    client.start();
    for (let i = 1; i <= 75; i += 1) sources.opened[0]!.send(sale(String(i)), String(i));
    const snapshot = client.getSnapshot();
    expect(snapshot.events).toHaveLength(50);
    expect(snapshot.events[0]?.id).toBe('75');
    expect(snapshot.unreadCount).toBe(50);
  });

  it('logs malformed messages only, ignores unknown types silently, shows neither', () => {
    const { client, sources, warn, onEvent } = setup();
    client.start();
    const source = sources.opened[0]!;
    source.open();
    warn.mockClear();
    source.send('not json');
    source.send({ no: 'type' });
    expect(warn).toHaveBeenCalledTimes(2);
    source.send({ type: 'order.created' });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(client.getSnapshot().events).toEqual([]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('tells onEvent whether the event is news to the page (history before it does not ring)', () => {
    const { client, sources, onEvent } = setup();
    client.start();
    sources.opened[0]!.send(sale('old', { at: '2026-11-20T11:00:00Z' }), 'old');
    sources.opened[0]!.send(sale('new'), 'new');
    expect(onEvent.mock.calls.map(([event, info]) => [event.id, info.isNewToPage])).toEqual([
      ['old', false],
      ['new', true],
    ]);
  });

  it('a snapshot is the same object until something changes (useSyncExternalStore)', () => {
    const { client, sources } = setup();
    client.start();
    const before = client.getSnapshot();
    expect(client.getSnapshot()).toBe(before);
    client.setFeedOpen(false);
    expect(client.getSnapshot()).toBe(before);
    sources.opened[0]!.open();
    expect(client.getSnapshot()).not.toBe(before);
  });
});

describe('createCoalescer', () => {
  it('runs the first request at once and merges the rest of the window into one trailing run, per key', () => {
    const run = vi.fn();
    const coalescer = createCoalescer<string>(run, 1_000);
    coalescer.request('users');
    coalescer.request('users');
    coalescer.request('stats');
    coalescer.request('users');
    expect(run.mock.calls).toEqual([['users'], ['stats']]);
    vi.advanceTimersByTime(1_000);
    expect(run.mock.calls).toEqual([['users'], ['stats'], ['users']]);
    // The trailing run opened a new window; a quiet window then ends it.
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(3);
    coalescer.request('users');
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('runs at most once per window however long the burst', () => {
    const run = vi.fn();
    const coalescer = createCoalescer<string>(run, 1_000);
    for (let ms = 0; ms < 10_000; ms += 50) {
      coalescer.request('isr');
      vi.advanceTimersByTime(50);
    }
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(10);
    expect(run.mock.calls.length).toBeLessThanOrEqual(11);
  });

  it('dispose drops pending trailing runs', () => {
    const run = vi.fn();
    const coalescer = createCoalescer<string>(run, 1_000);
    coalescer.request('metrics');
    coalescer.request('metrics');
    coalescer.dispose();
    vi.advanceTimersByTime(5_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('connectLiveEvents with a query cache', () => {
  /** An on-screen query (an active observer) whose fetches are counted. */
  function watch(queryClient: QueryClient, queryKey: readonly unknown[]) {
    const fetches = { count: 0 };
    const observer = new QueryObserver(queryClient, {
      queryKey,
      queryFn: async () => {
        fetches.count += 1;
        return fetches.count;
      },
      staleTime: Infinity,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    return { fetches, unsubscribe };
  }

  async function connected(options: { isSoundOn?: boolean } = {}) {
    const queryClient = new QueryClient();
    const sources = fakeEventSources();
    const play = vi.fn(() => Promise.resolve());
    const live = connectLiveEvents({
      queryClient,
      url: URL,
      createEventSource: sources.factory,
      network: fakeNetwork().network,
      isSoundEnabled: () => options.isSoundOn ?? true,
      play,
      warn: vi.fn(),
    });
    const screens = {
      stats: watch(queryClient, queryKeys.stats()),
      users: watch(queryClient, queryKeys.users.list({ page: '1' })),
      subscriptions: watch(queryClient, queryKeys.subscriptions.list({ page: '1' })),
      metrics: watch(queryClient, queryKeys.metrics.overview({ from: '2026-10-24' })),
      isr: watch(queryClient, queryKeys.isr.summary({ from: '2026-11-07' })),
      logs: watch(queryClient, queryKeys.logs.list({ page: 1 })),
    };
    await vi.advanceTimersByTimeAsync(0);
    for (const screen of Object.values(screens)) expect(screen.fetches.count).toBe(1);
    live.client.start();
    const source = sources.opened[0]!;
    source.open();
    const counts = () =>
      Object.fromEntries(Object.entries(screens).map(([k, v]) => [k, v.fetches.count - 1]));
    return { live, source, play, counts, queryClient };
  }

  it('a subscription message refetches the dashboard, both lists, metrics and ISR once, not Logs', async () => {
    const { source, counts, live } = await connected();
    source.send(sale('1'), '1');
    await vi.advanceTimersByTimeAsync(0);
    expect(counts()).toEqual({ stats: 1, users: 1, subscriptions: 1, metrics: 1, isr: 1, logs: 0 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counts()).toEqual({ stats: 1, users: 1, subscriptions: 1, metrics: 1, isr: 1, logs: 0 });
    live.client.stop();
    live.dispose();
  });

  it('a burst of twenty messages refetches each at most twice (leading and trailing)', async () => {
    const { source, counts, live } = await connected();
    for (let i = 0; i < 20; i += 1) {
      source.send(sale(String(i)), String(i));
      await vi.advanceTimersByTimeAsync(20);
    }
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counts()).toEqual({ stats: 2, users: 2, subscriptions: 2, metrics: 2, isr: 2, logs: 0 });
    live.client.stop();
    live.dispose();
  });

  it('an access change refetches Users and the dashboard only', async () => {
    const { source, counts, live, play } = await connected();
    source.send({ id: 'a', type: 'access.granted', email: 'a@example.com' }, 'a');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(counts()).toEqual({ stats: 1, users: 1, subscriptions: 0, metrics: 0, isr: 0, logs: 0 });
    expect(play).not.toHaveBeenCalled();
    live.client.stop();
    live.dispose();
  });

  it('a reconnect refreshes everything once', async () => {
    const { source, counts, live } = await connected();
    source.fail();
    source.open();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(counts()).toEqual({ stats: 1, users: 1, subscriptions: 1, metrics: 1, isr: 1, logs: 0 });
    live.client.stop();
    live.dispose();
  });

  it('plays new-sub.mp3 for a new subscription and renew.mp3 for a renewal, only when sound is on and the event is news', async () => {
    const on = await connected({ isSoundOn: true });
    on.source.send(sale('1'), '1');
    on.source.send(sale('2', { type: 'subscription.renewal' }), '2');
    on.source.send(sale('3', { type: 'subscription.cancelled' }), '3');
    on.source.send(sale('4', { at: '2026-11-19T08:00:00Z' }), '4');
    on.source.send(sale('1'), '1');
    expect(on.play.mock.calls).toEqual([['new-sub'], ['renew']]);
    on.live.client.stop();

    const off = await connected({ isSoundOn: false });
    off.source.send(sale('1'), '1');
    expect(off.play).not.toHaveBeenCalled();
    off.live.client.stop();
  });
});
