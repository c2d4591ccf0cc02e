/**
 * The server's one error type. Routes throw an ApiError; the app's onError turns it into the JSON
 * error of docs/api.md: `{error: code, message, ...extra}` with `status`. Anything else thrown
 * becomes a logged 500 `{error: 'internal', message: 'Internal server error'}`.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status, 4xx or 5xx. */
    readonly status: number,
    /** Machine code, e.g. 'bad_request', 'not_found'. */
    readonly code: string,
    message: string,
    /** Extra JSON fields merged into the body (e.g. `{issues}` for validation errors). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 with a clear message and optional per-field issues. */
export const badRequest = (message: string, issues?: unknown) =>
  new ApiError(400, 'bad_request', message, issues === undefined ? {} : { issues });

/** 404 for a missing record. */
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
