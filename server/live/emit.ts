/**
 * Emitting live events (CONTRACT.md "Live events"): a row in `live_events` (kept a day
 * for Last-Event-ID replay) plus `NOTIFY live_events` carrying the message, both inside the
 * caller's transaction, so an event reaches the streams of every server instance exactly when
 * (and only if) the change that caused it commits.
 */
import type { Queryable } from '../db/types';

/** The NOTIFY channel of live events; the payload is the JSON of a LiveEventMessage. */
export const LIVE_EVENTS_CHANNEL = 'live_events';

/** The types the reference server emits (CONTRACT.md "Live events"). */
export const LIVE_EVENT_TYPES = [
  'subscription.new',
  'subscription.renewal',
  'subscription.cancelled',
  'access.granted',
  'access.revoked',
  'isr.event',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** What an emitter says happened. Money in integer cents with its ISO 4217 code; `at` is the instant (UTC). */
export interface LiveEventInput {
  type: LiveEventType;
  email: string | null;
  provider: 'lemonsqueezy' | 'clickbank' | null;
  amount_cents: number | null;
  currency: string | null;
  at: Date;
}

/** The `data:` JSON of one stream message; `id` is also the SSE `id:`. `at` is ISO UTC. */
export interface LiveEventMessage {
  id: number;
  type: LiveEventType;
  email: string | null;
  provider: 'lemonsqueezy' | 'clickbank' | null;
  amount_cents: number | null;
  currency: string | null;
  at: string;
}

/**
 * Records `event` and notifies every listener when the caller's transaction commits → the
 * message as streamed. Call it with the transaction of the change (`tx`); rejects (rolling the
 * change back) when the database refuses the row.
 */
export async function emitLiveEvent(
  tx: Queryable,
  event: LiveEventInput,
): Promise<LiveEventMessage> {
  const body = {
    type: event.type,
    email: event.email,
    provider: event.provider,
    amount_cents: event.amount_cents,
    currency: event.currency,
    at: event.at.toISOString(),
  };
  const inserted = await tx.query<{ id: number }>(
    'INSERT INTO live_events (type, at, payload) VALUES ($1, $2, $3) RETURNING id',
    [event.type, event.at, JSON.stringify(body)],
  );
  const id = Number(inserted.rows[0]?.id);
  const message: LiveEventMessage = { id, ...body };
  await tx.query('SELECT pg_notify($1, $2)', [LIVE_EVENTS_CHANNEL, JSON.stringify(message)]);
  return message;
}
