/**
 * The live event stream (§7 GET /api/admin/events/stream; CONTRACT.md Live events): its URL and
 * the parsing of its messages. Opening it (EventSource with credentials) is the app's job.
 */
import { apiUrl } from './client';
import { asObject } from './wire';

/** Event types the reference server emits (CONTRACT.md); others may arrive and are kept. */
export type LiveEventType =
  | 'subscription.new'
  | 'subscription.renewal'
  | 'subscription.cancelled'
  | 'access.granted'
  | 'access.revoked'
  | 'isr.event';

/** A live message: its type plus whatever else it carried. */
export interface LiveEvent {
  type: LiveEventType | (string & {});
  data: Record<string, unknown>;
}

/** The stream's URL: prefix + '/events/stream' (open with {withCredentials: true}). */
export function eventsStreamUrl(): string {
  return apiUrl('/events/stream');
}

/**
 * A stream message's data → LiveEvent, or null when it is not JSON or has no string type
 * (§8: bad payloads are only logged, never shown).
 */
export function parseLiveEvent(data: string): LiveEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const bag = asObject(parsed);
  const type = typeof bag?.type === 'string' ? bag.type.trim() : '';
  return bag && type ? { type, data: bag } : null;
}
