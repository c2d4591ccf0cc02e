/**
 * The one fetch wrapper of the console, carrying every common rule of §7 and the error rules of
 * §8 and CONTRACT.md: prefix + path, JSON in and out, bearer token, credentials, a 30 s time-out
 * joined with the caller's AbortSignal, blank query parameters dropped, typed errors, and the
 * app-wide 401 handling. Every resource module calls apiRequest; nothing else calls fetch.
 */
import type { z } from './zod';
import { MESSAGES } from '../domain/messages';
import { REQUEST_TIMEOUT_MS } from '../domain/types';
import { getConfig } from './config';
import { clearToken, getToken } from './token';

/**
 * A failed call (§3 Error object, §8): `status` is the HTTP status, or 0 when no answer came
 * (network failure, time-out); `payload` is the parsed JSON body (or its text) of the answer.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** HTTP status; 0 = no answer (network error or time-out). */
  readonly status: number;
  /** The answer's JSON (or raw text), null when there was none. */
  readonly payload: unknown;

  constructor(status: number, message: string, payload: unknown = null) {
    super(message);
    this.status = status;
    this.payload = payload;
  }
}

/**
 * An OK answer whose JSON does not match the expected schema. Its message is '' on purpose, so
 * screens fall back to their §8 default ('Failed to load stats', …) instead of a blank screen.
 * `status` is the HTTP status; `issues` lists what did not match ('rows: expected array').
 */
export class MalformedResponseError extends ApiError {
  override name = 'MalformedResponseError';
  /** One line per schema problem, 'path: message'. */
  readonly issues: readonly string[];

  constructor(status: number, payload: unknown, issues: readonly string[]) {
    super(status, '', payload);
    this.issues = issues;
  }
}

/** Whether `error` is the rejection of a call the caller aborted (not a time-out). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/* ------------------------------------------------------------------------------------------ */
/* 401 handling                                                                                 */
/* ------------------------------------------------------------------------------------------ */

const unauthorizedHandlers = new Set<() => void>();

/**
 * Registers what happens when a call answers 401 (CONTRACT.md: the token is already cleared;
 * the app navigates to /admin/login remembering where the operator was). Returns the function
 * that unregisters it. The login, who-am-I and logout calls never trigger it.
 */
export function onUnauthorized(handler: () => void): () => void {
  unauthorizedHandlers.add(handler);
  return () => {
    unauthorizedHandlers.delete(handler);
  };
}

function runUnauthorizedHandler(handler: () => void): void {
  try {
    handler();
  } catch (error) {
    console.error('onUnauthorized handler failed', error);
  }
}

function notifyUnauthorized(): void {
  for (const handler of [...unauthorizedHandlers]) runUnauthorizedHandler(handler);
}

/* ------------------------------------------------------------------------------------------ */
/* URLs                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** A query parameter value; null, undefined, '' and blank strings are dropped (§5). */
export type QueryValue = string | number | boolean | null | undefined;
/** Query parameters by wire name. */
export type QueryParams = Readonly<Record<string, QueryValue>>;

/**
 * The query string for `query` (§5, §7): strings trimmed, blank ones dropped; finite numbers and
 * booleans stringified; null, undefined and non-finite numbers dropped. No leading '?'.
 */
export function toQueryString(query: QueryParams | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value == null) continue;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) search.append(key, String(value));
      continue;
    }
    const text = String(value).trim();
    if (text) search.append(key, text);
  }
  return search.toString();
}

const SPEC_PREFIX = '/api/admin';

/**
 * Prefix + path (+ query). Paths are relative to the configured prefix (CONTRACT.md); the
 * specification's '/api/admin/x' spelling is read as prefix + '/x', and a missing leading
 * slash ('maintenance/ping') is added. e.g. apiUrl('/users', {page: 1}) → '/api/admin/users?page=1'.
 */
export function apiUrl(path: string, query?: QueryParams): string {
  let relative = path.startsWith('/') ? path : `/${path}`;
  if (relative === SPEC_PREFIX || relative.startsWith(`${SPEC_PREFIX}/`)) {
    relative = relative.slice(SPEC_PREFIX.length) || '/';
  }
  const qs = toQueryString(query);
  return `${getConfig().apiPrefix}${relative}${qs ? `?${qs}` : ''}`;
}

/**
 * The §8 message for a non-OK answer: payload.message, else payload.error, else the status
 * text, else 'Request failed' (blank strings are skipped at each step).
 */
export function errorMessageFromResponse(payload: unknown, statusText: string | undefined): string {
  if (payload !== null && typeof payload === 'object') {
    const { message, error } = payload as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message.trim()) return message;
    if (typeof error === 'string' && error.trim()) return error;
  }
  if (statusText && statusText.trim()) return statusText;
  return MESSAGES.requestFailed;
}

/* ------------------------------------------------------------------------------------------ */
/* Requests                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** HTTP methods the console uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options of apiRequest. */
export interface ApiRequestOptions<T> {
  /** Default 'GET'. */
  method?: HttpMethod;
  /** Query parameters; blank values are dropped and strings trimmed (§5). */
  query?: QueryParams;
  /** JSON payload; undefined or null = no body and no Content-Type (§7). */
  body?: unknown;
  /** The caller's signal (TanStack Query's); aborting rejects with its AbortError. */
  signal?: AbortSignal;
  /** Zod schema for the OK answer's JSON; a mismatch throws MalformedResponseError. */
  schema?: z.ZodMiniType<T>;
  /** Time-out in ms, default REQUEST_TIMEOUT_MS (30 000, §9); injectable for tests. */
  timeoutMs?: number;
  /**
   * The call is an authentication probe (login, who-am-I, logout): its 401 is an answer, not an
   * expired session, so the token is kept and no unauthorized handler runs.
   */
  authProbe?: boolean;
}

/** The headers of every call: JSON accepted, and the bearer token when one is stored. */
function requestHeaders(): Record<string, string> {
  const token = getToken();
  return token
    ? { Accept: 'application/json', Authorization: `Bearer ${token}` }
    : { Accept: 'application/json' };
}

function joinSignals(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function parseBody(text: string): { json: boolean; value: unknown } {
  if (!text.trim()) return { json: false, value: null };
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, value: text };
  }
}

function describeIssues(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/**
 * Calls the admin API and returns the answer's JSON (parsed by `schema` when given).
 * Sends `Accept: application/json`, `Authorization: Bearer <token>` when a token is stored,
 * `credentials: 'include'`, and a JSON body with `Content-Type: application/json` only when there
 * is a payload. Errors (all ApiError unless the caller aborted):
 * - non-OK answer → ApiError {status, payload, message per errorMessageFromResponse};
 *   a 401 first clears the token and runs the onUnauthorized handlers (unless authProbe);
 * - no answer → ApiError status 0 'Network error'; time-out → ApiError status 0 'Request timed out';
 * - OK answer that is not JSON or does not match `schema` → MalformedResponseError (message '');
 * - caller's signal aborted → rejects with the signal's reason (an AbortError DOMException).
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<T> {
  const { method = 'GET', query, body, signal, schema, authProbe = false } = options;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const hasPayload = body !== undefined && body !== null;

  const headers = requestHeaders();
  if (hasPayload) headers['Content-Type'] = 'application/json';

  if (signal?.aborted) throw abortReason(signal);
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException(MESSAGES.timedOut, 'TimeoutError')),
    timeoutMs,
  );
  const combined = signal ? joinSignals([signal, timeout.signal]) : timeout.signal;

  let response: Response;
  let text: string;
  const url = apiUrl(path, query);
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'include',
      body: hasPayload ? JSON.stringify(body) : undefined,
      signal: combined,
    });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (timeout.signal.aborted) throw new ApiError(0, MESSAGES.timedOut);
    throw new ApiError(0, MESSAGES.networkError, error instanceof Error ? error.message : null);
  } finally {
    clearTimeout(timer);
  }

  const parsed = parseBody(text);
  if (!response.ok) {
    if (response.status === 401 && !authProbe) {
      clearToken();
      notifyUnauthorized();
    }
    throw new ApiError(
      response.status,
      errorMessageFromResponse(parsed.value, response.statusText),
      parsed.value,
    );
  }
  if (!schema) return parsed.value as T;
  if (!parsed.json) {
    throw new MalformedResponseError(response.status, parsed.value, ['(root): not JSON']);
  }
  const result = schema.safeParse(parsed.value);
  if (!result.success) {
    throw new MalformedResponseError(response.status, parsed.value, describeIssues(result.error));
  }
  return result.data;
}

/**
 * Tries candidate paths in order (§7 notes, CONTRACT.md), moving on only when a path answers
 * 404; any other error stops at once and is thrown. When every path answers 404 it throws
 * ApiError 404 'Not Found – none of the candidate paths responded. Please confirm the backend
 * route.' (§8).
 */
export async function apiRequestFirstFound<T = unknown>(
  paths: readonly string[],
  options: ApiRequestOptions<T> = {},
): Promise<T> {
  let lastPayload: unknown = null;
  for (const path of paths) {
    try {
      return await apiRequest<T>(path, options);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      lastPayload = error.payload;
    }
  }
  throw new ApiError(404, MESSAGES.candidatesNotFound, lastPayload);
}
