/**
 * Sliding-window counter per key (client address), in memory. Used to limit failed sign-ins:
 * at most `maxAttempts` within any `windowMs`; further attempts are refused until the oldest
 * recorded one leaves the window.
 */

/** Outcome of a check: allowed, or refused with the wait in whole seconds (≥ 1). */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

/** The limiter's interface: check before the attempt, record after a failure. */
export interface SlidingWindowLimiter {
  /** Whether `key` may attempt now (`nowMs` epoch ms); does not record anything. */
  check(key: string, nowMs: number): RateDecision;
  /** Records one attempt by `key` at `nowMs` (epoch ms). */
  record(key: string, nowMs: number): void;
  /** Number of keys currently tracked (for tests and diagnostics). */
  size(): number;
}

/** Above this many tracked keys, every record sweeps out keys with no attempt left in the window. */
const SWEEP_THRESHOLD = 10_000;

/** Creates a sliding-window limiter: `maxAttempts` per `windowMs` milliseconds per key (brief item 3: 10 per 15 min). */
export function createSlidingWindowLimiter(
  maxAttempts: number,
  windowMs: number,
): SlidingWindowLimiter {
  const hits = new Map<string, number[]>();

  const live = (key: string, nowMs: number): number[] => {
    const list = hits.get(key);
    if (!list) return [];
    const cutoff = nowMs - windowMs;
    let drop = 0;
    while (drop < list.length && (list[drop] ?? 0) <= cutoff) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length === 0) hits.delete(key);
    return list;
  };

  return {
    check(key, nowMs) {
      const list = live(key, nowMs);
      if (list.length < maxAttempts) return { allowed: true };
      const oldest = list[list.length - maxAttempts] ?? nowMs;
      return {
        allowed: false,
        retryAfterS: Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000)),
      };
    },
    record(key, nowMs) {
      if (hits.size > SWEEP_THRESHOLD) for (const k of [...hits.keys()]) live(k, nowMs);
      const list = live(key, nowMs);
      list.push(nowMs);
      // Keep only what can matter for the decision.
      if (list.length > maxAttempts) list.splice(0, list.length - maxAttempts);
      hits.set(key, list);
    },
    size: () => hits.size,
  };
}
