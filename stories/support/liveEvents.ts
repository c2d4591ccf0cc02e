/**
 * Live events for the feed's stories, read from the wire fixtures (tests/msw/fixtures-live.ts)
 * through the console's own message schema, so stories show exactly what the stream would.
 */
import { parseLiveEvent } from '../../src/api/events';
import type { LiveEvent } from '../../src/domain/live';
import type { LiveMessageFixture } from '../../tests/msw/fixtures-live';

/** The feed's events for wire messages (in order; unknown or malformed ones dropped). */
export function liveEvents(messages: readonly LiveMessageFixture[]): LiveEvent[] {
  return messages
    .map((message) => parseLiveEvent(JSON.stringify(message), message.id))
    .filter((event): event is LiveEvent => event !== null);
}
