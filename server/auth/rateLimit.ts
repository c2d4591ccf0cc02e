/**
 * Sign-in limiting: a sliding-window counter per key in a bounded LRU, used
 * per client address and per account (email), and a small semaphore capping concurrent password
 * checks (scrypt is CPU- and memory-heavy).
 *
 * The window counts attempts: an attempt is RESERVED synchronously before the password is
 * verified (so 40 parallel sign-ins cannot all pass the check before any is recorded) and
 * released again when it succeeds. Memory is bounded: at most `maxKeys` keys, the least recently
 * used evicted first, and no scan over all keys ever happens (every operation is O(maxAttempts)).
 * In-process only: behind several instances each keeps its own counters (documented in the
 * README), which still bounds an attacker to instances × limit.
 */

/** Outcome of a check: allowed, or refused with the wait in whole seconds (≥ 1). */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

/** A reservation that was granted; `release()` gives the attempt back (e.g. after a success). */
export interface Reservation {
  release(): void;
}

/** The limiter's interface. */
export interface SlidingWindowLimiter {
  /** Whether `key` may attempt now (`nowMs` epoch ms); does not record anything. */
  check(key: string, nowMs: number): RateDecision;
  /** Records one attempt by `key` at `nowMs` (epoch ms). */
  record(key: string, nowMs: number): void;
  /**
   * Check and record in one synchronous step: refused (with the wait), or allowed with a
   * reservation that counts as an attempt until released.
   */
  reserve(
    key: string,
    nowMs: number,
  ): { allowed: true; reservation: Reservation } | { allowed: false; retryAfterS: number };
  /** Forgets every attempt of `key` (a successful sign-in from that client). */
  reset(key: string): void;
  /** Number of keys currently tracked (for tests and diagnostics; ≤ maxKeys). */
  size(): number;
}

/** Default bound on tracked keys per limiter. */
export const DEFAULT_MAX_KEYS = 10_000;

/**
 * Creates a sliding-window limiter: at most `maxAttempts` per `windowMs` milliseconds per key,
 * tracking at most `maxKeys` keys (least recently used evicted; default 10 000).
 */
export function createSlidingWindowLimiter(
  maxAttempts: number,
  windowMs: number,
  maxKeys = DEFAULT_MAX_KEYS,
): SlidingWindowLimiter {
  // Map iteration order is insertion order: re-inserting on use makes the first key the LRU one.
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

  const decide = (list: number[], nowMs: number): RateDecision => {
    if (list.length < maxAttempts) return { allowed: true };
    const oldest = list[list.length - maxAttempts] ?? nowMs;
    return {
      allowed: false,
      retryAfterS: Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000)),
    };
  };

  const record = (key: string, nowMs: number): void => {
    const list = live(key, nowMs);
    list.push(nowMs);
    // Keep only what can matter for the decision.
    if (list.length > maxAttempts) list.splice(0, list.length - maxAttempts);
    hits.delete(key);
    hits.set(key, list);
    while (hits.size > maxKeys) {
      const lru = hits.keys().next().value;
      if (lru === undefined) break;
      hits.delete(lru);
    }
  };

  return {
    check: (key, nowMs) => decide(live(key, nowMs), nowMs),
    record,
    reserve(key, nowMs) {
      const decision = decide(live(key, nowMs), nowMs);
      if (!decision.allowed) return decision;
      record(key, nowMs);
      let released = false;
      return {
        allowed: true,
        reservation: {
          release() {
            if (released) return;
            released = true;
            const list = hits.get(key);
            const at = list?.lastIndexOf(nowMs) ?? -1;
            if (list && at >= 0) {
              list.splice(at, 1);
              if (list.length === 0) hits.delete(key);
            }
          },
        },
      };
    },
    reset: (key) => {
      hits.delete(key);
    },
    size: () => hits.size,
  };
}

/** A counting semaphore with a bounded wait. */
export interface Semaphore {
  /**
   * Resolves with a release function once a slot is free, or with null when `waitMs` passed or
   * `maxQueue` callers already wait (the caller then answers 429, never 5xx).
   */
  acquire(waitMs: number): Promise<(() => void) | null>;
  /** Slots in use now. */
  active(): number;
}

/** Creates a semaphore of `slots` concurrent holders with at most `maxQueue` waiters. */
export function createSemaphore(slots: number, maxQueue = 16): Semaphore {
  let active = 0;
  const queue: Array<(release: (() => void) | null) => void> = [];

  const release = () => {
    const next = queue.shift();
    if (next) next(makeRelease());
    else active--;
  };
  const makeRelease = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
    };
  };

  return {
    acquire(waitMs) {
      if (active < slots) {
        active++;
        return Promise.resolve(makeRelease());
      }
      if (queue.length >= maxQueue) return Promise.resolve(null);
      return new Promise((resolve) => {
        const entry = (r: (() => void) | null) => {
          clearTimeout(timer);
          resolve(r);
        };
        const timer = setTimeout(() => {
          const at = queue.indexOf(entry);
          if (at >= 0) queue.splice(at, 1);
          resolve(null);
        }, waitMs);
        queue.push(entry);
      });
    },
    active: () => active,
  };
}
