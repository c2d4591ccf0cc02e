/**
 * GET {prefix}/events/stream — the live event stream of the console (CONTRACT.md
 * "Live events" and "Authentication"; specification §7 GET /api/admin/events/stream; docs/api.md
 * "Live event stream").
 *
 * - Authenticated by `Authorization: Bearer <token>` or the session cookie (EventSource cannot
 *   send a header); 401 JSON before any stream byte otherwise. The session is re-validated on
 *   every heartbeat and the stream ends when it has ended (logout, expiry).
 * - `text/event-stream`: `retry: <ms>` once, then one `id: <live_events.id>` + `data: <JSON>`
 *   frame per event (JSON of server/live/emit.ts's LiveEventMessage), and a `: ping` comment
 *   every heartbeat (default 15 s).
 * - `Last-Event-ID` (header, or `?lastEventId=` on a fresh page) replays the kept events with a
 *   larger id, oldest first, then continues live with no gap and no duplicate: the stream
 *   subscribes to the hub first, buffers, replays, then flushes the buffer minus replayed ids.
 * - Open streams are capped per session and per server instance (429 JSON); a slot is released
 *   when the stream ends for any reason (client gone, session ended, overflow, shutdown).
 * - A slow client never blocks the others: each stream has a bounded queue; on overflow the
 *   stream is ended and the client reconnects with its Last-Event-ID and replays.
 */
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { AUTH_MESSAGES } from '../auth/routes';
import { authenticateToken, readSessionToken, type AdminSession } from '../auth/session';
import { SESSIONS_ENDED_CHANNEL } from '../auth/sessionEvents';
import type { AppDeps } from '../context';
import type { Db } from '../db/types';
import { ApiError, badRequest } from '../errors';
import type { LiveEventMessage } from './emit';
import { sseFrame, type LiveHub } from './hub';

/** Default heartbeat interval (ms): a `: ping` comment and a session re-check (CONTRACT.md: 15 s). */
export const STREAM_HEARTBEAT_MS = 15_000;
/** The `retry:` (ms) sent once per stream: how long EventSource waits before reconnecting. */
export const STREAM_RETRY_MS = 3_000;
/** Default cap of open streams per session (STREAM_MAX_PER_SESSION). */
export const STREAM_MAX_PER_SESSION = 5;
/** Default cap of open streams per server instance (STREAM_MAX_TOTAL). */
export const STREAM_MAX_TOTAL = 200;
/** At most this many events are replayed on a reconnect (the newest of the missed ones, oldest first). */
export const STREAM_REPLAY_LIMIT = 1_000;
/** Frames a stream may have queued for a slow client before it is ended (the client then replays). */
export const STREAM_QUEUE_LIMIT = 256;
/** live_events rows are kept this long (ms) for replay: a day. */
export const LIVE_EVENT_RETENTION_MS = 86_400_000;
/** How often the server deletes expired live_events rows (ms). */
export const LIVE_EVENT_PRUNE_INTERVAL_MS = 15 * 60_000;

/** Tunables of the stream router; unset fields come from deps.config, then the defaults above. */
export interface LiveStreamOptions {
  /** The process's hub (server/live/hub.ts); started lazily by the first stream. */
  hub: LiveHub;
  heartbeatMs?: number;
  retryMs?: number;
  maxPerSession?: number;
  maxTotal?: number;
  replayLimit?: number;
  queueLimit?: number;
}

/** Counts open streams per session key and in total; acquire → release function, or null when capped. */
export interface StreamSlots {
  acquire(key: string): (() => void) | null;
  /** Open streams of `key` (all keys when omitted). */
  count(key?: string): number;
}

/** Slots capped at `maxPerKey` per key and `maxTotal` overall; each release function works once. */
export function createStreamSlots(maxPerKey: number, maxTotal: number): StreamSlots {
  const perKey = new Map<string, number>();
  let total = 0;
  return {
    acquire(key) {
      const mine = perKey.get(key) ?? 0;
      if (mine >= maxPerKey || total >= maxTotal) return null;
      perKey.set(key, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (perKey.get(key) ?? 1) - 1;
        if (left <= 0) perKey.delete(key);
        else perKey.set(key, left);
      };
    },
    count(key) {
      return key === undefined ? total : (perKey.get(key) ?? 0);
    },
  };
}

/**
 * The Last-Event-ID of a reconnect: the `Last-Event-ID` header, else the `lastEventId` query
 * parameter → a non-negative integer, or null when neither is given (live only). Throws the 400
 * JSON for anything but digits (our ids are always integers).
 */
export function readLastEventId(c: Context): number | null {
  const raw = (c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? '').trim();
  if (raw === '') return null;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw badRequest(
      `Last-Event-ID must be a live event id (a whole number), got "${raw.slice(0, 40)}"`,
      [{ path: 'lastEventId', message: 'must be a whole number' }],
    );
  }
  return value;
}

/** The cap key of a session: its `sid` when it has one (revocable sessions), else a hash of the token. */
export function streamSessionKey(session: AdminSession, token: string): string {
  const sid = (session as AdminSession & { sid?: unknown }).sid;
  if (typeof sid === 'string' && sid !== '') return `sid:${sid}`;
  return `tok:${createHash('sha256').update(token).digest('hex')}`;
}

interface LiveEventRow {
  id: number | string;
  payload: Omit<LiveEventMessage, 'id'>;
}

/** The message of a stored live_events row, with the key order of emitLiveEvent (id first). */
function rowMessage(row: LiveEventRow): LiveEventMessage {
  const p = row.payload;
  return {
    id: Number(row.id),
    type: p.type,
    email: p.email ?? null,
    provider: p.provider ?? null,
    amount_cents: p.amount_cents ?? null,
    currency: p.currency ?? null,
    at: p.at,
  };
}

/**
 * The kept events with id > `afterId`: the newest `limit` of them, oldest first (a client that
 * missed more than `limit` gets the most recent ones).
 */
export async function replayEvents(
  db: Db,
  afterId: number,
  limit: number,
): Promise<LiveEventMessage[]> {
  const r = await db.query<LiveEventRow>(
    `SELECT id, payload FROM (
       SELECT id, payload FROM live_events WHERE id > $1 ORDER BY id DESC LIMIT $2
     ) newest ORDER BY id`,
    [afterId, limit],
  );
  return r.rows.map(rowMessage);
}

/** Deletes live_events rows whose `at` is older than `keepMs` before `now` → how many. */
export async function pruneLiveEvents(
  db: Db,
  now: Date,
  keepMs = LIVE_EVENT_RETENTION_MS,
): Promise<number> {
  const cutoff = new Date(now.getTime() - keepMs);
  const r = await db.query('DELETE FROM live_events WHERE at < $1', [cutoff]);
  return r.affectedRows ?? 0;
}

/**
 * Prunes live_events (a day) now and every LIVE_EVENT_PRUNE_INTERVAL_MS → stop(); `ready`
 * settles after the first run. Failures are logged, never thrown (same pattern as log retention).
 */
export function startLiveEventRetention(
  deps: AppDeps,
  intervalMs = LIVE_EVENT_PRUNE_INTERVAL_MS,
): { stop: () => void; ready: Promise<void> } {
  const run = async () => {
    try {
      const n = await pruneLiveEvents(deps.db, deps.now());
      if (n > 0) deps.log.info({ deleted: n }, 'pruned the live_events table');
    } catch (err) {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not prune the live_events table',
      );
    }
  };
  const ready = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), ready };
}

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');

/** The §8 401 of docs/api.md (same body as the authentication middleware's). */
function unauthorized(code: 'NO_TOKEN' | 'INVALID_JWT'): ApiError {
  return new ApiError(401, 'unauthorized', AUTH_MESSAGES[code], { ok: false, code });
}

/**
 * The stream router (mounted under the API prefix, before the bearer-only middleware):
 * GET /events/stream → 200 text/event-stream; 401 no/invalid session; 400 malformed
 * Last-Event-ID; 429 `{error:'rate_limited', message}` over a cap; 503 when the database cannot
 * LISTEN.
 */
export function createLiveStreamRouter(deps: AppDeps, options: LiveStreamOptions): Hono {
  const { hub } = options;
  const heartbeatMs = options.heartbeatMs ?? deps.config.streamHeartbeatMs ?? STREAM_HEARTBEAT_MS;
  const retryMs = options.retryMs ?? STREAM_RETRY_MS;
  const maxPerSession =
    options.maxPerSession ?? deps.config.streamMaxPerSession ?? STREAM_MAX_PER_SESSION;
  const maxTotal = options.maxTotal ?? deps.config.streamMaxTotal ?? STREAM_MAX_TOTAL;
  const replayLimit = options.replayLimit ?? STREAM_REPLAY_LIMIT;
  const queueLimit = options.queueLimit ?? STREAM_QUEUE_LIMIT;
  const slots = createStreamSlots(maxPerSession, maxTotal);
  const router = new Hono();
  // Streams per operator, re-checked at once when that operator's sessions end (disabled,
  // password changed, a session ended from Settings) on any instance.
  const byOperator = new Map<number, Set<() => void>>();
  let listening: Promise<unknown> | null = null;
  const listenForEndedSessions = () => {
    listening ??= deps.db
      .listen(SESSIONS_ENDED_CHANNEL, (payload) => {
        for (const recheck of byOperator.get(Number(payload)) ?? []) recheck();
      })
      .catch((err: unknown) => {
        listening = null;
        deps.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'cannot listen for ended sessions; streams end at their next heartbeat',
        );
      });
    return listening;
  };

  router.get('/events/stream', async (c) => {
    const token = readSessionToken(c, true);
    if (!token) throw unauthorized('NO_TOKEN');
    const session = await authenticateToken(deps, token);
    if (!session) throw unauthorized('INVALID_JWT');
    const lastEventId = readLastEventId(c);

    const key = streamSessionKey(session, token);
    const release = slots.acquire(key);
    if (!release) {
      const perSession = slots.count(key) >= maxPerSession;
      deps.log.warn(
        { email: session.email, perSession, open: slots.count() },
        'stream refused: cap',
      );
      c.header('Retry-After', String(Math.ceil(retryMs / 1000)));
      return c.json(
        {
          error: 'rate_limited',
          message: perSession
            ? `Too many open event streams for this session (at most ${maxPerSession}); close another tab and try again.`
            : `Too many open event streams on this server (at most ${maxTotal}); try again later.`,
        },
        429,
      );
    }
    try {
      await hub.start();
    } catch (err) {
      release();
      deps.log.error(
        { err: err instanceof Error ? err.message : String(err) },
        'live event hub cannot listen',
      );
      throw new ApiError(503, 'db_unavailable', 'Backend database is currently unavailable.');
    }

    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let ended = false;
    let wakeWriter: (() => void) | null = null;
    /** Events that arrived while the replay ran (null once live). */
    let pending: Array<{ id: number; frame: Uint8Array }> | null = [];
    const replayed = new Set<number>();
    const signal = c.req.raw.signal;

    const cleanup = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      const mine = byOperator.get(session.operatorId);
      mine?.delete(recheck);
      if (mine?.size === 0) byOperator.delete(session.operatorId);
      unsubscribe();
      release();
      signal.removeEventListener('abort', cleanup);
      wakeWriter?.();
    };
    /** Ends the stream from our side (session ended, overflow, shutdown). */
    const end = (comment?: string) => {
      if (ended) return;
      if (comment) {
        try {
          controller.enqueue(encoder.encode(`: ${comment}\n\n`));
        } catch {
          // already closed
        }
      }
      cleanup();
      try {
        controller.close();
      } catch {
        // the client already went away
      }
    };
    /** Queues one frame; a client that lets STREAM_QUEUE_LIMIT frames pile up is dropped. */
    const push = (frame: Uint8Array) => {
      if (ended) return;
      if ((controller.desiredSize ?? 0) <= 0) {
        deps.log.warn({ email: session.email, queued: queueLimit }, 'slow event stream dropped');
        end('too slow; reconnect to replay');
        return;
      }
      controller.enqueue(frame);
    };

    const body = new ReadableStream<Uint8Array>(
      {
        start(ctl) {
          controller = ctl;
        },
        pull() {
          const wake = wakeWriter;
          wakeWriter = null;
          wake?.();
        },
        cancel() {
          cleanup();
        },
      },
      new CountQueuingStrategy({ highWaterMark: queueLimit }),
    );

    // Subscribe BEFORE reading the replay, so nothing committed in between is lost.
    const unsubscribe = hub.subscribe({
      deliver(message, frame) {
        if (pending) {
          pending.push({ id: message.id, frame });
          if (pending.length > queueLimit) end('too slow; reconnect to replay');
        } else if (!replayed.has(message.id)) {
          push(frame);
        }
      },
      close: () => end('server shutting down'),
    });
    signal.addEventListener('abort', cleanup);
    /** Ends the stream when its session no longer holds; `ping` also sends the heartbeat. */
    const check = (ping: boolean) => {
      void authenticateToken(deps, token, { touch: false }).then(
        (still) => {
          if (!still) end('session ended');
          else if (ping) push(PING);
        },
        () => end('session check failed'),
      );
    };
    const recheck = () => check(false);
    const heartbeat = setInterval(() => check(true), heartbeatMs);
    heartbeat.unref?.();
    if (!byOperator.has(session.operatorId)) byOperator.set(session.operatorId, new Set());
    byOperator.get(session.operatorId)?.add(recheck);
    void listenForEndedSessions();

    push(encoder.encode(`retry: ${retryMs}\n\n`));
    void (async () => {
      try {
        if (lastEventId !== null) {
          const missed = await replayEvents(deps.db, lastEventId, replayLimit);
          for (const m of missed) {
            // The replay waits for the client (it is bounded by replayLimit), live frames do not.
            while (!ended && (controller.desiredSize ?? 0) <= 0) {
              await new Promise<void>((resolve) => (wakeWriter = resolve));
            }
            if (ended) return;
            replayed.add(m.id);
            controller.enqueue(sseFrame(m.id, JSON.stringify(m)));
          }
        }
        const buffered = pending ?? [];
        pending = null;
        for (const p of buffered) if (!replayed.has(p.id)) push(p.frame);
      } catch (err) {
        deps.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'event stream replay failed',
        );
        end('replay failed; reconnect');
      }
    })();

    deps.log.debug({ email: session.email, lastEventId, open: slots.count() }, 'event stream open');
    return c.body(body, 200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    });
  });

  return router;
}
