/**
 * The webhook inbox (docs/api.md "Webhook deliveries"): every delivery that reaches a provider
 * endpoint is kept in `webhook_deliveries` (migration 016), whatever its outcome.
 *
 * - An accepted delivery (applied, duplicate, ignored, ignored_test) is recorded by its handler in
 *   the same transaction as its change, so the row exists exactly when the change committed.
 * - An authentic delivery the server cannot act on (invalid: verified, but malformed or missing
 *   fields), an unverified one (refused_signature) and one whose transaction failed (failed) are
 *   recorded by `receiveDelivery` on their own after the answer is decided; the change, if any,
 *   was rolled back.
 *
 * An authentic delivery is always answered 2xx (applied, duplicate, ignored, ignored_test and
 * invalid are 200): a provider retries, and ClickBank eventually disables, an endpoint that keeps
 * refusing, and retrying a malformed delivery never makes it valid. Only an unverified delivery
 * (401, or 400/413 before anything could be verified) and a failed transaction (500, which the
 * provider's retry may cure) are refused.
 *
 * What is kept: the time, provider, event name, outcome, the HTTP status answered and the error or
 * reason, the customer email and provider subscription id when known, the body of a verified
 * delivery (LemonSqueezy: the raw JSON; ClickBank: the decrypted notification) and otherwise only
 * its size in bytes, and the request headers minus anything that proves or carries a secret.
 */
import type { Context } from 'hono';
import type { AppDeps } from '../context';
import type { Db, Queryable } from '../db/types';
import { ApiError } from '../errors';
import type { Provider } from '../vocabulary';
import { claimDedup, readRawBody, WEBHOOK_MAX_BODY_BYTES, type WebhookAnswer } from './common';

/** What became of a delivery. */
export const DELIVERY_OUTCOMES = [
  'applied',
  'duplicate',
  'refused_signature',
  'invalid',
  'ignored_test',
  'ignored',
  'failed',
] as const;
/** One of DELIVERY_OUTCOMES. */
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * What a handler learns about a delivery as it goes; the inbox row is made from it. A handler
 * fills it in step by step, so a delivery that fails half-way is still recorded with what was
 * known (`body` is set only once the delivery is verified).
 */
export interface DeliveryFacts {
  provider: Provider;
  /** Received at (UTC). */
  at: Date;
  /** Bytes received. */
  bodySize: number;
  /** Request headers kept (safeHeaders). */
  headers: Record<string, string>;
  /** The verified body as text (LemonSqueezy raw JSON, ClickBank decrypted notification); null until verified. */
  body: string | null;
  event: string | null;
  email: string | null;
  subscriptionId: string | null;
  dedupKey: string | null;
}

/** A delivery's recorded outcome: its answer status, error or reason, and what it changed. */
export interface DeliveryResult {
  outcome: DeliveryOutcome;
  httpStatus: number;
  error: string | null;
  /** Short words describing what changed, e.g. ['subscription.created', 'access.grant']. */
  effects: string[];
}

/** Header names (lower case) that are never stored: proofs, secrets and credentials. */
const SECRET_HEADER = /signature|secret|authorization|cookie|token|api[-_]?key|password/i;
/** At most this many headers are kept, each value cut to MAX_HEADER_CHARS. */
const MAX_HEADERS = 40;
const MAX_HEADER_CHARS = 500;

/** The request headers worth keeping: lower-cased names, no signature or secret, values capped. */
export function safeHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  headers.forEach((value, name) => {
    const key = name.toLowerCase();
    if (SECRET_HEADER.test(key) || n >= MAX_HEADERS) return;
    out[key] = storableLine(value).slice(0, MAX_HEADER_CHARS);
    n++;
  });
  return out;
}

/** `text` without NUL and with unpaired surrogates replaced, so PostgreSQL text and jsonb hold it. */
export function storableLine(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Longest stored error or reason (characters). */
const MAX_ERROR_CHARS = 1000;

/** Inserts the inbox row of a delivery through `q` (its own transaction, or the database) → its id. */
export async function recordDelivery(
  q: Queryable,
  facts: DeliveryFacts,
  result: DeliveryResult,
): Promise<number> {
  const r = await q.query<{ id: number }>(
    `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, error,
                                     email, subscription_id, dedup_key, effects, body, body_size,
                                     headers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      facts.at,
      facts.provider,
      facts.event === null ? null : storableLine(facts.event).slice(0, 100),
      result.outcome,
      result.httpStatus,
      result.error === null ? null : storableLine(result.error).slice(0, MAX_ERROR_CHARS),
      facts.email?.toLowerCase().slice(0, 320) ?? null,
      facts.subscriptionId?.slice(0, 64) ?? null,
      facts.dedupKey,
      JSON.stringify(result.effects),
      facts.body === null ? null : storableLine(facts.body).slice(0, WEBHOOK_MAX_BODY_BYTES),
      facts.bodySize,
      JSON.stringify(facts.headers),
    ],
  );
  return Number(r.rows[0]?.id);
}

/**
 * True when a delivery with dedup key `key` was applied before (itself or by a replay), beyond what webhook_dedup still
 * remembers (its rows are pruned after 30 days, the inbox keeps deliveries longer).
 */
export async function appliedBefore(tx: Queryable, key: string): Promise<boolean> {
  const r = await tx.query(
    `SELECT 1 FROM webhook_deliveries
      WHERE dedup_key = $1 AND (outcome = 'applied' OR replay_outcome = 'applied') LIMIT 1`,
    [key],
  );
  return r.rows.length > 0;
}

/** Records a delivery's result inside its transaction (insert for a delivery, update for a replay). */
export type InboxRecorder = (tx: Queryable, result: DeliveryResult) => Promise<void>;

/** Fresh facts of a delivery to `provider` of `bodySize` bytes received now, nothing known yet. */
export function newDeliveryFacts(
  deps: Pick<AppDeps, 'now'>,
  provider: Provider,
  bodySize: number,
  headers: Record<string, string> = {},
): DeliveryFacts {
  return {
    provider,
    at: deps.now(),
    bodySize,
    headers,
    body: null,
    event: null,
    email: null,
    subscriptionId: null,
    dedupKey: null,
  };
}

/**
 * Claims dedup key `key` of `provider`'s delivery of `event` in `tx`. When the same change was
 * applied before (its dedup row exists, or the inbox has it applied, which outlives the dedup
 * row), records the delivery as duplicate through `record` and returns its answer and result;
 * otherwise null, and the caller applies it in `tx`.
 */
export async function claimOrDuplicate(
  tx: Queryable,
  provider: Provider,
  event: string,
  key: string,
  now: Date,
  record: InboxRecorder,
): Promise<{ answer: WebhookAnswer; result: DeliveryResult } | null> {
  const first = await claimDedup(tx, key, provider, now);
  if (first && !(await appliedBefore(tx, key))) return null;
  const result: DeliveryResult = {
    outcome: 'duplicate',
    httpStatus: 200,
    error: null,
    effects: [],
  };
  await record(tx, result);
  return { answer: { ok: true, provider, event, duplicate: true, effects: [] }, result };
}

/**
 * Reads and handles one delivery to `provider`'s endpoint and keeps it in the inbox, whatever
 * becomes of it. `handle` gets the raw bytes and the facts to fill in; it sets `facts.body` once
 * the delivery is verified, and records accepted deliveries itself, in its transaction. A thrown
 * ApiError (4xx):
 * - after verification → recorded as invalid with its message as the error and answered 200
 *   `{ok, provider, event, duplicate: false, effects: [], invalid}`; the handler's transaction, if
 *   it had begun, rolled back. Should that row fail to be written, the error is rethrown (500), so
 *   the provider retries rather than the delivery leaving no trace.
 * - before verification → recorded as refused_signature with its size only, and rethrown (401,
 *   or 400/413 for a body that could not even be checked).
 * Anything else is recorded as failed (500) and rethrown. A failure to record a refusal never
 * hides the refusal's own answer.
 */
export async function receiveDelivery(
  c: Context,
  deps: AppDeps,
  provider: Provider,
  handle: (raw: Buffer, facts: DeliveryFacts) => Promise<WebhookAnswer>,
): Promise<WebhookAnswer> {
  const declared = Number(c.req.header('content-length') ?? '0');
  const facts = newDeliveryFacts(
    deps,
    provider,
    Number.isFinite(declared) && declared > 0 ? Math.floor(declared) : 0,
    safeHeaders(c.req.raw.headers),
  );
  try {
    const raw = await readRawBody(c);
    facts.bodySize = raw.byteLength;
    return await handle(raw, facts);
  } catch (err) {
    const verified = facts.body !== null;
    if (err instanceof ApiError && err.status < 500 && verified) {
      await recordDelivery(deps.db, facts, {
        outcome: 'invalid',
        httpStatus: 200,
        error: err.message,
        effects: [],
      });
      return {
        ok: true,
        provider,
        event: facts.event ?? 'unknown',
        duplicate: false,
        effects: [],
        invalid: err.message,
      };
    }
    const result: DeliveryResult =
      err instanceof ApiError
        ? { outcome: 'refused_signature', httpStatus: err.status, error: err.message, effects: [] }
        : {
            outcome: 'failed',
            httpStatus: 500,
            error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
            effects: [],
          };
    // A refused delivery keeps only its size: nothing it says has been proven.
    if (result.outcome === 'refused_signature') facts.body = null;
    try {
      await recordDelivery(deps.db, facts, result);
    } catch (recordErr) {
      deps.log.warn(
        { provider, err: recordErr instanceof Error ? recordErr.message : String(recordErr) },
        'could not record a webhook delivery in the inbox',
      );
    }
    throw err;
  }
}

/** What pruneWebhookDeliveries deleted. */
export interface InboxPruneResult {
  /** Rows older than the retention. */
  expired: number;
  /** Rows beyond the row cap (oldest first). */
  overCap: number;
}

/**
 * Inbox retention: deletes rows received more than `retentionDays` before `now`, then every row
 * beyond the newest `maxRows` (by received_at, then id), both by the (received_at, id) index; then
 * vacuums the table (outside any transaction).
 */
export async function pruneWebhookDeliveries(
  db: Db,
  now: Date,
  retentionDays: number,
  maxRows: number,
): Promise<InboxPruneResult> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const expired = await db.query('DELETE FROM webhook_deliveries WHERE received_at < $1', [
    cutoff.toISOString(),
  ]);
  const capped = await db.query(
    `DELETE FROM webhook_deliveries WHERE (received_at, id) <= (
       SELECT received_at, id FROM webhook_deliveries
        ORDER BY received_at DESC, id DESC OFFSET $1 LIMIT 1)`,
    [maxRows],
  );
  // PGlite runs no autovacuum: without this the visibility map stays unset, and the list's
  // index-only counts visit the table for every row they count.
  await db.exec('VACUUM (ANALYZE) webhook_deliveries');
  return { expired: expired.affectedRows ?? 0, overCap: capped.affectedRows ?? 0 };
}

/** How often the server prunes the inbox (ms). */
export const INBOX_PRUNE_INTERVAL_MS = 15 * 60_000;

/**
 * Runs pruneWebhookDeliveries now and every INBOX_PRUNE_INTERVAL_MS with WEBHOOK_RETENTION_DAYS
 * (default 90) and WEBHOOK_MAX_ROWS (default 1 000 000) → stop(). Failures are logged, never thrown.
 */
export function startWebhookInboxRetention(deps: AppDeps): {
  stop: () => void;
  ready: Promise<void>;
} {
  const run = async () => {
    try {
      const r = await pruneWebhookDeliveries(
        deps.db,
        deps.now(),
        deps.config.webhookRetentionDays ?? 90,
        deps.config.webhookMaxRows ?? 1_000_000,
      );
      if (r.expired + r.overCap > 0) deps.log.info(r, 'pruned the webhook inbox');
    } catch (err) {
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not prune the webhook inbox',
      );
    }
  };
  const ready = run();
  const timer = setInterval(() => void run(), INBOX_PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), ready };
}
