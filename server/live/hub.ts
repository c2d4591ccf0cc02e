/**
 * The in-process fan-out of live events (CONTRACT.md "Live events"): ONE
 * `LISTEN live_events` per hub (one hub per server process) feeding every open event stream of
 * that process. Because the events travel through the database's NOTIFY, every server instance
 * over one PostgreSQL delivers every event, whichever instance committed it.
 *
 * The hub parses each NOTIFY payload once and hands every subscriber the same pre-encoded SSE
 * frame, so delivering one event to N streams costs N queue pushes, not N serialisations.
 * Subscribers must not block (server/live/stream.ts enqueues into a bounded per-stream queue).
 */
import type { Db } from '../db/types';
import { LIVE_EVENT_TYPES, LIVE_EVENTS_CHANNEL, type LiveEventMessage } from './emit';

/** One stream's end of the hub. */
export interface LiveSubscriber {
  /** Called synchronously for every event (in NOTIFY order, i.e. commit order); must not block. */
  deliver(message: LiveEventMessage, frame: Uint8Array): void;
  /** Called once when the hub stops (server shutdown): the stream should end. */
  close(): void;
}

/** A per-process live event hub over one `Db`. */
export interface LiveHub {
  /**
   * Starts listening (idempotent; concurrent calls share one LISTEN) → resolves once the LISTEN is
   * active, so an event committed afterwards is delivered. Rejects when the database refuses
   * (the next call retries); rejects after stop().
   */
  start(): Promise<void>;
  /** Adds a subscriber → its unsubscribe function (idempotent). */
  subscribe(subscriber: LiveSubscriber): () => void;
  /** Open subscribers now. */
  readonly size: number;
  /** Events received from the database since start (for /status-like diagnostics and benches). */
  readonly received: number;
  /** Unlistens and closes every subscriber; later start() calls reject. Idempotent. */
  stop(): Promise<void>;
}

const encoder = new TextEncoder();
const TYPES = new Set<string>(LIVE_EVENT_TYPES);

/**
 * The SSE frame of one message: `id: <id>\ndata: <json>\n\n` (one data line: JSON.stringify
 * never emits a raw newline). `json` is the message's JSON as emitted.
 */
export function sseFrame(id: number, json: string): Uint8Array {
  return encoder.encode(`id: ${id}\ndata: ${json}\n\n`);
}

/**
 * Reads a NOTIFY payload (the JSON of server/live/emit.ts's LiveEventMessage) → the message, or
 * null when it is not JSON, has no positive integer `id` or an unknown `type`.
 */
export function parseLiveNotify(payload: string): LiveEventMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const m = value as Partial<LiveEventMessage>;
  if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || m.id <= 0) return null;
  if (typeof m.type !== 'string' || !TYPES.has(m.type)) return null;
  return m as LiveEventMessage;
}

/**
 * Creates the hub of one process over `db`. Nothing listens until start(); `onInvalid` is told
 * about NOTIFY payloads that are not live event messages (they are dropped).
 */
export function createLiveHub(db: Db, onInvalid?: (payload: string) => void): LiveHub {
  const subscribers = new Set<LiveSubscriber>();
  let starting: Promise<void> | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let stopped = false;
  let received = 0;

  const onNotify = (payload: string) => {
    const message = parseLiveNotify(payload);
    if (!message) {
      onInvalid?.(payload);
      return;
    }
    received++;
    const frame = sseFrame(message.id, payload);
    // A copy, so a subscriber that unsubscribes (or closes) while being delivered to is safe.
    for (const s of [...subscribers]) {
      try {
        s.deliver(message, frame);
      } catch {
        // One broken stream must not stop the others.
      }
    }
  };

  return {
    start() {
      if (stopped) return Promise.reject(new Error('The live event hub is stopped'));
      starting ??= db.listen(LIVE_EVENTS_CHANNEL, onNotify).then(
        async (off) => {
          if (stopped) {
            await off();
            throw new Error('The live event hub is stopped');
          }
          unlisten = off;
        },
        (err: unknown) => {
          starting = null;
          throw err;
        },
      );
      return starting;
    },
    subscribe(subscriber) {
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },
    get size() {
      return subscribers.size;
    },
    get received() {
      return received;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const s of [...subscribers]) {
        try {
          s.close();
        } catch {
          // keep closing the others
        }
      }
      subscribers.clear();
      await starting?.catch(() => undefined);
      const off = unlisten;
      unlisten = null;
      if (off) await off().catch(() => undefined);
    },
  };
}
