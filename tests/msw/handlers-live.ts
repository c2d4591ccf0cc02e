/**
 * MSW handlers of the live stream (GET /api/admin/events/stream; CONTRACT.md "Live events"):
 * a stream a story drives message by message, a quiet one, and a refused one.
 */
import { http, sse, type HttpHandler } from 'msw';
import type { LiveMessageFixture } from './fixtures-live';
import { api, jsonError } from './handlers';

/** A stream the story drives: it sends messages to every open connection when told. */
export interface ControlledStream {
  /** The handler to install. */
  handler: HttpHandler;
  /** How many times the console opened the stream. */
  readonly connections: number;
  /** Sends `message` (its `id` as the `id:` line) to every open connection. */
  send(message: LiveMessageFixture | string, id?: string): void;
  /** Drops every open connection (EventSource then reconnects by itself). */
  drop(): void;
}

/** What the story needs of a connection: send a message, or fail it. */
interface StreamClient {
  send(payload: { id?: string; data: string }): void;
  error(): void;
}

/** The live stream handlers. */
export const liveStreamHandlers = {
  /** Open and silent. */
  quiet: (): HttpHandler => sse(api('/events/stream'), () => undefined),
  /** Refused with `status` (a 429, a 503…): EventSource gives up (readyState CLOSED). */
  refused: (status = 503): HttpHandler =>
    http.get(api('/events/stream'), () => jsonError(status, 'Live events unavailable')),
  /** A stream the story sends messages on (see {@link ControlledStream}). */
  controlled(): ControlledStream {
    const clients = new Set<StreamClient>();
    let connections = 0;
    return {
      handler: sse(api('/events/stream'), ({ client }) => {
        connections += 1;
        clients.add(client);
      }),
      get connections() {
        return connections;
      },
      send(message, id) {
        const data = typeof message === 'string' ? message : JSON.stringify(message);
        const eventId = id ?? (typeof message === 'string' ? undefined : message.id);
        for (const client of clients) client.send(eventId ? { id: eventId, data } : { data });
      },
      drop() {
        for (const client of clients) client.error();
        clients.clear();
      },
    };
  },
};
