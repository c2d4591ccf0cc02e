/**
 * Live events (§4 Sound alerts, §7 GET /api/admin/events/stream, §8; CONTRACT.md
 * "Live events"): the normalised event, the activity feed's rules, which cached figures an event
 * makes stale, and the stream-state rules behind the header's indicator. Pure: no timers, no I/O.
 */

/** The event types the reference server emits (CONTRACT.md "Live events"), in a fixed order. */
export const LIVE_EVENT_TYPES = [
  'subscription.new',
  'subscription.renewal',
  'subscription.cancelled',
  'access.granted',
  'access.revoked',
  'isr.event',
] as const;

/** One of {@link LIVE_EVENT_TYPES}. Messages of any other type are ignored (forward compatible). */
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** Whether `value` is one of the known live event types. */
export function isLiveEventType(value: unknown): value is LiveEventType {
  return typeof value === 'string' && (LIVE_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * One live event, normalised from a stream message (`id:` line + `data:` JSON). Every field but
 * the type may be missing on the wire and is then null.
 */
export interface LiveEvent {
  /** The stream's event id (`id:` line, else the JSON `id`), used to drop repeats; null when none. */
  id: string | null;
  /** What happened. */
  type: LiveEventType;
  /** The customer's email. */
  email: string | null;
  /** The provider value as sent ('lemonsqueezy', 'clickbank', …). */
  provider: string | null;
  /** The amount in integer cents (negative for refunds); null when the event has none. */
  amountCents: number | null;
  /** ISO currency code of the amount (uppercase); null when not sent. */
  currency: string | null;
  /** When it happened: an ISO 8601 UTC instant ('2026-11-20T11:59:00.000Z'); null when missing or unparseable. */
  at: string | null;
}

/** The feed's label of each type (header activity feed). */
export const LIVE_EVENT_LABELS: Readonly<Record<LiveEventType, string>> = {
  'subscription.new': 'New subscription',
  'subscription.renewal': 'Renewal',
  'subscription.cancelled': 'Cancellation',
  'access.granted': 'Access granted',
  'access.revoked': 'Access revoked',
  'isr.event': 'Tracked sale',
};

/** How many events the feed keeps (newest first); older ones drop off. */
export const LIVE_FEED_LIMIT = 50;

/**
 * The feed after `event` arrives: newest first, at most `limit` events. An event whose id is
 * already in the feed (a replay after a reconnect with Last-Event-ID) leaves the feed unchanged
 * (the same array is returned, so a caller can tell). Events without an id are always added.
 */
export function appendLiveEvent(
  feed: readonly LiveEvent[],
  event: LiveEvent,
  limit: number = LIVE_FEED_LIMIT,
): readonly LiveEvent[] {
  if (event.id !== null && feed.some((seen) => seen.id === event.id)) return feed;
  const max = Math.max(0, Math.floor(limit));
  return [event, ...feed].slice(0, max);
}

/** The cached figures a live event can make stale (each maps to a query-key prefix in src/api). */
export type LiveResource = 'stats' | 'users' | 'subscriptions' | 'metrics' | 'isr';

const SALES_RESOURCES: readonly LiveResource[] = [
  'stats',
  'users',
  'subscriptions',
  'metrics',
  'isr',
];
const ACCESS_RESOURCES: readonly LiveResource[] = ['users', 'stats'];

/**
 * What to refresh on an event, so what is on screen stays current: a subscription event or an
 * ISR event touches the dashboard, both lists, the metrics and ISR; an access change touches
 * Users and the dashboard (active counts).
 */
export function resourcesForLiveEvent(type: LiveEventType): readonly LiveResource[] {
  return type.startsWith('access.') ? ACCESS_RESOURCES : SALES_RESOURCES;
}

/** Every resource a live event can refresh (what a reconnect after a gap refreshes). */
export const ALL_LIVE_RESOURCES: readonly LiveResource[] = SALES_RESOURCES;

/**
 * The stream's state as the header shows it:
 * - 'connecting': the first connection of the page is being opened;
 * - 'connected': the stream is open (events arrive within a second);
 * - 'reconnecting': the connection dropped and is being re-established;
 * - 'offline': the browser is offline, the server refused the stream, or several attempts in a
 *   row failed; retries continue with back-off.
 */
export type StreamState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

/** The indicator's text of each state (also its accessible name, 'Live updates: <text>'). */
export const STREAM_STATE_LABELS: Readonly<Record<StreamState, string>> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

/** Consecutive failed attempts after which the stream counts as offline. */
export const OFFLINE_AFTER_FAILURES = 3;

/** The stream's state plus the count of consecutive failed attempts since it was last open. */
export interface StreamStatus {
  state: StreamState;
  /** Consecutive failures (errors without an open in between); 0 while connected. */
  failures: number;
}

/** The first status of a page: connecting, no failures. */
export const INITIAL_STREAM_STATUS: StreamStatus = { state: 'connecting', failures: 0 };

/**
 * What happened to the stream:
 * - 'open': the stream opened;
 * - 'error': it failed and EventSource is retrying by itself (readyState CONNECTING);
 * - 'closed': it failed and EventSource gave up (readyState CLOSED: a 401, a 429, a 5xx, a wrong
 *   content type); the console retries with back-off;
 * - 'browser-offline' / 'browser-online': the browser lost or regained the network.
 */
export type StreamSignal = 'open' | 'error' | 'closed' | 'browser-offline' | 'browser-online';

/**
 * The next stream status after `signal` (the indicator's rules). An open resets the failures; an
 * error is 'reconnecting' until {@link OFFLINE_AFTER_FAILURES} in a row, then 'offline'; a refused
 * stream or an offline browser is 'offline' at once; back online, the stream reconnects.
 */
export function nextStreamStatus(status: StreamStatus, signal: StreamSignal): StreamStatus {
  switch (signal) {
    case 'open':
      return { state: 'connected', failures: 0 };
    case 'error': {
      const failures = status.failures + 1;
      return { state: failures >= OFFLINE_AFTER_FAILURES ? 'offline' : 'reconnecting', failures };
    }
    case 'closed':
      return { state: 'offline', failures: status.failures + 1 };
    case 'browser-offline':
      return { state: 'offline', failures: status.failures };
    case 'browser-online':
      return { state: 'reconnecting', failures: 0 };
  }
}

/**
 * Whether the console should close the stream and retry on its own timer: EventSource gave up
 * (closed), or it kept failing ({@link OFFLINE_AFTER_FAILURES} in a row), so the console backs
 * off instead of letting the browser retry every few seconds forever.
 */
export function shouldTakeOverRetry(status: StreamStatus, signal: StreamSignal): boolean {
  return signal === 'closed' || (signal === 'error' && status.failures >= OFFLINE_AFTER_FAILURES);
}

/** Back-off bounds of the console's own retries, in ms. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The delay in ms before the console's retry after `failures` consecutive failures (≥ 1):
 * exponential from 1 s, capped at 30 s, with "equal jitter" (half fixed, half random) so many
 * consoles do not reconnect in step after a server restart. `random` is in [0, 1).
 */
export function reconnectDelayMs(failures: number, random: number = 0.5): number {
  const n = Math.max(1, Math.floor(Number.isFinite(failures) ? failures : 1));
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(n - 1, 30));
  const r = Math.min(Math.max(Number.isFinite(random) ? random : 0.5, 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/** Tolerated clock difference between server and browser when judging an event's age, in ms. */
export const SOUND_CLOCK_SKEW_MS = 60_000;

/**
 * Whether an event is news to this page, i.e. may ring (§4 Sound alerts): it happened after the
 * page started listening (less {@link SOUND_CLOCK_SKEW_MS}), or carries no usable time. Events
 * replayed from before the page (a server sending history) go to the feed silently; events missed
 * during a reconnect gap, which happened while the operator was watching, still ring.
 */
export function isNewToPage(event: Pick<LiveEvent, 'at'>, pageStartMs: number): boolean {
  if (event.at === null) return true;
  const atMs = Date.parse(event.at);
  return !Number.isFinite(atMs) || atMs >= pageStartMs - SOUND_CLOCK_SKEW_MS;
}

/**
 * A short relative time for the feed ('just now', '5 min ago', '3 h ago', '2 d ago'), from the
 * instant `at` (ISO UTC) and `nowMs`; null when `at` is missing or unparseable. Future instants
 * (clock skew) read 'just now'.
 */
export function formatRelativeTime(at: string | null, nowMs: number): string | null {
  if (at === null) return null;
  const atMs = Date.parse(at);
  if (!Number.isFinite(atMs)) return null;
  const seconds = Math.floor((nowMs - atMs) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
