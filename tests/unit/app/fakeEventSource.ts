/**
 * A scripted EventSource for the live-events tests: records what the client opened and lets a
 * test open it, send messages (with an `id:`), fail it (EventSource retrying: readyState
 * CONNECTING) or refuse it (EventSource gave up: readyState CLOSED).
 */
import type {
  EventSourceFactory,
  LiveEventSource,
  NetworkWatcher,
} from '../../../src/app/liveEvents';

export class FakeEventSource implements LiveEventSource {
  readyState = 0;
  isClosed = false;
  private listeners = new Map<string, Set<(event: Event) => void>>();
  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: Event) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.isClosed = true;
    this.readyState = 2;
  }
  /** How many listeners are attached (0 after the client detached). */
  get listenerCount(): number {
    return [...this.listeners.values()].reduce((n, set) => n + set.size, 0);
  }
  private dispatch(type: string, event: Event) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  /** The stream opened. */
  open() {
    this.readyState = 1;
    this.dispatch('open', new Event('open'));
  }
  /** A message: `data` as sent, `id` as the `id:` line (lastEventId). */
  send(data: unknown, id = '') {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.dispatch('message', new MessageEvent('message', { data: text, lastEventId: id }));
  }
  /** The connection dropped; EventSource retries by itself. */
  fail() {
    this.readyState = 0;
    this.dispatch('error', new Event('error'));
  }
  /** The server refused the stream (401/429/5xx); EventSource gives up. */
  refuse() {
    this.readyState = 2;
    this.dispatch('error', new Event('error'));
  }
}

/** A factory that records every source it opened. */
export function fakeEventSources(): { factory: EventSourceFactory; opened: FakeEventSource[] } {
  const opened: FakeEventSource[] = [];
  return {
    opened,
    factory: (url) => {
      const source = new FakeEventSource(url);
      opened.push(source);
      return source;
    },
  };
}

/** A network the test switches on and off. */
export function fakeNetwork(initiallyOnline = true) {
  let isOnline = initiallyOnline;
  const listeners = new Set<(online: boolean) => void>();
  const network: NetworkWatcher = {
    isOnline: () => isOnline,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
  return {
    network,
    set(online: boolean) {
      isOnline = online;
      for (const listener of listeners) listener(online);
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}
