/**
 * The forum worker: runs the jobs that every access
 * change writes into `forum_outbox` (server/outbox/enqueue.ts) against Discourse.
 *
 * Guarantees, also with several server instances over one PostgreSQL database:
 * - **Per email, in id order.** A job is claimed only when no earlier job of its email is still
 *   pending, so a later job of an email never runs before an earlier pending one. Jobs of
 *   different emails run independently. (Access changes of one email are serialised by their
 *   member row lock and write their job after it, so id order is commit order.)
 * - **One runner per job.** The claim is a short transaction that picks the job with
 *   `FOR UPDATE SKIP LOCKED` and leases it (`locked_until`, `claim_token`); the Discourse calls run
 *   outside any transaction. A runner that dies leaves its lease to run out and the job is claimed
 *   again (at-least-once; grant and revoke are idempotent on the forum). A runner whose lease ran
 *   out cannot overwrite the result of the runner that took over (the update checks the token).
 * - **Retries.** A network error, a time-out, a 408, a 429 or a 5xx is retried: the next attempt
 *   waits retryBaseMs × 2^(attempt−1), ±25 % jitter, capped at retryMaxMs; a 429 waits exactly
 *   its `extras.wait_seconds` (and pauses this worker's claims for as long, the limit being per
 *   API key) and does not count towards maxAttempts (an endless stream of them still fails the
 *   job after 4 × maxAttempts attempts in all). Any other 4xx is permanent: the job fails at
 *   once. After maxAttempts counted attempts the job is `failed`.
 * - **A failed job does not block its email.** Only pending jobs hold later ones back: the later
 *   jobs of that email run (they carry the newer access state, which is what the forum should
 *   show); the failure stays visible in /status and /maintenance/diag and as a warn log row.
 * - **Not configured.** Without Discourse settings jobs complete at once as
 *   `{skipped:true, reason:'Discourse not configured'}`, so nothing piles up.
 *
 * Each finished attempt is recorded in one transaction with its warn row ('discourse.error') when
 * it failed. The worker wakes on `NOTIFY forum_outbox` (written at commit by enqueueForumJob) and
 * polls every pollMs as a fallback; tests drive it directly with runDue().
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AppDeps } from '../context';
import type { Db } from '../db/types';
import { insertLog } from '../logRows';
import {
  DISCOURSE_NOT_CONFIGURED,
  DiscourseClient,
  type DiscourseOutcome,
} from '../discourse/client';
import { FORUM_OUTBOX_CHANNEL } from './enqueue';

/** Tuning of a ForumWorker; every field has a default (see DEFAULTS). */
export interface ForumWorkerOptions {
  /** Counted attempts before a job is failed (OUTBOX_MAX_ATTEMPTS, default 12). */
  maxAttempts?: number;
  /** Fallback poll interval in ms (OUTBOX_POLL_MS, default 5000). */
  pollMs?: number;
  /** First retry delay in ms (default 5000); doubles per attempt. */
  retryBaseMs?: number;
  /** Longest retry delay in ms (default 1 800 000 = 30 min). */
  retryMaxMs?: number;
  /** How long a claim holds a job, in ms (default max(60 000, 8 × the Discourse time-out)). */
  leaseMs?: number;
  /** Jitter source in [0, 1) (tests pin it). */
  random?: () => number;
  /** fetch used for Discourse (tests may inject one). */
  fetchImpl?: typeof fetch;
}

/** Defaults of ForumWorkerOptions. */
export const OUTBOX_DEFAULTS = {
  maxAttempts: 12,
  pollMs: 5000,
  retryBaseMs: 5000,
  retryMaxMs: 30 * 60 * 1000,
  minLeaseMs: 60_000,
} as const;

/** A forum_outbox row as the worker and the status figures read it (instants as Date). */
export interface ForumJobRow {
  id: number;
  email: string;
  action: 'grant' | 'revoke';
  reason: string;
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  rate_limited: number;
  created_at: Date;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  outcome: DiscourseOutcome | null;
  finished_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  last_error_at: Date | null;
}

/** What one attempt decided: the job's new state and, for a retry, when it runs next. */
export interface AttemptResult {
  id: number;
  email: string;
  action: 'grant' | 'revoke';
  state: 'done' | 'pending' | 'failed';
  outcome: DiscourseOutcome;
  /** Set when state is 'pending' (a retry). */
  next_attempt_at: Date | null;
  /** False when the job had been taken over by another runner meanwhile (nothing recorded). */
  recorded: boolean;
}

/**
 * In-process signal of finished attempts, for awaitForumJob (server/outbox/answer.ts): emits
 * 'attempt' with (db, jobId). Other instances are seen by polling the row.
 */
export const outboxEvents = new EventEmitter();
outboxEvents.setMaxListeners(0);

const workersByDb = new WeakMap<Db, Set<ForumWorker>>();

/** Asks every running worker of this process on `db` to look for due jobs now. */
export function kickForumWorkers(db: Db): void {
  for (const w of workersByDb.get(db) ?? []) w.kick();
}

/**
 * Is `outcome` worth another attempt? → 'done' | 'retry' | 'fail'. Network errors and time-outs
 * (status null), 408, 429 and 5xx are transient; other 4xx answers are permanent.
 */
export function classifyOutcome(outcome: DiscourseOutcome): 'done' | 'retry' | 'fail' {
  if (!('ok' in outcome) || outcome.ok) return 'done';
  const s = outcome.status;
  if (s === null || s === 408 || s === 429 || s >= 500) return 'retry';
  return 'fail';
}

/**
 * The delay before counted attempt `attempt` + 1 (attempt ≥ 1) in ms: retryBaseMs × 2^(attempt−1)
 * scaled by a jitter factor in [0.75, 1.25), capped at retryMaxMs.
 */
export function retryDelayMs(
  attempt: number,
  opts: { retryBaseMs: number; retryMaxMs: number; random: () => number },
): number {
  const exp = opts.retryBaseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  const jittered = Math.min(exp, opts.retryMaxMs) * (0.75 + 0.5 * opts.random());
  return Math.round(Math.min(jittered, opts.retryMaxMs));
}

/** Runs forum jobs for `deps.db` (see module doc). Create, start(), and stop() at shutdown. */
export class ForumWorker {
  readonly maxAttempts: number;
  readonly pollMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly leaseMs: number;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch | undefined;
  private running = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** A 429 pauses claims until this instant (ms since epoch, deps clock). */
  private pausedUntil = 0;

  constructor(
    private readonly deps: AppDeps,
    opts: ForumWorkerOptions = {},
  ) {
    const o = deps.config.outbox ?? {};
    this.maxAttempts = opts.maxAttempts ?? o.maxAttempts ?? OUTBOX_DEFAULTS.maxAttempts;
    this.pollMs = opts.pollMs ?? o.pollMs ?? OUTBOX_DEFAULTS.pollMs;
    this.retryBaseMs = opts.retryBaseMs ?? OUTBOX_DEFAULTS.retryBaseMs;
    this.retryMaxMs = opts.retryMaxMs ?? OUTBOX_DEFAULTS.retryMaxMs;
    this.leaseMs =
      opts.leaseMs ??
      Math.max(OUTBOX_DEFAULTS.minLeaseMs, 8 * (deps.config.discourse?.timeoutMs ?? 10_000));
    this.random = opts.random ?? Math.random;
    this.fetchImpl = opts.fetchImpl;
  }

  /** Subscribes to NOTIFY forum_outbox, runs what is due and polls every pollMs until stop(). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    let set = workersByDb.get(this.deps.db);
    if (!set) {
      set = new Set();
      workersByDb.set(this.deps.db, set);
    }
    set.add(this);
    try {
      this.unlisten = await this.deps.db.listen(FORUM_OUTBOX_CHANNEL, () => this.kick());
    } catch (err) {
      this.deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'forum outbox: LISTEN failed; polling only',
      );
    }
    this.kick();
  }

  /** Stops polling and listening and waits for the attempt in progress. Idempotent. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    workersByDb.get(this.deps.db)?.delete(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await this.draining;
    if (unlisten) await unlisten().catch(() => undefined);
  }

  /** Looks for due jobs soon (coalesced with a run in progress). No-op when not started. */
  kick(): void {
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.draining = (async () => {
      do {
        this.again = false;
        try {
          await this.runDue();
        } catch (err) {
          if (this.running) {
            this.deps.log.warn(
              { err: err instanceof Error ? err.message : String(err) },
              'forum outbox: run failed; retrying at the next poll',
            );
          }
        }
      } while (this.again && this.running);
    })().finally(() => {
      this.draining = null;
      if (this.running) this.timer = setTimeout(() => this.kick(), this.pollMs);
    });
  }

  /**
   * Claims and runs due jobs one after the other until none is due (or a 429 pauses this worker,
   * or it is stopped) → the attempts made, in order. Tests call it directly.
   */
  async runDue(max = Number.POSITIVE_INFINITY): Promise<AttemptResult[]> {
    const done: AttemptResult[] = [];
    while (done.length < max) {
      if (this.deps.now().getTime() < this.pausedUntil) break;
      const result = await this.runOne();
      if (!result) break;
      done.push(result);
    }
    return done;
  }

  /** Claims the next due job and runs one attempt → its result, or null when none is due. */
  async runOne(): Promise<AttemptResult | null> {
    const job = await this.claim();
    if (!job) return null;
    return this.attempt(job);
  }

  /**
   * Claims the oldest due pending job whose email has no earlier pending job and no live lease →
   * the claimed row (attempts already counted) and its claim token, or null.
   */
  async claim(): Promise<(ForumJobRow & { claim_token: string }) | null> {
    const now = this.deps.now();
    const token = randomUUID();
    const r = await this.deps.db.transaction((tx) =>
      tx.query<ForumJobRow & { claim_token: string }>(
        `UPDATE forum_outbox SET locked_until = $2, claim_token = $3, attempts = attempts + 1,
                last_attempt_at = $1
          WHERE id = (
            SELECT o.id FROM forum_outbox o
             WHERE o.state = 'pending' AND o.next_attempt_at <= $1
               AND (o.locked_until IS NULL OR o.locked_until <= $1)
               AND NOT EXISTS (SELECT 1 FROM forum_outbox p
                                WHERE p.email = o.email AND p.state = 'pending' AND p.id < o.id)
             ORDER BY o.next_attempt_at, o.id
             LIMIT 1
             FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [now, new Date(now.getTime() + this.leaseMs), token],
      ),
    );
    const row = r.rows[0];
    return row ? { ...row, id: Number(row.id) } : null;
  }

  /** Runs one attempt of a claimed job against Discourse and records the result. */
  async attempt(job: ForumJobRow & { claim_token: string }): Promise<AttemptResult> {
    const cfg = this.deps.config.discourse;
    let outcome: DiscourseOutcome;
    if (cfg === null) outcome = DISCOURSE_NOT_CONFIGURED;
    else {
      const client = new DiscourseClient(cfg, this.fetchImpl);
      try {
        outcome =
          job.action === 'grant' ? await client.grant(job.email) : await client.revoke(job.email);
      } catch (err) {
        outcome = {
          ok: false,
          status: null,
          error: err instanceof Error ? err.message : String(err),
        };
      }
    }
    return this.record(job, outcome);
  }

  private async record(
    job: ForumJobRow & { claim_token: string },
    outcome: DiscourseOutcome,
  ): Promise<AttemptResult> {
    const now = this.deps.now();
    const verdict = classifyOutcome(outcome);
    const failure = 'ok' in outcome && outcome.ok === false ? outcome : null;
    const rateLimited = failure?.status === 429;
    // Counted attempts so far, this one included (a 429 does not count).
    const counted = job.attempts - job.rate_limited - (rateLimited ? 1 : 0);
    let state: AttemptResult['state'] = 'done';
    let next: Date | null = null;
    if (verdict === 'fail') state = 'failed';
    else if (verdict === 'retry') {
      // A 429 does not count, but an endless stream of them still ends (4 × maxAttempts in all).
      if (counted >= this.maxAttempts || job.attempts >= 4 * this.maxAttempts) state = 'failed';
      else {
        state = 'pending';
        const waitS = failure?.wait_seconds;
        const delay =
          rateLimited && typeof waitS === 'number'
            ? waitS * 1000
            : retryDelayMs(Math.max(counted, 1), {
                retryBaseMs: this.retryBaseMs,
                retryMaxMs: this.retryMaxMs,
                random: this.random,
              });
        next = new Date(now.getTime() + delay);
        if (rateLimited) this.pausedUntil = Math.max(this.pausedUntil, next.getTime());
      }
    }
    const status = failure ? failure.status : 'status' in outcome ? outcome.status : null;
    const recorded = await this.deps.db.transaction(async (tx) => {
      const r = await tx.query(
        `UPDATE forum_outbox
            SET state = $3, outcome = $4, last_status = $5,
                last_error = COALESCE($6, last_error),
                last_error_at = CASE WHEN $6::text IS NULL THEN last_error_at ELSE $7 END,
                next_attempt_at = COALESCE($8, next_attempt_at),
                finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE $7 END,
                rate_limited = rate_limited + $9,
                locked_until = NULL, claim_token = NULL
          WHERE id = $1 AND claim_token = $2`,
        [
          job.id,
          job.claim_token,
          state,
          JSON.stringify(outcome),
          status,
          failure ? failure.error : null,
          now,
          next,
          rateLimited ? 1 : 0,
        ],
      );
      if ((r.affectedRows ?? 0) === 0) return false;
      if (failure) {
        await insertLog(tx, now, 'warn', 'discourse.error', {
          email: job.email,
          action: job.action,
          reason: job.reason,
          job_id: job.id,
          attempt: job.attempts,
          status: failure.status,
          error: failure.error,
          ...(failure.payload ? { payload: failure.payload } : {}),
          state,
          next_attempt_at: next ? next.toISOString() : null,
        });
      }
      return true;
    });
    outboxEvents.emit('attempt', this.deps.db, job.id);
    return {
      id: job.id,
      email: job.email,
      action: job.action,
      state,
      outcome,
      next_attempt_at: next,
      recorded,
    };
  }
}

/** Starts a ForumWorker on `deps` → the running worker (stop() it at shutdown). */
export async function startForumWorker(
  deps: AppDeps,
  opts: ForumWorkerOptions = {},
): Promise<ForumWorker> {
  const worker = new ForumWorker(deps, opts);
  await worker.start();
  return worker;
}
