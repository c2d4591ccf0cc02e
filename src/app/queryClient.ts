import { QueryClient } from '@tanstack/react-query';

/** True for errors that a retry cannot fix (4xx answers). Reads a numeric `status` when present. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The console's server-state cache (TanStack Query). One retry for network/5xx failures, none for
 * 4xx; data is fresh for 30 s; no refetch on window focus (operators compare figures side by side).
 * `options.retry = false` is what stories and tests use, so error states show at once.
 */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry:
          options.retry === false ? false : (count, error) => !isClientError(error) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}
