/**
 * The live-events client of one signed-in page (§7 GET /api/admin/events/stream,
 * §8; CONTRACT.md "Live events" and "Authentication"). Framework-free, so it runs in unit tests
 * with a fake EventSource, fake timers and a fake network:
 *
 * - one EventSource (with credentials: the session cookie authenticates it) for the page;
 * - the stream state for the header's indicator ('connecting' → 'connected'; 'reconnecting' while
 *   EventSource retries by itself, which resends Last-Event-ID so the server replays what was
 *   missed; 'offline' when the browser is offline, when EventSource gives up (readyState CLOSED:
 *   a 401, a 429, a 5xx) or after three failures in a row — the client then closes it and retries
 *   on its own timer with capped exponential back-off, and at once when the browser is back
 *   online);
 * - the last {@link LIVE_FEED_LIMIT} events, newest first, repeats (same id) dropped, and the
 *   count of those that arrived while the feed was closed;
 * - `onEvent` for each new event (sound, invalidation) and `onReconnect` after a gap (refresh what
 *   may have been missed). Malformed messages are only logged (§8); unknown types are ignored.
 */
import {
  INITIAL_STREAM_STATUS,
  LIVE_FEED_LIMIT,
  appendLiveEvent,
  isNewToPage,
  nextStreamStatus,
  reconnectDelayMs,
  shouldTakeOverRetry,
  type LiveEvent,
  type StreamSignal,
  type StreamState,
  type StreamStatus,
} from '../domain/live';
import { readLiveMessage } from '../api/events';

/** The part of EventSource the client uses, so tests and stories can pass a fake. */
export interface LiveEventSource {
  /** 0 connecting, 1 open, 2 closed (EventSource's constants). */
  readonly readyState: number;
  addEventListener(type: 'open' | 'error' | 'message', listener: (event: Event) => void): void;
  removeEventListener(type: 'open' | 'error' | 'message', listener: (event: Event) => void): void;
  close(): void;
}

/** Opens the stream at `url`; the default is `new EventSource(url, {withCredentials: true})`. */
export type EventSourceFactory = (url: string) => LiveEventSource;

/** EventSource.readyState values (the constants, for fakes that lack them). */
export const READY_STATE = { CONNECTING: 0, OPEN: 1, CLOSED: 2 } as const;

/** The browser's network status: `navigator.onLine` and the window's online/offline events. */
export interface NetworkWatcher {
  /** Whether the browser believes it is online. */
  isOnline(): boolean;
  /** Calls `onChange(isOnline)` on each change; returns the unsubscribe function. */
  subscribe(onChange: (isOnline: boolean) => void): () => void;
}

/** The timers the client uses (injectable: fake timers in tests). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the header shows: the stream state, the feed, and how many events are unread. */
export interface LiveSnapshot {
  /** The stream's state for the indicator. */
  state: StreamState;
  /** The last events, newest first (at most the feed limit). */
  events: readonly LiveEvent[];
  /** Events that arrived while the feed was closed (reset when it opens). */
  unreadCount: number;
  /** Whether the operator has the feed open. */
  isFeedOpen: boolean;
}

/** How an event reached the client, for `onEvent`. */
export interface LiveEventInfo {
  /** False for an event from before the page started listening (history): it should not ring. */
  isNewToPage: boolean;
}

/** Options of {@link createLiveEventsClient}; everything but `url` has a browser default. */
export interface LiveEventsClientOptions {
  /** The stream's URL (eventsStreamUrl()). */
  url: string;
  /** Opens the stream (default: EventSource with credentials). */
  createEventSource?: EventSourceFactory;
  /** The browser's network status (default: navigator.onLine and the window's events). */
  network?: NetworkWatcher;
  /** Timers for the back-off (default: the global ones). */
  timers?: Timers;
  /** Jitter source in [0, 1) for the back-off (default Math.random). */
  random?: () => number;
  /** When the page started listening, in epoch ms (default: Date.now() at creation). */
  pageStartMs?: number;
  /** How many events the feed keeps (default {@link LIVE_FEED_LIMIT}). */
  feedLimit?: number;
  /** Called once for each new event (not for a repeat of an id already in the feed). */
  onEvent?: (event: LiveEvent, info: LiveEventInfo) => void;
  /** Called when the stream opens again after a failure (what was missed may be stale). */
  onReconnect?: () => void;
  /**
   * Called when the server refused or ended the stream for good (EventSource gave up: readyState
   * CLOSED), e.g. the session ended because an owner disabled the operator; the page then checks
   * its session, and a 401 signs it out.
   */
  onClosed?: () => void;
  /** Where problems are logged (default console.warn); they are never shown (§8). */
  warn?: (...args: unknown[]) => void;
}

/** The client: start/stop the stream, read and watch its snapshot, open/close the feed. */
export interface LiveEventsClient {
  /** Opens the stream (idempotent). */
  start(): void;
  /** Closes the stream and stops retrying (idempotent); start() may open it again. */
  stop(): void;
  /** The current snapshot (a new object after each change, the same one otherwise). */
  getSnapshot(): LiveSnapshot;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Records whether the feed is open; opening it marks every event read. */
  setFeedOpen(isOpen: boolean): void;
}

const browserEventSource: EventSourceFactory = (url) =>
  new EventSource(url, { withCredentials: true });

/** The browser's network status (always online where `navigator`/`window` are missing). */
export const browserNetwork: NetworkWatcher = {
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
  subscribe(onChange) {
    if (typeof window === 'undefined') return () => undefined;
    const online = () => onChange(true);
    const offline = () => onChange(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  },
};

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Creates the client of one page; nothing opens until start(). */
export function createLiveEventsClient(options: LiveEventsClientOptions): LiveEventsClient {
  const {
    url,
    createEventSource = browserEventSource,
    network = browserNetwork,
    timers = globalTimers,
    random = Math.random,
    pageStartMs = Date.now(),
    feedLimit = LIVE_FEED_LIMIT,
    onEvent,
    onReconnect,
    onClosed,
    warn = console.warn,
  } = options;

  let status: StreamStatus = INITIAL_STREAM_STATUS;
  let snapshot: LiveSnapshot = {
    state: status.state,
    events: [],
    unreadCount: 0,
    isFeedOpen: false,
  };
  const listeners = new Set<() => void>();
  let source: LiveEventSource | null = null;
  let detachSource: (() => void) | null = null;
  let retryTimer: unknown = null;
  let unsubscribeNetwork: (() => void) | null = null;
  let isRunning = false;
  /** Whether the stream has been open at least once (a later open is a reconnect). */
  let hasOpened = false;

  function publish(next: Partial<LiveSnapshot>) {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  }

  function signal(what: StreamSignal) {
    status = nextStreamStatus(status, what);
    if (status.state !== snapshot.state) publish({ state: status.state });
  }

  function closeSource() {
    detachSource?.();
    detachSource = null;
    source?.close();
    source = null;
  }

  function cancelRetry() {
    if (retryTimer !== null) timers.clearTimeout(retryTimer);
    retryTimer = null;
  }

  function scheduleRetry() {
    cancelRetry();
    const delay = reconnectDelayMs(status.failures, random());
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      if (isRunning) open();
    }, delay);
  }

  function handleMessage(event: MessageEvent) {
    const message = readLiveMessage(event.data, event.lastEventId);
    if (message.kind === 'malformed') {
      warn('Live event ignored: the message is not JSON with a string type', event.data);
      return;
    }
    if (message.kind === 'unknown-type') return;
    const events = appendLiveEvent(snapshot.events, message.event, feedLimit);
    if (events === snapshot.events) return;
    publish({
      events,
      unreadCount: snapshot.isFeedOpen
        ? 0
        : Math.min(snapshot.unreadCount + 1, Math.max(feedLimit, 0)),
    });
    try {
      onEvent?.(message.event, { isNewToPage: isNewToPage(message.event, pageStartMs) });
    } catch (error) {
      warn('Live event handler failed', error);
    }
  }

  function open() {
    closeSource();
    if (!network.isOnline()) {
      signal('browser-offline');
      return;
    }
    let opened: LiveEventSource;
    try {
      opened = createEventSource(url);
    } catch (error) {
      warn('Live event stream could not be opened', error);
      signal('closed');
      scheduleRetry();
      return;
    }
    source = opened;
    const onOpen = () => {
      const isReconnect = hasOpened || status.failures > 0;
      hasOpened = true;
      signal('open');
      if (isReconnect) {
        try {
          onReconnect?.();
        } catch (error) {
          warn('Live event reconnect handler failed', error);
        }
      }
    };
    const onError = () => {
      if (source !== opened) return;
      const what: StreamSignal = opened.readyState === READY_STATE.CLOSED ? 'closed' : 'error';
      signal(what);
      warn('Live event stream error', { readyState: opened.readyState, failures: status.failures });
      if (what === 'closed') {
        try {
          onClosed?.();
        } catch (error) {
          warn('Live event closed handler failed', error);
        }
      }
      if (shouldTakeOverRetry(status, what)) {
        closeSource();
        scheduleRetry();
      }
    };
    const onMessage = (event: Event) => handleMessage(event as MessageEvent);
    opened.addEventListener('open', onOpen);
    opened.addEventListener('error', onError);
    opened.addEventListener('message', onMessage);
    detachSource = () => {
      opened.removeEventListener('open', onOpen);
      opened.removeEventListener('error', onError);
      opened.removeEventListener('message', onMessage);
    };
  }

  function handleNetworkChange(isOnline: boolean) {
    if (!isRunning) return;
    if (isOnline) {
      if (source) return;
      cancelRetry();
      signal('browser-online');
      open();
    } else {
      cancelRetry();
      closeSource();
      signal('browser-offline');
    }
  }

  return {
    start() {
      if (isRunning) return;
      isRunning = true;
      unsubscribeNetwork = network.subscribe(handleNetworkChange);
      open();
    },
    stop() {
      if (!isRunning) return;
      isRunning = false;
      unsubscribeNetwork?.();
      unsubscribeNetwork = null;
      cancelRetry();
      closeSource();
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setFeedOpen(isOpen) {
      if (isOpen === snapshot.isFeedOpen && (!isOpen || snapshot.unreadCount === 0)) return;
      publish({ isFeedOpen: isOpen, unreadCount: isOpen ? 0 : snapshot.unreadCount });
    },
  };
}

/**
 * A per-key throttle with a leading and a trailing run: the first request for a key runs at once;
 * requests during the next `windowMs` are merged into one run at the window's end. So a burst of
 * events refreshes each query family at most once per window (no refetch storm), and the last
 * event of a burst is never left unrefreshed. Uses only timers (works under a mocked clock).
 */
export interface Coalescer<K extends string> {
  /** Asks for a run of `key`. */
  request(key: K): void;
  /** Cancels pending trailing runs. */
  dispose(): void;
}

/** Creates a {@link Coalescer} running `run(key)` at most once per `windowMs` per key (default 1 s). */
export function createCoalescer<K extends string>(
  run: (key: K) => void,
  windowMs = 1_000,
  timers: Timers = globalTimers,
): Coalescer<K> {
  /** Keys inside their window, and whether another run is due at its end. */
  const windows = new Map<K, { timer: unknown; isPending: boolean }>();

  function openWindow(key: K) {
    const entry = { timer: null as unknown, isPending: false };
    entry.timer = timers.setTimeout(() => {
      windows.delete(key);
      if (entry.isPending) {
        run(key);
        openWindow(key);
      }
    }, windowMs);
    windows.set(key, entry);
  }

  return {
    request(key) {
      const entry = windows.get(key);
      if (entry) {
        entry.isPending = true;
        return;
      }
      run(key);
      openWindow(key);
    },
    dispose() {
      for (const entry of windows.values()) timers.clearTimeout(entry.timer);
      windows.clear();
    },
  };
}
