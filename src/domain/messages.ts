/**
 * The §8 error catalogue's fixed texts and the one rule screens use to pick a message. Pure.
 */

/** Default and fixed messages of §2/§8, copied exactly. */
export const MESSAGES = {
  /** §8: last resort of the error-message precedence. */
  requestFailed: 'Request failed',
  /** A request that never got an answer (§8 "Network error"). */
  networkError: 'Network error',
  /** A request aborted by the 30 s time-out (§7, §9). */
  timedOut: 'Request timed out',
  loginFailed: 'Login failed',
  stats: 'Failed to load stats',
  users: 'Failed to load users',
  subscriptions: 'Failed to load subscriptions',
  details: 'Failed to load details',
  clickbankOrders: 'Failed to load ClickBank order details',
  logs: 'Failed to load logs',
  metrics: 'Failed to load metrics',
  isrSummary: 'Failed to load ISR summary',
  /** §8: every maintenance candidate path answered 404. */
  candidatesNotFound:
    'Not Found – none of the candidate paths responded. Please confirm the backend route.',
} as const;

/**
 * The message of a thrown error (an ApiError or any Error), or `fallback` when it has none or a
 * blank one (e.g. a malformed response, whose ApiError message is '').
 * e.g. errorMessageOr(err, MESSAGES.stats) → 'Failed to load stats' for a malformed answer.
 */
export function errorMessageOr(error: unknown, fallback: string): string {
  if (error !== null && typeof error === 'object' && 'message' in error) {
    const { message } = error as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

/** The HTTP status carried by an ApiError-like value (0 = no answer), else null. */
export function errorStatus(error: unknown): number | null {
  if (error !== null && typeof error === 'object' && 'status' in error) {
    const { status } = error as { status: unknown };
    if (typeof status === 'number' && Number.isFinite(status)) return status;
  }
  return null;
}
