/**
 * The live events' pure rules (src/domain/live.ts): the feed (newest first, capped, repeats
 * dropped), what each type refreshes, the stream-state transitions behind the header's
 * indicator, the back-off, which events may ring, and the feed's relative times.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_LIVE_RESOURCES,
  INITIAL_STREAM_STATUS,
  LIVE_EVENT_TYPES,
  LIVE_FEED_LIMIT,
  RECONNECT_MAX_MS,
  appendLiveEvent,
  formatRelativeTime,
  isLiveEventType,
  isNewToPage,
  nextStreamStatus,
  reconnectDelayMs,
  resourcesForLiveEvent,
  shouldTakeOverRetry,
  type LiveEvent,
  type StreamSignal,
  type StreamStatus,
} from '../../../src/domain/live';

const event = (id: string | null, type: LiveEvent['type'] = 'subscription.new'): LiveEvent => ({
  id,
  type,
  email: 'a@example.com',
  provider: 'clickbank',
  amountCents: 4700,
  currency: 'USD',
  at: '2026-11-20T11:59:00Z',
});

describe('isLiveEventType', () => {
  it('knows the six contract types and nothing else', () => {
    for (const type of LIVE_EVENT_TYPES) expect(isLiveEventType(type)).toBe(true);
    for (const other of ['subscription', 'SUBSCRIPTION.NEW', '', 'order.created', 1, null])
      expect(isLiveEventType(other)).toBe(false);
  });
});

describe('appendLiveEvent', () => {
  it('puts the newest first', () => {
    const feed = [event('1'), event('2'), event('3')].reduce<readonly LiveEvent[]>(
      (f, e) => appendLiveEvent(f, e),
      [],
    );
    expect(feed.map((e) => e.id)).toEqual(['3', '2', '1']);
  });

  it('keeps at most the limit (50 by default), dropping the oldest', () => {
    let feed: readonly LiveEvent[] = [];
    for (let i = 1; i <= 60; i += 1) feed = appendLiveEvent(feed, event(String(i)));
    expect(LIVE_FEED_LIMIT).toBe(50);
    expect(feed).toHaveLength(50);
    expect(feed[0]?.id).toBe('60');
    expect(feed.at(-1)?.id).toBe('11');
    expect(appendLiveEvent(feed, event('61'), 3).map((e) => e.id)).toEqual(['61', '60', '59']);
    expect(appendLiveEvent(feed, event('62'), 0)).toEqual([]);
  });

  it('drops a repeat of an id already in the feed (a replay), returning the same array', () => {
    const feed = appendLiveEvent(appendLiveEvent([], event('7')), event('8'));
    expect(appendLiveEvent(feed, { ...event('7'), email: 'other@example.com' })).toBe(feed);
  });

  it('always adds events without an id', () => {
    const feed = appendLiveEvent(appendLiveEvent([], event(null)), event(null));
    expect(feed).toHaveLength(2);
  });

  it('property: never longer than the limit, ids unique, newest kept first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 20 }).map(String), { nil: null })),
        fc.integer({ min: 0, max: 10 }),
        (ids, limit) => {
          let feed: readonly LiveEvent[] = [];
          for (const id of ids) feed = appendLiveEvent(feed, event(id), limit);
          expect(feed.length).toBeLessThanOrEqual(limit);
          const seen = feed.map((e) => e.id).filter((id) => id !== null);
          expect(new Set(seen).size).toBe(seen.length);
          const last = ids.at(-1);
          if (
            limit > 0 &&
            ids.length > 0 &&
            (last === null || ids.indexOf(last!) === ids.length - 1)
          )
            expect(feed[0]?.id).toBe(last);
        },
      ),
    );
  });
});

describe('resourcesForLiveEvent', () => {
  it('refreshes the dashboard, both lists, metrics and ISR on subscription and ISR events', () => {
    for (const type of [
      'subscription.new',
      'subscription.renewal',
      'subscription.cancelled',
      'isr.event',
    ] as const)
      expect([...resourcesForLiveEvent(type)].sort()).toEqual(
        ['isr', 'metrics', 'stats', 'subscriptions', 'users'].sort(),
      );
    expect([...ALL_LIVE_RESOURCES].sort()).toEqual(
      ['isr', 'metrics', 'stats', 'subscriptions', 'users'].sort(),
    );
  });

  it('refreshes Users and the dashboard only on access changes', () => {
    for (const type of ['access.granted', 'access.revoked'] as const)
      expect([...resourcesForLiveEvent(type)].sort()).toEqual(['stats', 'users']);
  });
});

describe('nextStreamStatus', () => {
  const run = (signals: StreamSignal[], from: StreamStatus = INITIAL_STREAM_STATUS) =>
    signals.reduce(nextStreamStatus, from);

  it('starts connecting and is connected once open', () => {
    expect(INITIAL_STREAM_STATUS).toEqual({ state: 'connecting', failures: 0 });
    expect(run(['open'])).toEqual({ state: 'connected', failures: 0 });
  });

  it('is reconnecting after an error, offline after three in a row, connected again on open', () => {
    expect(run(['open', 'error'])).toEqual({ state: 'reconnecting', failures: 1 });
    expect(run(['open', 'error', 'error'])).toEqual({ state: 'reconnecting', failures: 2 });
    expect(run(['open', 'error', 'error', 'error'])).toEqual({ state: 'offline', failures: 3 });
    expect(run(['open', 'error', 'error', 'error', 'open'])).toEqual({
      state: 'connected',
      failures: 0,
    });
    // An open in between resets the count.
    expect(run(['error', 'error', 'open', 'error'])).toEqual({
      state: 'reconnecting',
      failures: 1,
    });
  });

  it('is offline at once when EventSource gives up or the browser goes offline', () => {
    expect(run(['open', 'closed'])).toEqual({ state: 'offline', failures: 1 });
    expect(run(['open', 'browser-offline'])).toEqual({ state: 'offline', failures: 0 });
    expect(run(['open', 'browser-offline', 'browser-online'])).toEqual({
      state: 'reconnecting',
      failures: 0,
    });
  });

  it('takes the retry over when EventSource gave up or kept failing', () => {
    const failing = run(['error', 'error']);
    expect(shouldTakeOverRetry(nextStreamStatus(failing, 'error'), 'error')).toBe(true);
    expect(shouldTakeOverRetry(run(['error']), 'error')).toBe(false);
    expect(shouldTakeOverRetry(run(['closed']), 'closed')).toBe(true);
    expect(shouldTakeOverRetry(run(['open']), 'open')).toBe(false);
  });
});

describe('reconnectDelayMs', () => {
  it('doubles from 1 s with equal jitter and caps at 30 s', () => {
    expect(reconnectDelayMs(1, 0)).toBe(500);
    expect(reconnectDelayMs(1, 1)).toBe(1000);
    expect(reconnectDelayMs(2, 1)).toBe(2000);
    expect(reconnectDelayMs(3, 0.5)).toBe(3000);
    expect(reconnectDelayMs(6, 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelayMs(1_000, 1)).toBe(30_000);
  });

  it('property: within [ceiling/2, ceiling] and never above 30 s, whatever the input', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (failures, random) => {
        const delay = reconnectDelayMs(failures, random);
        expect(Number.isFinite(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(500);
        expect(delay).toBeLessThanOrEqual(RECONNECT_MAX_MS);
      }),
    );
  });
});

describe('isNewToPage', () => {
  const pageStart = Date.parse('2026-11-20T12:00:00Z');
  it('rings for events since the page started (a minute of clock skew allowed) or without a time', () => {
    expect(isNewToPage({ at: '2026-11-20T12:00:05Z' }, pageStart)).toBe(true);
    expect(isNewToPage({ at: '2026-11-20T11:59:30Z' }, pageStart)).toBe(true);
    expect(isNewToPage({ at: null }, pageStart)).toBe(true);
    expect(isNewToPage({ at: 'garbage' }, pageStart)).toBe(true);
  });
  it('stays silent for history from before the page', () => {
    expect(isNewToPage({ at: '2026-11-20T11:58:00Z' }, pageStart)).toBe(false);
    expect(isNewToPage({ at: '2026-11-19T12:00:00Z' }, pageStart)).toBe(false);
  });
});

describe('formatRelativeTime', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');
  it('reads just now, minutes, hours, days', () => {
    expect(formatRelativeTime('2026-11-20T11:59:30Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-20T12:00:30Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-20T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelativeTime('2026-11-20T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelativeTime('2026-11-18T12:00:00Z', now)).toBe('2 d ago');
  });
  it('is null for a missing or unparseable time', () => {
    expect(formatRelativeTime(null, now)).toBeNull();
    expect(formatRelativeTime('soon', now)).toBeNull();
  });
});
