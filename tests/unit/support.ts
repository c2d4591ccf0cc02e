/**
 * Shared set-up for the API unit tests (Node, msw/node): an absolute API prefix (Node's fetch
 * needs one), an in-memory localStorage, and an MSW server that fails on unmocked requests.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';

/** Where the tests' API lives: the default '/api/admin' prefix on a fake origin. */
export const TEST_ORIGIN = 'http://console.test';
export const TEST_PREFIX = `${TEST_ORIGIN}/api/admin`;

/** A Storage kept in a Map, like the browser's localStorage. */
export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

/**
 * Installs the MSW server and the per-test globals (prefix config, fresh localStorage) for one
 * test file. Returns the server so tests can `server.use(...)` their own handlers.
 */
export function setupApiTestEnvironment() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    vi.stubGlobal('__MG_CONFIG__', {
      apiPrefix: TEST_PREFIX,
      defaultAdminEmail: 'admin@example.com',
    });
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => {
    server.resetHandlers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  afterAll(() => server.close());
  return server;
}

/** A request as a handler saw it; `body` resolves to its text. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Promise<string>;
}

/** Records every request the MSW server sees in the current test (cleared before each test). */
export function recordRequests(server: ReturnType<typeof setupServer>): SeenRequest[] {
  const seen: SeenRequest[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: request.clone().text(),
    });
  });
  beforeEach(() => {
    seen.length = 0;
  });
  return seen;
}
