/**
 * POST /webhooks/clickbank (CONTRACT.md "Provider webhooks"):
 * ClickBank Instant Notifications, JSON version 6 and later (the version 7 `paymentPlan` and
 * version 8 fields are read when present).
 *
 * The body is `{notification, iv}` (base64), AES-256-CBC with the key derived from the secret key
 * (server/clickbank/ins.ts). A body that does not decrypt, or decrypts to something that is not
 * JSON (a wrong key passes the padding check now and then), answers 401 and writes nothing but its
 * inbox row (server/webhooks/inbox.ts). A type the server does not act on (CLICKBANK_IGNORED_TYPES,
 * or any other) and a notification to a role other than VENDOR answer 200 and are recorded as
 * ignored with the reason. A body that is not an envelope `{notification, iv}` answers 400 (nothing
 * in it can be verified). A notification that decrypts but cannot be applied (missing or malformed
 * fields, nested deeper than WEBHOOK_MAX_DEPTH) answers 200 `{…, invalid}` and is recorded as
 * invalid with the reason, writing nothing else: it is authentic, and ClickBank disables an
 * endpoint that keeps failing. Text is data: NUL characters are removed from the decrypted
 * notification, and unpaired surrogates replaced, before anything reads it (storableJson). Types
 * whose names start with TEST answer 200, are logged and recorded as ignored_test, changing nothing
 * else.
 *
 * Effects, in ONE transaction with the dedup row, the logs row, the forum jobs and the live events:
 * | transactionType  | order row (receipt)   | subscription (provider_id = initial receipt) | lifecycle | access | ISR | live |
 * |------------------|-----------------------|--------------------------|-----------|--------|-----|------|
 * | SALE             | inserted              | active                   | new       | grant  | sale | subscription.new |
 * | BILL             | inserted              | active, next payment     | renewal   | grant  | rebill | subscription.renewal |
 * | RFND / CGBK      | status, refundable state | cancelled, ends now   | refund (+ cancellation) | revoke now | refund / chargeback (negative) | subscription.cancelled |
 * | CANCEL-REBILL    | status                | cancelled, ends at the paid period end | cancellation | revoke on date | — | subscription.cancelled |
 * | UNCANCEL-REBILL  | status                | active, no end           | —         | grant  | — | — |
 * | INSF             | status                | unchanged (the vendor's retries decide) | — | — | — | — |
 * The initial receipt of a rebill is `parentReceipt`/`originalReceipt` when sent, else the receipt
 * without its '-B<n>' suffix (how rebill receipts are numbered, and how the seed links them).
 *
 * Out of order: the subscription keeps the transaction time of the latest notification applied
 * (payload.transaction_time); an older one still records its money (renewal, refund, ISR) but does
 * not change the status or access. A BILL or cancel before its SALE makes the subscription from
 * what it carries; the SALE then sets the start and the 'new' event.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../db/types';
import type { AppDeps } from '../context';
import { isSupportedInstant } from '../access/params';
import { badRequest } from '../errors';
import { validate } from '../http/body';
import { emailField } from '../http/fields';
import { insertLog } from '../logRows';
import { decryptIns } from '../clickbank/ins';
import type { Cadence } from '../vocabulary';
import {
  addSubscriptionEvent,
  applyAccess,
  blankToNull,
  lockCustomer,
  emitSubscriptionEvent,
  ensureNewEvent,
  recordIsr,
  refusalWarner,
  storableJson,
  unauthorized,
  upsertCustomer,
  type AccessTarget,
  type WebhookAnswer,
} from './common';
import {
  claimOrDuplicate,
  newDeliveryFacts,
  receiveDelivery,
  recordDelivery,
  type DeliveryFacts,
  type DeliveryResult,
  type InboxRecorder,
} from './inbox';

/** The transaction types that change data (TEST and TEST_* are acknowledged only). */
export const CLICKBANK_TRANSACTION_TYPES = [
  'SALE',
  'BILL',
  'RFND',
  'CGBK',
  'INSF',
  'CANCEL-REBILL',
  'UNCANCEL-REBILL',
] as const;
/** One of CLICKBANK_TRANSACTION_TYPES. */
export type ClickbankTransactionType = (typeof CLICKBANK_TRANSACTION_TYPES)[number];

/**
 * Documented transaction types the server receives but does not act on, with the reason recorded
 * in the inbox. Any other type not in CLICKBANK_TRANSACTION_TYPES (and not a TEST) is answered and
 * recorded the same way with a generic reason: ClickBank disables an endpoint that keeps failing.
 */
export const CLICKBANK_IGNORED_TYPES: Readonly<Record<string, string>> = {
  'CANCEL-TEST-REBILL': 'cancels the rebill of a test purchase, which changed nothing here',
  'UNCANCEL-TEST-REBILL': 'reverses the cancel of a test purchase, which changed nothing here',
  ABANDONED_ORDER: 'an abandoned cart is no sale',
  'SUBSCRIPTION-CHG':
    'a product change keeps the subscription and its access; the next BILL carries the new amount',
};

/** The reason a transaction type this server does not act on is ignored. */
export function ignoredTypeReason(type: string): string {
  return (
    CLICKBANK_IGNORED_TYPES[type] ?? `transactionType '${type}' is not one this server acts on`
  );
}

/** A verified notification the server acknowledges without acting on it. */
export interface IgnoredNotification {
  ignored: string;
  event: string;
  email: string | null;
  receipt: string | null;
}

/**
 * A ClickBank transactionTime → Date. Accepts both forms ClickBank sends:
 * '2023-07-28T02:07:57+00:00' (ISO 8601) and '20220810T162015-0700' (basic format), from 1970 to
 * 2100 (isSupportedInstant); null otherwise.
 */
export function parseClickbankTime(text: string): Date | null {
  const basic = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z|[+-]\d{2}:?\d{2})?$/.exec(
    text.trim(),
  );
  let iso = text.trim();
  if (basic) {
    const [, y, mo, d, h, mi, s, zone] = basic;
    const z = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${z}`;
  } else if (
    !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(iso)
  ) {
    return null;
  }
  const ms = Date.parse(iso);
  return isSupportedInstant(ms) ? new Date(ms) : null;
}

const cbTime = (name: string) =>
  z.string({ error: `${name} must be a string` }).transform((v, ctx): Date => {
    const d = parseClickbankTime(v);
    if (!d) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} is not a ClickBank time (got '${v.slice(0, 40)}')`,
        input: v,
      });
      return z.NEVER;
    }
    return d;
  });
const money = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
const text = z.union([z.string(), z.number()]).transform(String);

const address = z
  .object({
    state: z.string().nullish(),
    postalCode: text.nullish(),
    country: z.string().nullish(),
  })
  .loose();
const person = z
  .object({
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    fullName: z.string().nullish(),
    email: z.string().nullish(),
    address: address.nullish(),
  })
  .loose();
const paymentPlan = z
  .object({
    rebillStatus: z.string().nullish(),
    rebillFrequency: z.string().nullish(),
    rebillAmount: money.nullish(),
    paymentsProcessed: z.number().nullish(),
    paymentsRemaining: z.number().nullish(),
    nextPaymentDate: z.string().nullish(),
  })
  .loose();
const lineItem = z
  .object({
    itemNo: text.nullish(),
    productTitle: z.string().nullish(),
    recurring: z.boolean().nullish(),
    accountAmount: money.nullish(),
    lineItemType: z.string().nullish(),
    rebillAmount: money.nullish(),
    nextPaymentDate: z.string().nullish(),
    paymentPlan: paymentPlan.nullish(),
  })
  .loose();

const notificationSchema = z
  .object({
    transactionType: z.string({ error: 'transactionType is required' }).min(1),
    transactionTime: cbTime('transactionTime'),
    receipt: z.string({ error: 'receipt is required' }).min(1).max(64),
    vendor: z.string().nullish(),
    affiliate: z.string().nullish(),
    totalOrderAmount: money.nullish(),
    totalAccountAmount: money.nullish(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'currency must be an ISO 4217 code')
      .nullish(),
    trackingCodes: z.array(z.string()).nullish(),
    tid: z.string().nullish(),
    lineItems: z.array(lineItem).nullish(),
    customer: z.object({ billing: person.nullish(), shipping: person.nullish() }).loose().nullish(),
    upsell: z.object({ upsellOriginalReceipt: z.string().nullish() }).loose().nullish(),
    vendorVariables: z.record(z.string(), z.unknown()).nullish(),
    parentReceipt: z.string().nullish(),
    originalReceipt: z.string().nullish(),
    version: z.number().nullish(),
    attemptCount: z.number().nullish(),
  })
  .loose();
type Notification = z.output<typeof notificationSchema>;

const envelopeSchema = z.object({
  notification: z.string({ error: 'notification is required (base64)' }).min(1),
  iv: z.string({ error: 'iv is required (base64)' }).min(1),
});

const cents = (v: number | null | undefined): number | null =>
  v == null || !Number.isFinite(v) ? null : Math.round(Math.abs(v) * 100);

/** The receipt of the initial order a notification belongs to (module doc). */
export function initialReceiptOf(
  n: Pick<Notification, 'receipt' | 'parentReceipt' | 'originalReceipt'>,
): string {
  return (
    blankToNull(n.parentReceipt) ??
    blankToNull(n.originalReceipt) ??
    n.receipt.replace(/-B\d+$/i, '')
  );
}

/** Monthly or yearly from the payment plan's frequency, else the SKU/title ('-y', 'Yearly'). */
function cadenceOf(n: Notification): Cadence {
  const line = n.lineItems?.[0];
  const freq = line?.paymentPlan?.rebillFrequency ?? '';
  if (/YEAR|ANNUAL/i.test(freq)) return 'yearly';
  if (/MONTH|WEEK/i.test(freq)) return 'monthly';
  if (/-y$/i.test(line?.itemNo ?? '') || /year|annual/i.test(line?.productTitle ?? ''))
    return 'yearly';
  return 'monthly';
}

/** The plan name from the product title ('Pro Membership (Monthly)' → 'Pro'). */
function planOf(n: Notification): string {
  const title = (n.lineItems?.[0]?.productTitle ?? '')
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/\s+membership$/i, '')
    .trim();
  return title === '' ? 'unknown' : title.slice(0, 80);
}

/** A validated notification plus what the effects need. */
export interface Parsed {
  n: Notification;
  type: ClickbankTransactionType;
  email: string;
  at: Date;
  raw: Record<string, unknown>;
}

/** The dedup key: receipt + transactionType + transactionTime (ClickBank's retries repeat all three; attemptCount changes, so a body hash would not). */
export function clickbankDedupKey(p: { n: { receipt: string }; type: string; at: Date }): string {
  return `clickbank:${p.n.receipt}:${p.type}:${p.at.toISOString()}`;
}

/** Stored state of the subscription: its row and the time of the latest notification applied. */
interface StoredSubscription {
  id: number;
  customer_id: number;
  status: string;
  current_period_end: Date | null;
  last_at: string | null;
  payments: number | null;
}

async function upsertOrder(
  tx: Queryable,
  p: Parsed,
  subscriptionId: number,
  now: Date,
): Promise<void> {
  const { n, type, email, at } = p;
  const line = n.lineItems?.[0];
  const billing = n.customer?.billing ?? n.customer?.shipping ?? null;
  const addr = n.customer?.billing?.address ?? n.customer?.shipping?.address ?? null;
  const next = line?.paymentPlan?.nextPaymentDate ?? line?.nextPaymentDate ?? null;
  const nextAt = next ? parseClickbankTime(next) : null;
  const refundable =
    type === 'RFND'
      ? 'REFUNDED'
      : type === 'CGBK'
        ? 'CHARGEBACK'
        : now.getTime() - at.getTime() < 60 * 86_400_000
          ? 'REFUNDABLE'
          : 'NON_REFUNDABLE';
  const found = await tx.query<{ id: number; raw_time: string | null }>(
    `SELECT id, raw_json ->> 'transactionTime' AS raw_time FROM clickbank_orders WHERE receipt = $1 FOR UPDATE`,
    [n.receipt],
  );
  const row = found.rows[0];
  const values = [
    subscriptionId,
    email,
    n.receipt,
    blankToNull(line?.itemNo),
    type,
    blankToNull(line?.productTitle),
    blankToNull(n.vendor),
    blankToNull(n.affiliate),
    blankToNull(addr?.country),
    blankToNull(addr?.state),
    blankToNull(addr?.postalCode),
    blankToNull(billing?.firstName),
    blankToNull(billing?.lastName),
    blankToNull(billing?.fullName),
    refundable,
    (n.currency ?? 'USD').toUpperCase(),
    cents(n.totalOrderAmount),
    cents(line?.paymentPlan?.rebillAmount ?? line?.rebillAmount),
    cents(n.totalAccountAmount),
    nextAt,
    at,
    JSON.stringify(p.raw),
  ];
  if (!row) {
    await tx.query(
      `INSERT INTO clickbank_orders (subscription_id, email, receipt, sku, status, title, site, affiliate,
          country, state, postal_code, first_name, last_name, customer_display_name,
          customer_refundable_state, currency, amount_cents, rebill_amount_cents, account_amount_cents,
          next_payment_at, created_at_provider, raw_json)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)`,
      values,
    );
    return;
  }
  const storedAt = row.raw_time ? parseClickbankTime(row.raw_time) : null;
  if (storedAt && at.getTime() < storedAt.getTime()) {
    // An older notification about this receipt (e.g. the SALE after its cancel): fill in what is
    // missing (the sale's amounts), keep the newer status.
    await tx.query(
      `UPDATE clickbank_orders SET sku = COALESCE(sku, $2), title = COALESCE(title, $3),
              created_at_provider = LEAST(created_at_provider, $4),
              amount_cents = COALESCE(NULLIF(amount_cents, 0), $5),
              account_amount_cents = COALESCE(NULLIF(account_amount_cents, 0), $6),
              rebill_amount_cents = COALESCE(rebill_amount_cents, $7)
        WHERE id = $1`,
      [
        row.id,
        blankToNull(line?.itemNo),
        blankToNull(line?.productTitle),
        at,
        type === 'SALE' || type === 'BILL' ? cents(n.totalOrderAmount) : null,
        type === 'SALE' || type === 'BILL' ? cents(n.totalAccountAmount) : null,
        cents(line?.paymentPlan?.rebillAmount ?? line?.rebillAmount),
      ],
    );
    return;
  }
  // A refund, chargeback or cancel of an existing order keeps its amounts and its original time.
  const keepMoney =
    type === 'RFND' || type === 'CGBK' || type.endsWith('REBILL') || type === 'INSF';
  await tx.query(
    `UPDATE clickbank_orders SET subscription_id = $2, email = $3, sku = COALESCE($4, sku), status = $5,
            title = COALESCE($6, title), site = COALESCE($7, site), affiliate = COALESCE($8, affiliate),
            country = COALESCE($9, country), state = COALESCE($10, state), postal_code = COALESCE($11, postal_code),
            first_name = COALESCE($12, first_name), last_name = COALESCE($13, last_name),
            customer_display_name = COALESCE($14, customer_display_name), customer_refundable_state = $15,
            currency = $16,
            amount_cents = CASE WHEN $23::boolean THEN amount_cents ELSE $17 END,
            rebill_amount_cents = COALESCE($18, rebill_amount_cents),
            account_amount_cents = CASE WHEN $23::boolean THEN account_amount_cents ELSE $19 END,
            next_payment_at = $20, created_at_provider = LEAST(created_at_provider, $21), raw_json = $22
      WHERE id = $1`,
    [row.id, ...values.slice(0, 2), ...values.slice(3), keepMoney],
  );
}

/**
 * Applies one validated notification in `tx` by the module table → the effects. `reason` names the
 * cause in the forum job ('webhook.clickbank.<type>' by default; 'reconcile.clickbank').
 */
export async function applyClickbankNotification(
  tx: Queryable,
  p: Parsed,
  now: Date,
  reason = `webhook.clickbank.${p.type}`,
): Promise<string[]> {
  const { n, type, email, at } = p;
  const effects: string[] = [];
  const line = n.lineItems?.[0];
  const currency = (n.currency ?? 'USD').toUpperCase();
  const orderCents = cents(n.totalOrderAmount) ?? 0;
  const rebillCents = cents(line?.paymentPlan?.rebillAmount ?? line?.rebillAmount);
  const next = line?.paymentPlan?.nextPaymentDate ?? line?.nextPaymentDate ?? null;
  const nextAt = next ? parseClickbankTime(next) : null;
  const initial = initialReceiptOf(n);
  const billing = n.customer?.billing ?? n.customer?.shipping ?? null;
  const name =
    blankToNull(billing?.fullName) ??
    blankToNull([billing?.firstName, billing?.lastName].filter(Boolean).join(' '));
  const customerId = await upsertCustomer(tx, email, name, now);

  const found = await tx.query<StoredSubscription>(
    `SELECT id, customer_id, status, current_period_end, payload ->> 'transaction_time' AS last_at,
            (payload ->> 'payments')::int AS payments
       FROM subscriptions WHERE provider = 'clickbank' AND provider_id = $1 FOR UPDATE`,
    [initial],
  );
  const stored = found.rows[0] ?? null;
  const lastAt = stored?.last_at ? Date.parse(stored.last_at) : NaN;
  const stale = stored !== null && Number.isFinite(lastAt) && at.getTime() < lastAt;

  // The status, period and access this notification asks for.
  let status: string | null = null;
  let endsAt: Date | null = null;
  let access: AccessTarget = { kind: 'none' };
  if (type === 'SALE' || type === 'BILL' || type === 'UNCANCEL-REBILL') {
    status = 'active';
    access = { kind: 'grant' };
  } else if (type === 'CANCEL-REBILL') {
    status = 'cancelled';
    endsAt = nextAt ?? stored?.current_period_end ?? at;
    access = { kind: 'revoke_at', at: endsAt };
  } else if (type === 'RFND' || type === 'CGBK') {
    status = 'cancelled';
    endsAt = at;
    access = { kind: 'revoke_now' };
  }
  const periodEnd =
    type === 'CANCEL-REBILL' || type === 'RFND' || type === 'CGBK' ? endsAt : nextAt;
  const payments = (stored?.payments ?? 0) + (type === 'SALE' || type === 'BILL' ? 1 : 0);
  const summary = {
    receipt: n.receipt,
    original_receipt: initial,
    transaction_type: type,
    transaction_time: at.toISOString(),
    sku: blankToNull(line?.itemNo),
    title: blankToNull(line?.productTitle),
    vendor: blankToNull(n.vendor),
    affiliate: blankToNull(n.affiliate),
    currency,
    amount_cents: rebillCents ?? orderCents,
    payments,
    next_payment_at: nextAt?.toISOString() ?? null,
  };

  let subscriptionId: number;
  if (!stored) {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, source,
                                  amount_cents, currency, start_date, current_period_end, ends_at,
                                  payload, created_at, updated_at)
       VALUES ($1, 'clickbank', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id`,
      [
        customerId,
        initial,
        status ?? 'active',
        cadenceOf(n),
        planOf(n),
        blankToNull(n.affiliate) ?? 'clickbank',
        rebillCents ?? (orderCents || null),
        currency,
        at,
        periodEnd,
        endsAt,
        JSON.stringify(summary),
        now,
      ],
    );
    subscriptionId = Number(r.rows[0]?.id);
    effects.push('subscription.created');
  } else {
    subscriptionId = stored.id;
    if (stale) {
      effects.push('stale');
      await tx.query(
        `UPDATE subscriptions SET start_date = LEAST(start_date, $2),
                payload = jsonb_set(payload, '{payments}', to_jsonb($3::int)),
                source = COALESCE($4, source), plan = CASE WHEN plan = 'unknown' THEN $5 ELSE plan END
          WHERE id = $1`,
        // The SALE carries the sale's attribution (its affiliate) even when it arrives late.
        [
          subscriptionId,
          at,
          payments,
          type === 'SALE' ? blankToNull(n.affiliate) : null,
          planOf(n),
        ],
      );
    } else if (status !== null || type === 'INSF') {
      await tx.query(
        `UPDATE subscriptions SET customer_id = $2, status = COALESCE($3::text, status),
                current_period_end = COALESCE($4, current_period_end),
                ends_at = CASE WHEN $3::text = 'active' THEN NULL WHEN $3::text IS NULL THEN ends_at ELSE $5::timestamptz END,
                amount_cents = COALESCE($6, amount_cents), start_date = LEAST(start_date, $7),
                payload = $8, updated_at = $9
          WHERE id = $1`,
        [
          subscriptionId,
          customerId,
          status,
          periodEnd,
          endsAt,
          rebillCents,
          at,
          JSON.stringify(summary),
          now,
        ],
      );
    }
  }
  await upsertOrder(tx, p, subscriptionId, now);
  effects.push('order');

  const live = { email, provider: 'clickbank' as const, currency, at: now };
  if (
    await ensureNewEvent(
      tx,
      subscriptionId,
      at,
      type === 'SALE' ? orderCents : null,
      currency,
      type === 'SALE',
    )
  ) {
    await emitSubscriptionEvent(tx, 'subscription.new', {
      ...live,
      amountCents: type === 'SALE' ? orderCents : null,
    });
    effects.push('event.new');
  }
  if (type === 'BILL') {
    await addSubscriptionEvent(tx, subscriptionId, 'renewal', at, orderCents, currency);
    await emitSubscriptionEvent(tx, 'subscription.renewal', { ...live, amountCents: orderCents });
    effects.push('event.renewal');
  }
  if (type === 'RFND' || type === 'CGBK') {
    await addSubscriptionEvent(tx, subscriptionId, 'refund', at, orderCents, currency);
    effects.push('event.refund');
  }
  const becameCancelled = status === 'cancelled' && !stale && stored?.status !== 'cancelled';
  if (becameCancelled) {
    await addSubscriptionEvent(tx, subscriptionId, 'cancellation', at, null, null);
    await emitSubscriptionEvent(tx, 'subscription.cancelled', { ...live, amountCents: null });
    effects.push('event.cancellation');
  }
  if (!stale) {
    const outcome = await applyAccess(tx, {
      customerId,
      subscriptionId,
      email,
      provider: 'clickbank',
      target: access,
      reason,
      now,
      amountCents: orderCents,
      currency,
    });
    if (outcome?.forum) effects.push(`access.${outcome.forum}`);
  }

  const isrKind = { SALE: 'sale', BILL: 'rebill', RFND: 'refund', CGBK: 'chargeback' } as const;
  const kind = isrKind[type as keyof typeof isrKind];
  if (kind && orderCents > 0) {
    const vars = n.vendorVariables ?? {};
    await recordIsr(
      tx,
      {
        source: 'clickbank',
        kind,
        orderId: n.receipt,
        receipt: n.receipt,
        productId: blankToNull(line?.itemNo),
        amountCents: orderCents,
        currency,
        affiliate: blankToNull(n.affiliate),
        subid: blankToNull(n.trackingCodes?.[0]) ?? blankToNull(n.tid),
        campaign: blankToNull(vars.campaign) ?? blankToNull(vars.utm_campaign),
        email,
        referrer: blankToNull(vars.referrer),
        at,
        raw: {
          transactionType: type,
          receipt: n.receipt,
          initial_receipt: initial,
          vendor: n.vendor ?? null,
          trackingCodes: n.trackingCodes ?? [],
          vendorVariables: n.vendorVariables ?? {},
        },
      },
      now,
    );
    effects.push(`isr.${kind}`);
  }
  return effects;
}

/**
 * Decrypts a delivery's `raw` bytes → the notification as a storable JSON object; throws 400 (not
 * a JSON envelope {notification, iv}) or 401 (does not decrypt to a JSON object).
 */
export function decryptClickbankDelivery(raw: Buffer, secretKey: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object {notification, iv}');
  }
  const envelope = validate(envelopeSchema, body);
  let decrypted: unknown;
  try {
    decrypted = JSON.parse(decryptIns(envelope, secretKey));
  } catch {
    throw unauthorized('The notification does not decrypt with the configured secret key');
  }
  if (decrypted === null || typeof decrypted !== 'object' || Array.isArray(decrypted)) {
    throw unauthorized('The notification does not decrypt to a JSON object');
  }
  return storableJson(decrypted) as Record<string, unknown>;
}

/** Text of `v` when it is a non-blank string, else null. */
const textOf = (v: unknown): string | null => (typeof v === 'string' ? blankToNull(v) : null);

/**
 * Sorts a decrypted notification: TEST and TEST_* (names starting with TEST) → {test}; a
 * notification to a role other than VENDOR (an AFFILIATE's copy carries no customer) or of a type
 * the server does not act on → IgnoredNotification; otherwise validated → Parsed (throws 400 for
 * missing or malformed fields).
 */
export function classifyClickbankNotification(
  plain: Record<string, unknown>,
): Parsed | { test: string; at: Date | null } | IgnoredNotification {
  const rawType = plain.transactionType;
  const type = typeof rawType === 'string' ? rawType.trim().toUpperCase() : '';
  if (/^TEST($|[_-])/.test(type)) {
    const t = plain.transactionTime;
    return { test: type, at: typeof t === 'string' ? parseClickbankTime(t) : null };
  }
  const customer = plain.customer as { billing?: { email?: unknown } } | null | undefined;
  const loose = {
    event: type.slice(0, 40),
    email: textOf(customer?.billing?.email)?.toLowerCase() ?? null,
    receipt: textOf(plain.receipt),
  };
  const role = textOf(plain.role)?.toUpperCase() ?? 'VENDOR';
  if (type !== '' && role !== 'VENDOR') {
    return {
      ...loose,
      ignored: `a notification to the ${role} role; the vendor's own notification carries the customer`,
    };
  }
  if (type !== '' && !(CLICKBANK_TRANSACTION_TYPES as readonly string[]).includes(type)) {
    return { ...loose, ignored: ignoredTypeReason(loose.event) };
  }
  return parseClickbankNotification(plain);
}

/**
 * Decrypts and validates a delivery's `raw` bytes → {test}, IgnoredNotification or Parsed; throws
 * 400 (envelope or fields) or 401 (does not decrypt to JSON).
 */
export function parseClickbankDelivery(
  raw: Buffer,
  secretKey: string,
): Parsed | { test: string; at: Date | null } | IgnoredNotification {
  return classifyClickbankNotification(decryptClickbankDelivery(raw, secretKey));
}

/**
 * Validates a decrypted, storable notification that is not a TEST → Parsed; throws 400 for
 * missing fields, an unsupported transactionType or a missing customer email.
 */
export function parseClickbankNotification(plain: unknown): Parsed {
  const n = validate(notificationSchema, plain);
  const type = n.transactionType.trim().toUpperCase() as ClickbankTransactionType;
  if (!CLICKBANK_TRANSACTION_TYPES.includes(type)) {
    throw badRequest(`Unsupported transactionType '${n.transactionType.slice(0, 40)}'`);
  }
  const emailInput = n.customer?.billing?.email ?? n.customer?.shipping?.email;
  const { email } = validate(z.object({ email: emailField('customer.billing.email') }), {
    email: emailInput,
  });
  return { n, type, email, at: n.transactionTime, raw: plain as Record<string, unknown> };
}

/** The INS secret key in use: CLICKBANK_SECRET_KEY, else the generated one, else a random per-process key. */
function secretOf(deps: AppDeps): string {
  return (
    deps.config.clickbankSecretKey ?? deps.config.clickbankGeneratedSecretKey ?? fallbackSecret
  );
}
const fallbackSecret = randomBytes(12).toString('base64url').toUpperCase();

/**
 * Handles one delivery read as `raw` bytes → the answer, or throws 400/401 (ApiError; a 400 after
 * decryption is an invalid notification, which receiveDelivery acknowledges). Fills in
 * `facts` as it learns them (the body once decrypted) and records an accepted delivery in the inbox
 * within its transaction.
 */
export async function handleClickbankDelivery(
  deps: AppDeps,
  raw: Buffer,
  facts: DeliveryFacts = newDeliveryFacts(deps, 'clickbank', raw.byteLength),
): Promise<WebhookAnswer> {
  const plain = decryptClickbankDelivery(raw, secretOf(deps));
  facts.body = JSON.stringify(plain);
  const { answer } = await applyClickbankPlain(deps, plain, facts, async (tx, result) => {
    await recordDelivery(tx, facts, result);
  });
  return answer;
}

/**
 * Applies a decrypted notification `plain` → the answer and the inbox result; `record` runs in the
 * delivery's transaction with the result (the endpoint inserts the inbox row, a replay updates the
 * stored one). Throws 400 for an invalid notification, after filling in what `facts` could learn.
 * The one code path of a delivery and its replay.
 */
export async function applyClickbankPlain(
  deps: AppDeps,
  plain: Record<string, unknown>,
  facts: DeliveryFacts,
  record: InboxRecorder,
): Promise<{ answer: WebhookAnswer; result: DeliveryResult }> {
  const type = plain.transactionType;
  facts.event = typeof type === 'string' ? type.trim().toUpperCase().slice(0, 40) || null : null;
  // What the notification says before it is checked, so an invalid delivery's inbox row can be found.
  const customer = plain.customer as { billing?: { email?: unknown } } | null | undefined;
  facts.email = textOf(customer?.billing?.email)?.toLowerCase() ?? null;
  facts.subscriptionId = textOf(plain.receipt);
  const now = deps.now();
  const parsed = classifyClickbankNotification(plain);
  if ('test' in parsed || 'ignored' in parsed) {
    const test = 'test' in parsed;
    if (!test) {
      facts.email = parsed.email;
      facts.subscriptionId = parsed.receipt;
    }
    const result: DeliveryResult = {
      outcome: test ? 'ignored_test' : 'ignored',
      httpStatus: 200,
      error: test ? 'a test notification changes nothing' : parsed.ignored,
      effects: test ? ['test'] : [],
    };
    await deps.db.transaction(async (tx) => {
      if (test) {
        await insertLog(tx, now, 'info', 'webhook.clickbank.test', {
          provider: 'clickbank',
          event: parsed.test,
          transaction_time: parsed.at?.toISOString() ?? null,
        });
      }
      await record(tx, result);
    });
    const answer: WebhookAnswer = {
      ok: true,
      provider: 'clickbank',
      event: test ? parsed.test : parsed.event,
      duplicate: false,
      effects: result.effects,
      ...(test ? {} : { ignored: parsed.ignored }),
    };
    return { answer, result };
  }
  facts.email = parsed.email;
  facts.subscriptionId = initialReceiptOf(parsed.n);
  const key = clickbankDedupKey(parsed);
  facts.dedupKey = key;
  return deps.db.transaction(async (tx) => {
    await lockCustomer(tx, parsed.email);
    const duplicate = await claimOrDuplicate(tx, 'clickbank', parsed.type, key, now, record);
    if (duplicate) return duplicate;
    const effects = await applyClickbankNotification(tx, parsed, now);
    await insertLog(tx, now, 'info', `webhook.clickbank.${parsed.type}`, {
      provider: 'clickbank',
      event: parsed.type,
      receipt: parsed.n.receipt,
      initial_receipt: initialReceiptOf(parsed.n),
      email: parsed.email,
      effects,
    });
    const result: DeliveryResult = { outcome: 'applied', httpStatus: 200, error: null, effects };
    await record(tx, result);
    const answer: WebhookAnswer = {
      ok: true,
      provider: 'clickbank',
      event: parsed.type,
      duplicate: false,
      effects,
    };
    return { answer, result };
  });
}

/** The router of POST /webhooks/clickbank (mounted at the server root, no session). */
export function clickbankWebhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  const warn = refusalWarner(deps, 'clickbank');
  app.post('/webhooks/clickbank', async (c) => {
    try {
      const answer = await receiveDelivery(c, deps, 'clickbank', (raw, facts) =>
        handleClickbankDelivery(deps, raw, facts),
      );
      return c.json(answer, 200);
    } catch (err) {
      if (err instanceof Error && 'status' in err && (err as { status: number }).status === 401) {
        warn('undecryptable notification');
      }
      throw err;
    }
  });
  return app;
}
