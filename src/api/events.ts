/**
 * The live event stream (§7 GET /api/admin/events/stream; CONTRACT.md "Live events"): its URL, the
 * zod/mini schema of its messages, and the query keys each event makes stale. Opening the stream
 * (EventSource with credentials) is src/app's job (src/app/liveEvents.ts).
 *
 * A message is `id: <id>` plus `data: {"id", "type", "email", "provider", "amount_cents",
 * "currency", "at"}`. Only `type` is required; a field of the wrong kind reads as null rather than
 * dropping the event. Messages that are not JSON objects with a string type are malformed (§8:
 * logged, never shown); a well-formed message of an unknown type is ignored silently, so a newer
 * server can add types without noise.
 */
import * as z from 'zod/mini';
import { isLiveEventType, type LiveEvent, type LiveResource } from '../domain/live';
import { parseUtc } from '../domain/format';
import { apiUrl } from './client';
import { queryKeys } from './queryKeys';

export type { LiveEvent, LiveEventType } from '../domain/live';

/** The stream's URL: prefix + '/events/stream' (open with {withCredentials: true}). */
export function eventsStreamUrl(): string {
  return apiUrl('/events/stream');
}

// The optional fields accept any JSON value and map what they cannot use to null in one
// transform (no z.union / z.catch: those would add zod/mini code to the entry chunk the sign-in
// page loads, whose JavaScript has a budget: tests/e2e/delivery.spec.ts).

/** Text → trimmed text; blank, missing or not a string → null. */
const wireText = z.pipe(
  z.unknown(),
  z.transform((value): string | null => {
    const text = typeof value === 'string' ? value.trim() : '';
    return text ? text : null;
  }),
);

/** Integer cents: a number or a numeric string ('4700'), rounded; anything else → null. */
const wireCents = z.pipe(
  z.unknown(),
  z.transform((value): number | null => {
    if (typeof value !== 'number' && typeof value !== 'string') return null;
    const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(n) ? Math.round(n) + 0 : null;
  }),
);

/** An ISO currency code, uppercased; anything that is not three letters → null. */
const wireCurrency = z.pipe(
  wireText,
  z.transform((value): string | null => {
    const code = value?.toUpperCase() ?? '';
    return /^[A-Z]{3}$/.test(code) ? code : null;
  }),
);

/**
 * An instant → ISO 8601 UTC ('2026-11-20T11:59:00.000Z'). ISO with a zone and the contract's
 * 'YYYY-MM-DD HH:MM[:SS]' (UTC) are accepted; anything else → null.
 */
const wireInstant = z.pipe(
  wireText,
  z.transform((value): string | null => parseUtc(value)?.toISOString() ?? null),
);

/** The JSON `id`: a string or a finite number, as text; anything else → null. */
const wireEventId = z.pipe(
  z.unknown(),
  z.transform((value): string | null =>
    typeof value === 'number'
      ? Number.isFinite(value)
        ? String(value)
        : null
      : typeof value === 'string' && value.trim()
        ? value.trim()
        : null,
  ),
);

/**
 * A live message's `data:` JSON (CONTRACT.md "Live events"). Only a string `type` is required; a
 * missing field parses as undefined, read as null by readLiveMessage.
 */
export const liveMessageSchema = z.object({
  id: z.optional(wireEventId),
  type: z.pipe(
    z.string(),
    z.transform((value) => value.trim()),
  ),
  email: z.optional(wireText),
  provider: z.optional(wireText),
  amount_cents: z.optional(wireCents),
  currency: z.optional(wireCurrency),
  at: z.optional(wireInstant),
});

/** The outcome of reading one stream message. */
export type LiveMessage =
  | { kind: 'event'; event: LiveEvent }
  /** Well-formed, but a type this console does not know: ignored silently. */
  | { kind: 'unknown-type'; type: string }
  /** Not JSON, not an object, or no string type: logged only (§8). */
  | { kind: 'malformed' };

/**
 * Reads one message: its `data` text and the `lastEventId` EventSource reports for it (the `id:`
 * line; wins over the JSON id). Never throws.
 */
export function readLiveMessage(data: unknown, lastEventId?: string | null): LiveMessage {
  if (typeof data !== 'string') return { kind: 'malformed' };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'malformed' };
  }
  const parsed = liveMessageSchema.safeParse(json);
  if (!parsed.success || parsed.data.type === '') return { kind: 'malformed' };
  const message = parsed.data;
  if (!isLiveEventType(message.type)) return { kind: 'unknown-type', type: message.type };
  const streamId =
    typeof lastEventId === 'string' && lastEventId.trim() ? lastEventId.trim() : null;
  return {
    kind: 'event',
    event: {
      id: streamId ?? message.id ?? null,
      type: message.type,
      email: message.email ?? null,
      provider: message.provider ?? null,
      amountCents: message.amount_cents ?? null,
      currency: message.currency ?? null,
      at: message.at ?? null,
    },
  };
}

/**
 * A stream message's data → LiveEvent, or null when it is malformed or of an unknown type.
 * (The shorter form of {@link readLiveMessage}.)
 */
export function parseLiveEvent(data: unknown, lastEventId?: string | null): LiveEvent | null {
  const message = readLiveMessage(data, lastEventId);
  return message.kind === 'event' ? message.event : null;
}

/** The query-key prefix of each live resource (invalidating it covers every page and filter). */
export function liveResourceQueryKey(resource: LiveResource): readonly unknown[] {
  switch (resource) {
    case 'stats':
      return queryKeys.stats();
    case 'users':
      return queryKeys.users.all();
    case 'subscriptions':
      return queryKeys.subscriptions.all();
    case 'metrics':
      return queryKeys.metrics.all();
    case 'isr':
      return queryKeys.isr.all();
  }
}
