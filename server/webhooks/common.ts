/**
 * What both provider webhooks share: reading the raw body
 * under a size cap, the dedup table, the rate-limited warning for refused deliveries, and the
 * writes every delivery makes inside its ONE transaction — customer upsert, subscription events,
 * forum access (members + forum outbox job + live event), ISR rows and live events.
 *
 * Access rules (the same (mg_status, expires_at) outcomes as the console's actions in
 * server/access/actions.ts):
 * | target     | members row after            | forum job        | live event      |
 * |------------|------------------------------|------------------|-----------------|
 * | grant      | active, expires_at null      | grant (if it was cancelled or absent) | access.granted |
 * | revoke_at  | active, expires_at = at (future; a past `at` = revoke_now) | grant only if it was cancelled or absent; the revoke is the expiration scheduler's, at `at` | access.granted then |
 * | revoke_now | cancelled, expires_at now (kept when already cancelled) | revoke (if it was active) | access.revoked |
 * A revoke is skipped while another subscription of the same customer still grants access.
 */
import type { Context } from 'hono';
import type { Queryable } from '../db/types';
import type { AppDeps } from '../context';
import { ApiError, badRequest } from '../errors';
import { emitLiveEvent, type LiveEventType } from '../live/emit';
import { recordAccessChange } from '../live/access';
import { activeAccessCondition, type MgStatus, type Provider } from '../vocabulary';

/** Largest webhook body accepted, in bytes (provider payloads are a few KiB); larger → 413. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
/** Dedup rows older than this many days are pruned (providers stop redelivering after a few days). */
export const WEBHOOK_DEDUP_RETENTION_DAYS = 30;
/** At most this many expired dedup rows are deleted per delivery (keeps each delivery cheap). */
const DEDUP_PRUNE_BATCH = 50;

/**
 * Reads the request body as raw bytes, refusing more than WEBHOOK_MAX_BODY_BYTES with 413
 * `{error:'payload_too_large'}` (by Content-Length before reading, and by the bytes read).
 */
export async function readRawBody(c: Context): Promise<Buffer> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > WEBHOOK_MAX_BODY_BYTES) throw tooLarge();
  const reader = c.req.raw.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > WEBHOOK_MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `Webhook body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes`,
  );
}

/** Deepest nesting of objects and arrays a delivery may have (provider payloads nest a few levels). */
export const WEBHOOK_MAX_DEPTH = 64;

/** An unpaired UTF-16 surrogate (JSON's "\ud800" parses to one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without NUL characters and with unpaired surrogates replaced by U+FFFD. */
function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * A parsed, authenticated delivery made storable: every string and key without NUL (which
 * PostgreSQL holds in neither text nor jsonb) and with unpaired surrogates (which jsonb refuses)
 * replaced by U+FFFD. Provider text is data, not a reason to refuse an authentic delivery, which
 * the provider would otherwise redeliver forever. Keys are copied as data, so a '__proto__' key
 * stays an ordinary key. Throws 400 when the body nests deeper than WEBHOOK_MAX_DEPTH.
 */
export function storableJson(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= WEBHOOK_MAX_DEPTH) {
    throw badRequest(`The body nests deeper than ${WEBHOOK_MAX_DEPTH} levels`);
  }
  if (Array.isArray(value)) return value.map((v) => storableJson(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v, depth + 1)]),
  );
}

/** 401 for a delivery whose signature (or encryption) does not prove it came from the provider. */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message);
}

/**
 * One warn line in the process logger per provider per `windowMs` for refused (401) deliveries,
 * with the number suppressed since the last line — a flood of forgeries cannot flood the logs.
 * Never logs the body or any secret.
 */
export function refusalWarner(
  deps: AppDeps,
  provider: Provider,
  windowMs = 10_000,
): (reason: string) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (reason) => {
    const now = Date.now();
    if (now - lastAt < windowMs) {
      suppressed++;
      return;
    }
    deps.log.warn({ provider, reason, suppressed }, `refused a ${provider} webhook delivery`);
    lastAt = now;
    suppressed = 0;
  };
}

/**
 * Claims dedup key `id` for `provider` in the delivery's transaction → true when this is the
 * first time (the row was inserted), false when it was already processed. On PostgreSQL a
 * concurrent delivery with the same key waits for the first to commit, then sees the row. Also
 * deletes a few rows older than WEBHOOK_DEDUP_RETENTION_DAYS that no concurrent delivery is
 * deleting.
 */
export async function claimDedup(
  tx: Queryable,
  id: string,
  provider: Provider,
  now: Date,
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO webhook_dedup (id, provider, received_at) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, provider, now],
  );
  if (inserted.rows.length === 0) return false;
  const cutoff = new Date(now.getTime() - WEBHOOK_DEDUP_RETENTION_DAYS * 86_400_000);
  // SKIP LOCKED: deliveries arriving together each take old rows no other one is deleting;
  // without it, they all chose the same oldest rows and waited for each other's commit.
  await tx.query(
    `DELETE FROM webhook_dedup WHERE id IN (
       SELECT id FROM webhook_dedup WHERE received_at < $1 LIMIT ${DEDUP_PRUNE_BATCH}
          FOR UPDATE SKIP LOCKED)`,
    [cutoff],
  );
  return true;
}

/**
 * Serialises the deliveries about one customer across every server instance: a transaction-level
 * advisory lock on the lower-cased `email`, released at commit or rollback. Two deliveries for one
 * customer (a subscription_created and its invoice, say) then never race on the first insert of the
 * same subscription or member row; deliveries for different customers still run in parallel.
 */
export async function lockCustomer(tx: Queryable, email: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook:' || $1, 0))", [
    email.toLowerCase(),
  ]);
}

/** Inserts or updates the customer with `email` (lower-cased) → its id; a non-empty `name` replaces the stored one. */
export async function upsertCustomer(
  tx: Queryable,
  email: string,
  name: string | null,
  now: Date,
): Promise<number> {
  const r = await tx.query<{ id: number }>(
    `INSERT INTO customers (email, name, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO UPDATE SET name = COALESCE(NULLIF(EXCLUDED.name, ''), customers.name)
     RETURNING id`,
    [email.toLowerCase(), name, now],
  );
  return Number(r.rows[0]?.id);
}

/**
 * Makes sure subscription `subscriptionId` has its one 'new' event → true when it was inserted
 * now (the caller then emits subscription.new). When it exists and `authoritative` (the sale
 * itself arrived, possibly after a later event), its time and amount are corrected to `at` and
 * `amountCents`; otherwise only a missing amount is filled in.
 */
export async function ensureNewEvent(
  tx: Queryable,
  subscriptionId: number,
  at: Date,
  amountCents: number | null,
  currency: string | null,
  authoritative: boolean,
): Promise<boolean> {
  const found = await tx.query<{
    id: number;
    occurred_at: Date;
    amount_cents: number | null;
    currency: string | null;
  }>(
    `SELECT id, occurred_at, amount_cents, currency FROM subscription_events
      WHERE subscription_id = $1 AND type = 'new' ORDER BY id LIMIT 1`,
    [subscriptionId],
  );
  const row = found.rows[0];
  if (!row) {
    await tx.query(
      `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
       VALUES ($1, 'new', $2, $3, $4)`,
      [subscriptionId, at, amountCents, amountCents == null ? null : currency],
    );
    return true;
  }
  if (authoritative) {
    // Unchanged (a redelivery, a reconciliation of a known subscription): no write, so the
    // metrics roll-up trigger does not run for nothing.
    const newCurrency = amountCents == null ? null : currency;
    if (
      new Date(row.occurred_at).getTime() === at.getTime() &&
      (amountCents == null || amountCents === row.amount_cents) &&
      (newCurrency == null || newCurrency === row.currency)
    ) {
      return false;
    }
    await tx.query(
      `UPDATE subscription_events SET occurred_at = $2,
              amount_cents = COALESCE($3, amount_cents), currency = COALESCE($4, currency)
        WHERE id = $1`,
      [row.id, at, amountCents, amountCents == null ? null : currency],
    );
  } else if (row.amount_cents == null && amountCents != null) {
    await tx.query(
      'UPDATE subscription_events SET amount_cents = $2, currency = $3 WHERE id = $1',
      [row.id, amountCents, currency],
    );
  }
  return false;
}

/** Appends a lifecycle event (renewal, cancellation, expiration, refund) to subscription `subscriptionId`. */
export async function addSubscriptionEvent(
  tx: Queryable,
  subscriptionId: number,
  type: 'renewal' | 'cancellation' | 'expiration' | 'refund',
  at: Date,
  amountCents: number | null,
  currency: string | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO subscription_events (subscription_id, type, occurred_at, amount_cents, currency)
     VALUES ($1, $2, $3, $4, $5)`,
    [subscriptionId, type, at, amountCents, amountCents == null ? null : currency],
  );
}

/** What a provider event means for the customer's forum access (see the module's table). */
export type AccessTarget =
  { kind: 'grant' } | { kind: 'revoke_at'; at: Date } | { kind: 'revoke_now' } | { kind: 'none' };

/** The member row after applyAccess, and whether the forum was told (a job was queued). */
export interface AccessOutcome {
  mg_status: MgStatus;
  expires_at: Date | null;
  forum: 'grant' | 'revoke' | null;
}

/**
 * Applies `target` to the member of `customerId`, tied to `subscriptionId`, in the delivery's
 * transaction: updates (or creates) the members row, and on a real change of forum access queues
 * the forum job (enqueueForumJob) and emits access.granted / access.revoked. `reason` names the
 * cause in the job ('webhook.<provider>.<event>'). → the outcome, or null for 'none'.
 */
export async function applyAccess(
  tx: Queryable,
  args: {
    customerId: number;
    subscriptionId: number;
    email: string;
    provider: Provider;
    target: AccessTarget;
    reason: string;
    now: Date;
    amountCents: number | null;
    currency: string | null;
  },
): Promise<AccessOutcome | null> {
  const { customerId, subscriptionId, email, provider, now } = args;
  let target = args.target;
  if (target.kind === 'none') return null;
  if (target.kind === 'revoke_at' && target.at.getTime() <= now.getTime()) {
    target = { kind: 'revoke_now' };
  }
  const found = await tx.query<{ id: number; mg_status: MgStatus; expires_at: Date | null }>(
    'SELECT id, mg_status, expires_at FROM members WHERE customer_id = $1 FOR UPDATE',
    [customerId],
  );
  const member = found.rows[0] ?? null;

  if (target.kind !== 'grant') {
    // Another subscription of this customer still grants access: keep access as it is.
    const other = await tx.query(
      `SELECT 1 FROM subscriptions s WHERE s.customer_id = $1 AND s.id <> $2
          AND ${activeAccessCondition('s', '$3')} LIMIT 1`,
      [customerId, subscriptionId, now],
    );
    if (other.rows.length > 0) return null;
  }

  let mgStatus: MgStatus;
  let expiresAt: Date | null;
  if (target.kind === 'grant') {
    mgStatus = 'active';
    expiresAt = null;
  } else if (target.kind === 'revoke_at') {
    mgStatus = 'active';
    expiresAt = target.at;
    if (member?.mg_status === 'cancelled') {
      // Already revoked (e.g. a revoke-now came first): a scheduled end cannot re-open access.
      mgStatus = 'cancelled';
      expiresAt = member.expires_at;
    }
  } else {
    mgStatus = 'cancelled';
    expiresAt =
      member?.mg_status === 'cancelled' && member.expires_at !== null ? member.expires_at : now;
  }

  if (member) {
    await tx.query(
      `UPDATE members SET mg_status = $1, expires_at = $2, subscription_id = $3, updated_at = $4
        WHERE id = $5`,
      [mgStatus, expiresAt, subscriptionId, now, member.id],
    );
  } else {
    await tx.query(
      `INSERT INTO members (customer_id, subscription_id, mg_status, expires_at, updated_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [customerId, subscriptionId, mgStatus, expiresAt, now],
    );
  }

  const wasActive = member?.mg_status === 'active';
  let forum: AccessOutcome['forum'] = null;
  if (mgStatus === 'active' && !wasActive) forum = 'grant';
  if (mgStatus === 'cancelled' && wasActive) forum = 'revoke';
  if (forum) {
    await recordAccessChange(tx, { email, action: forum, reason: args.reason, at: now, provider });
  }
  return { mg_status: mgStatus, expires_at: expiresAt, forum };
}

/** One isr_events row as a webhook records it (specification §3 "ISR event row"). */
export interface IsrRecord {
  source: Provider;
  kind: 'sale' | 'rebill' | 'refund' | 'chargeback';
  orderId: string | null;
  receipt: string | null;
  productId: string | null;
  /** Positive for sale/rebill; stored negated for refund/chargeback. */
  amountCents: number;
  currency: string;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  email: string | null;
  referrer: string | null;
  at: Date;
  raw: unknown;
}

/** Inserts `rec` into isr_events (the roll-ups follow by trigger) and emits isr.event at `now`. */
export async function recordIsr(tx: Queryable, rec: IsrRecord, now: Date): Promise<void> {
  const negative = rec.kind === 'refund' || rec.kind === 'chargeback';
  const amount = negative ? -Math.abs(rec.amountCents) : Math.abs(rec.amountCents);
  await tx.query(
    `INSERT INTO isr_events (source, kind, order_id, receipt, product_id, amount_cents, currency,
                             affiliate, subid, campaign, customer_email, referrer, created_at, raw)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      rec.source,
      amount === 0 ? 'sale' : rec.kind,
      rec.orderId,
      rec.receipt,
      rec.productId,
      amount,
      rec.currency,
      blankToNull(rec.affiliate),
      blankToNull(rec.subid),
      blankToNull(rec.campaign),
      rec.email?.toLowerCase() ?? null,
      blankToNull(rec.referrer),
      rec.at,
      JSON.stringify(rec.raw ?? {}),
    ],
  );
  await emitLiveEvent(tx, {
    type: 'isr.event',
    email: rec.email?.toLowerCase() ?? null,
    provider: rec.source,
    amount_cents: amount,
    currency: rec.currency,
    at: now,
  });
}

/** Emits a subscription.* live event for `email` in the delivery's transaction (`at` = when it was processed). */
export async function emitSubscriptionEvent(
  tx: Queryable,
  type: Extract<LiveEventType, `subscription.${string}`>,
  e: {
    email: string;
    provider: Provider;
    amountCents: number | null;
    currency: string | null;
    at: Date;
  },
): Promise<void> {
  await emitLiveEvent(tx, {
    type,
    email: e.email,
    provider: e.provider,
    amount_cents: e.amountCents,
    currency: e.currency,
    at: e.at,
  });
}

/** Trimmed text, or null when blank or not a string/number. */
export function blankToNull(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t.slice(0, 200);
}

/** A JSON answer of an accepted delivery. */
export interface WebhookAnswer {
  ok: true;
  provider: Provider;
  event: string;
  duplicate: boolean;
  /** Short words describing what changed, e.g. ['subscription', 'access.grant', 'isr']. */
  effects: string[];
  /** Present when the delivery is acknowledged but not acted on: the reason. */
  ignored?: string;
  /**
   * Present when an authentic delivery is acknowledged but cannot be applied (malformed, or a
   * handled event missing fields): the reason, also kept in the inbox as outcome invalid.
   */
  invalid?: string;
}
