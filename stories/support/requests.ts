import { http, type HttpHandler } from 'msw';
import { api } from '../../tests/msw/handlers';

/**
 * Records the query parameters of every GET to an API path, then lets the request fall through
 * to the next handler (an MSW handler that returns nothing passes the request on). Put it first
 * in a story's handlers; `params()` lists what was asked, oldest first.
 */
export function recordRequests(path: string): {
  handler: HttpHandler;
  params: () => Record<string, string>[];
  reset: () => void;
} {
  const seen: Record<string, string>[] = [];
  return {
    handler: http.get(api(path), ({ request }) => {
      seen.push(Object.fromEntries(new URL(request.url).searchParams));
    }),
    params: () => [...seen],
    reset: () => {
      seen.length = 0;
    },
  };
}

/** Resolves after `ms` milliseconds (to prove that nothing more happens within a window). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
