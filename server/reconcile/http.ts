/**
 * How reconciliation reads a provider's list API: every GET waits for a slot of the provider's
 * request budget (a sliding window per API base URL, shared by every run in this process), is cut
 * off after `timeoutMs`, waits for `Retry-After` on a 429 (and holds every other request to that
 * API until then), and retries a network error, time-out or
 * 5xx with exponential back-off. Any other non-2xx answer, or the last failed attempt, throws a
 * ProviderError naming the provider and the status. Keys travel in headers only and never appear
 * in an error.
 */

/** Options of one provider read (tests shorten the waits or count them). */
export interface ProviderHttpOptions {
  fetchImpl?: typeof fetch;
  /** Waits `ms` milliseconds; default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Per-call time-out in ms (default 30 000). */
  timeoutMs?: number;
  /** Attempts per request for network errors and 5xx (default 5). */
  maxAttempts?: number;
  /** First back-off after a 5xx in ms, doubled per attempt (default 1000). */
  backoffMs?: number;
  /** The clock of the request budget, in ms since the epoch (default Date.now). */
  clock?: () => number;
}

/** Default per-call time-out of a provider list request (ms). */
export const PROVIDER_CALL_TIMEOUT_MS = 30_000;
/** Longest Retry-After honoured (s): a longer one is waited this long, then the call is retried. */
export const MAX_RETRY_AFTER_S = 300;
/** 429 answers tolerated for one request before the run gives up. */
const MAX_RATE_LIMITED = 10;

/** A provider call that failed for good: `status` is the last HTTP status, or null without one. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A request budget: at most `max` requests in any `windowMs`. */
export interface RequestBudget {
  max: number;
  windowMs: number;
}

/** Booked request times per clock (the process clock, or a test's) and budget key. */
const windowsByClock = new WeakMap<() => number, Map<string, number[]>>();
/**
 * Per clock and budget key: the instant (ms) before which no request may start, set by a 429's
 * Retry-After. Requests in flight together (a run reads several pages at once) then all wait
 * for the one pause the API asked for, instead of each finding out with its own 429.
 */
const pausesByClock = new WeakMap<() => number, Map<string, number>>();

/** Holds every later request to `key` until `until` (ms on `clock`). */
function pauseKey(key: string, until: number, clock: () => number): void {
  let pauses = pausesByClock.get(clock);
  if (!pauses) {
    pauses = new Map();
    pausesByClock.set(clock, pauses);
  }
  pauses.set(key, Math.max(pauses.get(key) ?? 0, until));
}

/**
 * Waits until `key` (an API base URL) is not paused by a 429 and has room in `budget`, then
 * books the request.
 */
async function takeSlot(
  key: string,
  budget: RequestBudget,
  sleep: (ms: number) => Promise<void>,
  clock: () => number,
): Promise<void> {
  let windows = windowsByClock.get(clock);
  if (!windows) {
    windows = new Map();
    windowsByClock.set(clock, windows);
  }
  let times = windows.get(key);
  if (!times) {
    times = [];
    windows.set(key, times);
  }
  const pausedUntil = pausesByClock.get(clock)?.get(key) ?? 0;
  if (pausedUntil > clock()) await sleep(pausedUntil - clock());
  for (;;) {
    const now = clock();
    while (times.length > 0 && (times[0] ?? 0) <= now - budget.windowMs) times.shift();
    if (times.length < budget.max) {
      times.push(now);
      return;
    }
    await sleep((times[0] ?? now) + budget.windowMs - now);
  }
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), capped; 60 when absent. */
export function retryAfterSeconds(value: string | null, nowMs: number): number {
  if (value == null || value.trim() === '') return 60;
  const v = value.trim();
  let s = /^\d+$/.test(v) ? Number(v) : Math.ceil((Date.parse(v) - nowMs) / 1000);
  if (!Number.isFinite(s) || s < 0) s = 1;
  return Math.min(s, MAX_RETRY_AFTER_S);
}

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A successful answer: the status and the parsed JSON body (null for an empty one). */
export interface ProviderAnswer {
  status: number;
  body: unknown;
}

/**
 * GET `url` with `headers` under `budget` (keyed by `budgetKey`) → the 2xx answer; throws
 * ProviderError (`provider` names it in the message) for any other outcome, after the retries of
 * the module doc.
 */
export async function providerGet(
  provider: string,
  url: string,
  headers: Record<string, string>,
  budgetKey: string,
  budget: RequestBudget,
  opts: ProviderHttpOptions = {},
): Promise<ProviderAnswer> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const sleep = opts.sleep ?? defaultSleep;
  const clock = opts.clock ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
  const maxAttempts = opts.maxAttempts ?? 5;
  const backoffMs = opts.backoffMs ?? 1000;
  let attempt = 0;
  let limited = 0;
  for (;;) {
    await takeSlot(budgetKey, budget, sleep, clock);
    attempt++;
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, {
        method: 'GET',
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string } };
      const why =
        e?.name === 'TimeoutError' || e?.name === 'AbortError'
          ? `timed out after ${timeoutMs} ms`
          : `connection failed (${e?.cause?.code ?? (err instanceof Error ? err.message : String(err))})`;
      if (attempt >= maxAttempts) throw new ProviderError(`${provider}: ${why}`, null);
      await sleep(backoffMs * 2 ** (attempt - 1));
      continue;
    }
    if (res.status === 429) {
      limited++;
      attempt--;
      if (limited > MAX_RATE_LIMITED) {
        throw new ProviderError(`${provider} kept answering 429 (rate limited)`, 429);
      }
      const waitMs = retryAfterSeconds(res.headers.get('retry-after'), clock()) * 1000;
      pauseKey(budgetKey, clock() + waitMs, clock);
      await sleep(waitMs);
      continue;
    }
    if (res.status >= 500) {
      if (attempt >= maxAttempts) {
        throw new ProviderError(
          `${provider} answered HTTP ${res.status} ${maxAttempts} times`,
          res.status,
        );
      }
      await sleep(backoffMs * 2 ** (attempt - 1));
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      const refused = res.status === 401 || res.status === 403;
      throw new ProviderError(
        refused
          ? `${provider} refused the credentials (HTTP ${res.status})`
          : `${provider} answered HTTP ${res.status}`,
        res.status,
      );
    }
    if (text.trim() === '') return { status: res.status, body: null };
    try {
      return { status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new ProviderError(
        `${provider} answered HTTP ${res.status}, but not with JSON`,
        res.status,
      );
    }
  }
}
