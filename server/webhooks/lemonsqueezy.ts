/**
 * POST /webhooks/lemonsqueezy (CONTRACT.md "Provider webhooks").
 *
 * A delivery is `{meta: {event_name, custom_data?}, data: {type, id, attributes}}`, signed with
 * `X-Signature` = lowercase hex HMAC-SHA256 of the raw body with the signing secret. The signature
 * is checked (constant time) before the body is parsed: a missing or wrong one answers 401 and
 * writes nothing but its inbox row (server/webhooks/inbox.ts). An event the server does not act on
 * (LEMONSQUEEZY_IGNORED_EVENTS, or any other name) answers 200 and is recorded as ignored with the
 * reason. A signed delivery the server cannot apply (malformed JSON, missing fields of a handled
 * event, a time outside 1970–2100, a body nested deeper than WEBHOOK_MAX_DEPTH) answers 200
 * `{…, invalid}` and is recorded as invalid with the reason, writing nothing else: it is
 * authentic, and a retry would not make it valid. Text is data: NUL characters are removed,
 * and unpaired surrogates replaced, before anything reads it (storableJson). An accepted
 * delivery answers 200 `{ok, provider, event, duplicate, effects}` after ONE transaction that holds
 * its dedup row, its logs row, its data changes, its forum jobs and its live events.
 *
 * Events and effects:
 * - subscription_created/_updated/_cancelled/_resumed/_expired/_paused/_unpaused (data = the
 *   subscription object): upsert the customer and the subscription (status, cadence, plan, period
 *   end, ends_at; payload = the object as sent). Lifecycle rows follow the status transition, not the
 *   event name: first sight → 'new' (+ subscription.new), → cancelled → 'cancellation'
 *   (+ subscription.cancelled), → expired → 'expiration'. Forum access by status:
 *   | LemonSqueezy status            | access                                             |
 *   |--------------------------------|----------------------------------------------------|
 *   | on_trial, active, past_due     | grant (past_due: the store still retries payment)  |
 *   | cancelled                      | revoke on date at ends_at (the grace period); revoke now when ends_at has passed |
 *   | paused, unpaid, expired        | revoke now                                         |
 * - subscription_payment_success/_recovered (data = a subscription invoice; one without user_email
 *   takes the email of the subscription it names, and is ignored when that is unknown): billing_reason
 *   initial → the subscription's amount and its 'new' amount; renewal → a 'renewal' row, an ISR
 *   rebill and subscription.renewal; updated → an ISR rebill. One invoice counts once even when both
 *   _success and _recovered arrive (a dedup row 'lemonsqueezy:invoice:<id>'). _failed changes no
 *   data (the subscription_updated to past_due/unpaid that follows carries the state).
 * - order_created: the customer and an ISR sale (the order is the sale: the initial invoice is not
 *   counted again); order_refunded: an ISR refund and a 'refund' row on the order's subscription.
 * ISR rows take campaign, affiliate, referrer and subid from meta.custom_data when present; a new
 * subscription's traffic source (the metrics' source filter) from custom_data utm_source/source.
 *
 * Out of order: a subscription object older (attributes.updated_at) than the stored one changes
 * nothing but its missing facts (the 'new' time); an invoice or a cancel before the create makes the
 * subscription from what it carries (a placeholder for an invoice), which the object later fills in.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Queryable } from '../db/types';
import type { AppDeps } from '../context';
import { isSupportedInstant, unsupportedDateMessage } from '../access/params';
import { badRequest } from '../errors';
import { validate } from '../http/body';
import { emailField } from '../http/fields';
import { insertLog } from '../logRows';
import {
  cadenceFromHistory,
  cadenceFromPeriod,
  cadenceOfInterval,
  cadenceOfNames,
  lookUpVariantInterval,
  type VariantInterval,
} from './cadence';
import {
  claimOrDuplicate,
  newDeliveryFacts,
  receiveDelivery,
  recordDelivery,
  type DeliveryFacts,
  type DeliveryResult,
  type InboxRecorder,
} from './inbox';
import {
  LEMONSQUEEZY_STATUSES,
  storedProviderStatus,
  type Cadence,
  type LemonSqueezyStatus,
} from '../vocabulary';
import {
  addSubscriptionEvent,
  applyAccess,
  blankToNull,
  claimDedup,
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

/** The events this endpoint acts on. */
export const LEMONSQUEEZY_EVENTS = [
  'subscription_created',
  'subscription_updated',
  'subscription_cancelled',
  'subscription_resumed',
  'subscription_expired',
  'subscription_paused',
  'subscription_unpaused',
  'subscription_payment_success',
  'subscription_payment_failed',
  'subscription_payment_recovered',
  'order_created',
  'order_refunded',
] as const;
/** One of LEMONSQUEEZY_EVENTS. */
export type LemonSqueezyEvent = (typeof LEMONSQUEEZY_EVENTS)[number];

/**
 * Documented events the server receives but does not act on, each with the reason recorded in the
 * inbox. Any other event name is answered and recorded the same way, with a generic reason: an
 * authentic delivery is always acknowledged, so the store does not retry it.
 */
export const LEMONSQUEEZY_IGNORED_EVENTS: Readonly<Record<string, string>> = {
  subscription_payment_refunded:
    'refunds are recorded from order_refunded; an invoice refund changes no access',
  subscription_plan_changed: 'the subscription_updated sent with it carries the new plan',
  license_key_created: 'license keys do not change subscriptions or forum access',
  license_key_updated: 'license keys do not change subscriptions or forum access',
  affiliate_activated: 'affiliates are attributed from the sale itself',
};

/** The reason an event this server does not act on is ignored. */
export function ignoredEventReason(event: string): string {
  return LEMONSQUEEZY_IGNORED_EVENTS[event] ?? `event '${event}' is not one this server acts on`;
}

/** Lowercase hex HMAC-SHA256 of `body` with `secret`: the X-Signature LemonSqueezy sends. */
export function signLemonSqueezy(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** True when `signature` (hex) is the HMAC of `body` with `secret`; compared in constant time. */
export function verifyLemonSqueezySignature(
  body: Buffer,
  signature: string | undefined,
  secret: string,
): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), 'hex'));
}

/** A LemonSqueezy timestamp ('2021-08-11T13:47:27.000000Z') from 1970 to 2100 → Date. */
const lsTime = (name: string) =>
  z.string({ error: `${name} must be a date-time string` }).transform((v, ctx): Date => {
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} is not a date-time (got '${v.slice(0, 40)}')`,
        input: v,
      });
      return z.NEVER;
    }
    if (!isSupportedInstant(ms)) {
      ctx.addIssue({
        code: 'custom',
        message: unsupportedDateMessage(name, v.slice(0, 40)),
        input: v,
      });
      return z.NEVER;
    }
    return new Date(ms);
  });
const optionalTime = (name: string) => lsTime(name).nullish();
const id = z.union([z.string().min(1).max(64), z.number().int().nonnegative()]).transform(String);
const cents = (name: string) =>
  z
    .number({ error: `${name} must be a number of cents` })
    .int()
    .min(0)
    .max(2_000_000_000);
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'currency must be an ISO 4217 code')
  .transform((v) => v.toUpperCase());

const envelopeSchema = z.object({
  meta: z.object({
    event_name: z.string({ error: 'meta.event_name is required' }),
    custom_data: z.record(z.string(), z.unknown()).nullish(),
  }),
  data: z.object({
    type: z.string(),
    id,
    attributes: z.record(z.string(), z.unknown()),
  }),
});

const subscriptionAttributes = z.object({
  user_email: emailField('user_email'),
  user_name: z.string().nullish(),
  status: z.enum(LEMONSQUEEZY_STATUSES, {
    error: `status must be one of ${LEMONSQUEEZY_STATUSES.join(', ')}`,
  }),
  order_id: id.nullish(),
  product_id: id.nullish(),
  product_name: z.string().nullish(),
  variant_id: id.nullish(),
  variant_name: z.string().nullish(),
  renews_at: optionalTime('renews_at'),
  ends_at: optionalTime('ends_at'),
  created_at: lsTime('created_at'),
  updated_at: lsTime('updated_at'),
});
type SubscriptionAttributes = z.output<typeof subscriptionAttributes>;

const invoiceAttributes = z.object({
  subscription_id: id,
  // Older documented invoices carry no user_email: the subscription it names supplies it.
  user_email: emailField('user_email').nullish(),
  user_name: z.string().nullish(),
  billing_reason: z.enum(['initial', 'renewal', 'updated'], {
    error: 'billing_reason must be initial, renewal or updated',
  }),
  currency,
  total: cents('total'),
  status: z.string().nullish(),
  created_at: lsTime('created_at'),
  updated_at: lsTime('updated_at'),
});

const orderAttributes = z.object({
  user_email: emailField('user_email'),
  user_name: z.string().nullish(),
  currency,
  total: cents('total'),
  refunded_amount: cents('refunded_amount').nullish(),
  status: z.string().nullish(),
  order_number: id.nullish(),
  identifier: z.string().nullish(),
  first_order_item: z.object({ product_id: id.nullish() }).loose().nullish(),
  created_at: lsTime('created_at'),
  updated_at: lsTime('updated_at'),
});

/** The data type each event carries. */
function dataTypeOf(event: LemonSqueezyEvent): string {
  if (event.startsWith('subscription_payment_')) return 'subscription-invoices';
  if (event.startsWith('order_')) return 'orders';
  return 'subscriptions';
}

/** A validated delivery, ready to apply. */
export interface Delivery {
  event: LemonSqueezyEvent;
  customData: Record<string, unknown>;
  dataId: string;
  /** The data object as sent ({type, id, attributes, …}); stored as the subscription payload. */
  data: Record<string, unknown>;
  updatedAt: Date;
  /** The customer e-mail (lower case): user_email, or for an invoice without one, looked up later. */
  email: string | null;
  /** The provider subscription id the delivery is about, when it names one. */
  subscriptionId: string | null;
}

/** A verified delivery of an event the server does not act on. */
export interface IgnoredDelivery {
  ignored: string;
  event: string;
  email: string | null;
  subscriptionId: string | null;
}

/** A string attribute of an unvalidated data object, trimmed, or null. */
function looseText(data: unknown, ...path: string[]): string | null {
  let v: unknown = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[k];
  }
  return blankToNull(v);
}

/**
 * Checks the parsed body → Delivery, or IgnoredDelivery for an event the server does not act on,
 * or throws 400 (not an object, no event name, wrong data type for a handled event, missing or
 * malformed fields; `issues` lists the fields).
 */
export function parseLemonSqueezyDelivery(body: unknown): Delivery | IgnoredDelivery {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object');
  }
  const meta = (body as { meta?: unknown }).meta;
  const name =
    meta && typeof meta === 'object' ? (meta as { event_name?: unknown }).event_name : null;
  if (typeof name === 'string' && !(LEMONSQUEEZY_EVENTS as readonly string[]).includes(name)) {
    const data = (body as { data?: unknown }).data;
    const type = looseText(data, 'type');
    return {
      ignored: ignoredEventReason(name.slice(0, 60)),
      event: name.slice(0, 60),
      email: looseText(data, 'attributes', 'user_email')?.toLowerCase() ?? null,
      subscriptionId:
        type === 'subscriptions'
          ? looseText(data, 'id')
          : looseText(data, 'attributes', 'subscription_id'),
    };
  }
  const env = validate(envelopeSchema, body);
  const event = env.meta.event_name as LemonSqueezyEvent;
  const expected = dataTypeOf(event);
  if (env.data.type !== expected) {
    throw badRequest(`${event} must carry data of type '${expected}', got '${env.data.type}'`);
  }
  const schema =
    expected === 'subscriptions'
      ? subscriptionAttributes
      : expected === 'orders'
        ? orderAttributes
        : invoiceAttributes;
  const attrs = validate(z.object({ attributes: schema }), { attributes: env.data.attributes });
  const a = attrs.attributes as { user_email?: string | null; subscription_id?: string };
  return {
    event,
    customData: env.meta.custom_data ?? {},
    dataId: env.data.id,
    data: (body as { data: Record<string, unknown> }).data,
    updatedAt: attrs.attributes.updated_at,
    email: a.user_email ?? null,
    subscriptionId:
      expected === 'subscriptions'
        ? env.data.id
        : expected === 'subscription-invoices'
          ? (a.subscription_id ?? null)
          : null,
  };
}

/**
 * The dedup key of a delivery: event name + data type + id + the object's updated_at. A redelivery
 * (the store's retries, or "resend" in its dashboard) names the same event about the same object
 * at the same version, even when the body differs in bytes (the pre-signed `urls` are re-signed on
 * every serialisation, so a hash of the body would miss it); two genuinely different events about
 * one object differ in name or in updated_at.
 */
export function lemonSqueezyDedupKey(d: Delivery): string {
  return `lemonsqueezy:${d.event}:${String(d.data.type)}:${d.dataId}:${d.updatedAt.toISOString()}`;
}

/**
 * Monthly or yearly (server/webhooks/cadence.ts): the names as sent, the variant's interval
 * (`interval`, looked up before the transaction), the charge history, the stored cadence, the
 * first period.
 */
async function cadenceOf(
  tx: Queryable,
  a: SubscriptionAttributes,
  interval: VariantInterval | null,
  stored: StoredSubscription | null,
): Promise<Cadence> {
  const named = cadenceOfNames(a.variant_name, a.product_name);
  if (named) return named;
  if (interval) return cadenceOfInterval(interval);
  if (stored) {
    const history = await cadenceFromHistory(tx, stored.id);
    if (history) return history;
    if (stored.cadence === 'monthly' || stored.cadence === 'yearly') return stored.cadence;
  }
  return cadenceFromPeriod(a.created_at, a.renews_at ?? null);
}

/** The plan name: the product name without a trailing 'Membership' ('Pro Membership' → 'Pro'). */
function planOf(a: SubscriptionAttributes): string {
  const name = (a.product_name ?? '').replace(/\s+membership$/i, '').trim();
  return name === '' ? 'unknown' : name.slice(0, 80);
}

/** Forum access for a LemonSqueezy status (module table). */
function accessFor(status: LemonSqueezyStatus, a: SubscriptionAttributes, now: Date): AccessTarget {
  switch (status) {
    case 'on_trial':
    case 'active':
    case 'past_due':
      return { kind: 'grant' };
    case 'cancelled':
      return { kind: 'revoke_at', at: a.ends_at ?? a.renews_at ?? now };
    default:
      return { kind: 'revoke_now' };
  }
}

interface StoredSubscription {
  id: number;
  customer_id: number;
  status: string;
  cadence: string;
  stored_updated_at: string | null;
  amount_cents: number | null;
  currency: string;
  payload: Record<string, unknown>;
}

async function findSubscription(
  tx: Queryable,
  providerId: string,
): Promise<StoredSubscription | null> {
  const r = await tx.query<StoredSubscription>(
    `SELECT id, customer_id, status, cadence,
            payload -> 'attributes' ->> 'updated_at' AS stored_updated_at,
            amount_cents, currency, payload
       FROM subscriptions WHERE provider = 'lemonsqueezy' AND provider_id = $1 FOR UPDATE`,
    [providerId],
  );
  return r.rows[0] ?? null;
}

/** ISR attribution from meta.custom_data (campaign, affiliate, referrer; a few common spellings). */
function attribution(custom: Record<string, unknown>): {
  campaign: string | null;
  affiliate: string | null;
  referrer: string | null;
  subid: string | null;
  source: string | null;
} {
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = blankToNull(custom[k]);
      if (v) return v;
    }
    return null;
  };
  return {
    campaign: pick('campaign', 'utm_campaign'),
    affiliate: pick('affiliate', 'aff', 'ref'),
    referrer: pick('referrer', 'referer'),
    subid: pick('subid', 'sub_id', 'tid'),
    source: pick('utm_source', 'source')?.toLowerCase().slice(0, 40) ?? null,
  };
}

/** Facts looked up before a delivery's transaction. */
interface ApplyContext {
  /** The customer e-mail (lower case). */
  email: string;
  /** The subscription variant's billing interval from the API, when it was looked up. */
  interval: VariantInterval | null;
}

/** Applies an accepted delivery in `tx` → the effects (short words) for the answer and the log. */
async function applyDelivery(
  tx: Queryable,
  d: Delivery,
  ctx: ApplyContext,
  now: Date,
): Promise<{ effects: string[]; email: string }> {
  const type = dataTypeOf(d.event);
  if (type === 'subscriptions') {
    return applyLemonSqueezySubscription(
      tx,
      d,
      now,
      `webhook.lemonsqueezy.${d.event}`,
      ctx.interval,
    );
  }
  if (type === 'subscription-invoices') return applyInvoice(tx, d, ctx, now);
  return applyOrder(tx, d, now);
}

/**
 * Applies one subscription object (`d.data`, the shape of a subscription_* delivery's `data`) in
 * `tx` by the rules of the module doc: customer, subscription row, lifecycle rows, access, forum
 * job and live events. `reason` names the cause in the forum job ('webhook.lemonsqueezy.<event>',
 * 'reconcile.lemonsqueezy'). Throws 400 when the attributes do not validate.
 */
export async function applyLemonSqueezySubscription(
  tx: Queryable,
  d: Pick<Delivery, 'dataId' | 'data' | 'customData'>,
  now: Date,
  reason: string,
  interval: VariantInterval | null = null,
): Promise<{ effects: string[]; email: string }> {
  const a = validate(subscriptionAttributes, d.data.attributes);
  const email = a.user_email;
  const effects: string[] = [];
  const customerId = await upsertCustomer(tx, email, blankToNull(a.user_name), now);
  const stored = await findSubscription(tx, d.dataId);
  const status = storedProviderStatus(a.status);
  const periodEnd =
    a.status === 'cancelled' || a.status === 'expired'
      ? (a.ends_at ?? a.renews_at)
      : (a.renews_at ?? a.ends_at);
  const storedAt = stored?.stored_updated_at ? Date.parse(stored.stored_updated_at) : NaN;
  const stale = stored !== null && Number.isFinite(storedAt) && a.updated_at.getTime() < storedAt;
  const cadence = await cadenceOf(tx, a, interval, stored);

  let subscriptionId: number;
  if (!stored) {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, source,
                                  amount_cents, currency, start_date, current_period_end, ends_at,
                                  payload, created_at, updated_at)
       VALUES ($1, 'lemonsqueezy', $2, $3, $4, $5, $11, NULL, 'USD', $6, $7, $8, $9, $10, $10)
       RETURNING id`,
      [
        customerId,
        d.dataId,
        status,
        cadence,
        planOf(a),
        a.created_at,
        periodEnd,
        a.ends_at,
        JSON.stringify(d.data),
        now,
        attribution(d.customData).source,
      ],
    );
    subscriptionId = Number(r.rows[0]?.id);
    effects.push('subscription.created');
  } else {
    subscriptionId = stored.id;
    if (stale) {
      effects.push('stale');
    } else {
      await tx.query(
        `UPDATE subscriptions SET customer_id = $2, status = $3, cadence = $4, plan = $5,
                start_date = LEAST(start_date, $6), current_period_end = $7, ends_at = $8,
                payload = $9, updated_at = $10, source = COALESCE(source, $11)
          WHERE id = $1`,
        [
          subscriptionId,
          customerId,
          status,
          cadence,
          planOf(a),
          a.created_at,
          periodEnd,
          a.ends_at,
          JSON.stringify(d.data),
          now,
          attribution(d.customData).source,
        ],
      );
      effects.push('subscription.updated');
    }
  }

  const amount = stored?.amount_cents ?? null;
  const cur = stored?.currency ?? 'USD';
  if (await ensureNewEvent(tx, subscriptionId, a.created_at, null, null, true)) {
    await emitSubscriptionEvent(tx, 'subscription.new', {
      email,
      provider: 'lemonsqueezy',
      amountCents: amount,
      currency: cur,
      at: now,
    });
    effects.push('event.new');
  }
  if (stale) return { effects, email };

  const previous = stored?.status ?? null;
  if (status === 'cancelled' && previous !== 'cancelled') {
    await addSubscriptionEvent(tx, subscriptionId, 'cancellation', a.updated_at, null, null);
    await emitSubscriptionEvent(tx, 'subscription.cancelled', {
      email,
      provider: 'lemonsqueezy',
      amountCents: amount,
      currency: cur,
      at: now,
    });
    effects.push('event.cancellation');
  }
  if (status === 'expired' && previous !== 'expired') {
    await addSubscriptionEvent(
      tx,
      subscriptionId,
      'expiration',
      a.ends_at ?? a.updated_at,
      null,
      null,
    );
    effects.push('event.expiration');
  }
  const access = await applyAccess(tx, {
    customerId,
    subscriptionId,
    email,
    provider: 'lemonsqueezy',
    target: accessFor(a.status, a, now),
    reason,
    now,
    amountCents: amount,
    currency: cur,
  });
  if (access?.forum) effects.push(`access.${access.forum}`);
  return { effects, email };
}

async function applyInvoice(
  tx: Queryable,
  d: Delivery,
  ctx: ApplyContext,
  now: Date,
): Promise<{ effects: string[]; email: string }> {
  const inv = validate(invoiceAttributes, d.data.attributes);
  const email = ctx.email;
  const effects: string[] = [];
  if (d.event === 'subscription_payment_failed') return { effects: ['none'], email };
  // _success and _recovered may both report one invoice: count it once.
  if (!(await claimDedup(tx, `lemonsqueezy:invoice:${d.dataId}`, 'lemonsqueezy', now))) {
    return { effects: ['invoice.already_counted'], email };
  }
  const customerId = await upsertCustomer(tx, email, blankToNull(inv.user_name), now);
  let stored = await findSubscription(tx, inv.subscription_id);
  let subscriptionId: number;
  if (!stored) {
    // The invoice came before its subscription: a placeholder the subscription object fills in.
    const r = await tx.query<{ id: number }>(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan,
                                  amount_cents, currency, start_date, payload, created_at, updated_at)
       VALUES ($1, 'lemonsqueezy', $2, 'active', 'monthly', 'unknown', $3, $4, $5, '{}'::jsonb, $6, $6)
       RETURNING id`,
      [customerId, inv.subscription_id, inv.total, inv.currency, inv.created_at, now],
    );
    subscriptionId = Number(r.rows[0]?.id);
    effects.push('subscription.placeholder');
    const access = await applyAccess(tx, {
      customerId,
      subscriptionId,
      email,
      provider: 'lemonsqueezy',
      target: { kind: 'grant' },
      reason: `webhook.lemonsqueezy.${d.event}`,
      now,
      amountCents: inv.total,
      currency: inv.currency,
    });
    if (access?.forum) effects.push(`access.${access.forum}`);
    stored = null;
  } else {
    subscriptionId = stored.id;
    await tx.query(
      'UPDATE subscriptions SET amount_cents = $2, currency = $3, updated_at = $4 WHERE id = $1',
      [subscriptionId, inv.total, inv.currency, now],
    );
  }
  const attrs = (stored?.payload?.attributes ?? {}) as Record<string, unknown>;
  const who = attribution(d.customData);

  if (inv.billing_reason === 'initial') {
    const inserted = await ensureNewEvent(
      tx,
      subscriptionId,
      inv.created_at,
      inv.total,
      inv.currency,
      false,
    );
    if (inserted) {
      await emitSubscriptionEvent(tx, 'subscription.new', {
        email,
        provider: 'lemonsqueezy',
        amountCents: inv.total,
        currency: inv.currency,
        at: now,
      });
      effects.push('event.new');
    } else {
      effects.push('amount');
    }
    return { effects, email };
  }
  if (inv.billing_reason === 'renewal') {
    await addSubscriptionEvent(
      tx,
      subscriptionId,
      'renewal',
      inv.created_at,
      inv.total,
      inv.currency,
    );
    await emitSubscriptionEvent(tx, 'subscription.renewal', {
      email,
      provider: 'lemonsqueezy',
      amountCents: inv.total,
      currency: inv.currency,
      at: now,
    });
    effects.push('event.renewal');
  }
  if (inv.total > 0) {
    await recordIsr(
      tx,
      {
        source: 'lemonsqueezy',
        kind: 'rebill',
        orderId: blankToNull(attrs.order_id),
        receipt: `inv-${d.dataId}`,
        productId: blankToNull(attrs.product_id),
        amountCents: inv.total,
        currency: inv.currency,
        affiliate: who.affiliate,
        subid: who.subid,
        campaign: who.campaign,
        email,
        referrer: who.referrer,
        at: inv.created_at,
        raw: {
          event: d.event,
          invoice_id: d.dataId,
          subscription_id: inv.subscription_id,
          custom_data: d.customData,
        },
      },
      now,
    );
    effects.push('isr.rebill');
  }
  return { effects, email };
}

async function applyOrder(
  tx: Queryable,
  d: Delivery,
  now: Date,
): Promise<{ effects: string[]; email: string }> {
  const o = validate(orderAttributes, d.data.attributes);
  const email = o.user_email;
  const effects: string[] = [];
  await upsertCustomer(tx, email, blankToNull(o.user_name), now);
  const who = attribution(d.customData);
  const sub = await tx.query<{ id: number }>(
    `SELECT id FROM subscriptions WHERE provider = 'lemonsqueezy'
        AND payload -> 'attributes' ->> 'order_id' = $1 ORDER BY id LIMIT 1`,
    [d.dataId],
  );
  const subscriptionId = sub.rows[0]?.id ?? null;
  const base = {
    source: 'lemonsqueezy' as const,
    orderId: d.dataId,
    receipt: blankToNull(o.order_number) ?? blankToNull(o.identifier),
    productId: blankToNull(o.first_order_item?.product_id),
    currency: o.currency,
    affiliate: who.affiliate,
    subid: who.subid,
    campaign: who.campaign,
    email,
    referrer: who.referrer,
    raw: { event: d.event, order_id: d.dataId, custom_data: d.customData },
  };
  if (d.event === 'order_created') {
    if (o.total > 0 && (o.status ?? 'paid') !== 'failed' && o.status !== 'pending') {
      await recordIsr(tx, { ...base, kind: 'sale', amountCents: o.total, at: o.created_at }, now);
      effects.push('isr.sale');
    }
    if (subscriptionId !== null) {
      await ensureNewEvent(tx, subscriptionId, o.created_at, o.total, o.currency, false);
      await tx.query(
        `UPDATE subscriptions SET amount_cents = COALESCE(amount_cents, $2), currency = $3 WHERE id = $1`,
        [subscriptionId, o.total, o.currency],
      );
    }
    return { effects, email };
  }
  const refunded = o.refunded_amount && o.refunded_amount > 0 ? o.refunded_amount : o.total;
  if (refunded > 0) {
    await recordIsr(tx, { ...base, kind: 'refund', amountCents: refunded, at: o.updated_at }, now);
    effects.push('isr.refund');
  }
  if (subscriptionId !== null) {
    await addSubscriptionEvent(tx, subscriptionId, 'refund', o.updated_at, refunded, o.currency);
    effects.push('event.refund');
  }
  return { effects, email };
}

/** The signing secret in use: the configured one, else one random secret per process (unforgeable). */
function secretOf(deps: AppDeps): string {
  return deps.config.lemonSqueezyWebhookSecret ?? fallbackSecret;
}
const fallbackSecret = randomBytes(32).toString('hex');

/** The customer e-mail of LemonSqueezy subscription `providerId`, or null when it is not known here. */
async function emailOfSubscription(db: Queryable, providerId: string): Promise<string | null> {
  const r = await db.query<{ email: string }>(
    `SELECT c.email FROM subscriptions s JOIN customers c ON c.id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND s.provider_id = $1 LIMIT 1`,
    [providerId],
  );
  return r.rows[0]?.email ?? null;
}

/**
 * Handles one delivery already read as `raw` bytes with its `signature` header → the answer, or
 * throws 401 (not verified) or 400 (verified but invalid; receiveDelivery acknowledges it). Fills in `facts` as it learns them and records an accepted delivery
 * in the inbox within its transaction. Exported for the bench and tests that skip HTTP.
 */
export async function handleLemonSqueezyDelivery(
  deps: AppDeps,
  raw: Buffer,
  signature: string | undefined,
  facts: DeliveryFacts = newDeliveryFacts(deps, 'lemonsqueezy', raw.byteLength),
): Promise<WebhookAnswer> {
  if (!verifyLemonSqueezySignature(raw, signature, secretOf(deps))) {
    throw unauthorized('Invalid or missing X-Signature');
  }
  facts.body = raw.toString('utf8');
  const { answer } = await applyLemonSqueezyBody(deps, facts.body, facts, async (tx, result) => {
    await recordDelivery(tx, facts, result);
  });
  return answer;
}

/**
 * Parses and applies the verified body `text` of a delivery → the answer and the inbox result;
 * `record` runs in the delivery's transaction with the result (the endpoint inserts the inbox row,
 * a replay updates the stored one). Throws 400 for an invalid body, after filling in what `facts`
 * could learn. The one code path of a delivery and its replay.
 */
export async function applyLemonSqueezyBody(
  deps: AppDeps,
  text: string,
  facts: DeliveryFacts,
  record: InboxRecorder,
): Promise<{ answer: WebhookAnswer; result: DeliveryResult }> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  // What the body says before it is checked, so an invalid delivery's inbox row can be found.
  facts.event = looseText(body, 'meta', 'event_name')?.slice(0, 60) ?? null;
  facts.email = looseText(body, 'data', 'attributes', 'user_email')?.toLowerCase() ?? null;
  const parsed = parseLemonSqueezyDelivery(storableJson(body));
  facts.event = parsed.event;
  facts.email = parsed.email;
  facts.subscriptionId = parsed.subscriptionId;
  const now = deps.now();
  const ignore = async (reason: string) => {
    const result: DeliveryResult = {
      outcome: 'ignored',
      httpStatus: 200,
      error: reason,
      effects: [],
    };
    await deps.db.transaction((tx) => record(tx, result));
    const answer: WebhookAnswer = {
      ok: true,
      provider: 'lemonsqueezy',
      event: parsed.event,
      duplicate: false,
      effects: [],
      ignored: reason,
    };
    return { answer, result };
  };
  if ('ignored' in parsed) return ignore(parsed.ignored);
  const delivery = parsed;
  const email =
    delivery.email ??
    (delivery.subscriptionId ? await emailOfSubscription(deps.db, delivery.subscriptionId) : null);
  if (email === null) {
    return ignore(
      `no user_email, and subscription ${delivery.subscriptionId ?? '(none)'} is not known here`,
    );
  }
  facts.email = email;
  const attrs = delivery.data.attributes as Record<string, unknown>;
  const interval =
    dataTypeOf(delivery.event) === 'subscriptions' &&
    cadenceOfNames(blankToNull(attrs.variant_name), blankToNull(attrs.product_name)) === null
      ? await lookUpVariantInterval(deps, blankToNull(attrs.variant_id))
      : null;
  const key = lemonSqueezyDedupKey(delivery);
  facts.dedupKey = key;
  return deps.db.transaction(async (tx) => {
    await lockCustomer(tx, email);
    const duplicate = await claimOrDuplicate(tx, 'lemonsqueezy', delivery.event, key, now, record);
    if (duplicate) return duplicate;
    const { effects } = await applyDelivery(tx, delivery, { email, interval }, now);
    await insertLog(tx, now, 'info', `webhook.lemonsqueezy.${delivery.event}`, {
      provider: 'lemonsqueezy',
      event: delivery.event,
      id: delivery.dataId,
      email,
      effects,
    });
    const result: DeliveryResult = { outcome: 'applied', httpStatus: 200, error: null, effects };
    await record(tx, result);
    const answer: WebhookAnswer = {
      ok: true,
      provider: 'lemonsqueezy',
      event: delivery.event,
      duplicate: false,
      effects,
    };
    return { answer, result };
  });
}

/** The router of POST /webhooks/lemonsqueezy (mounted at the server root, no session). */
export function lemonSqueezyWebhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  const warn = refusalWarner(deps, 'lemonsqueezy');
  app.post('/webhooks/lemonsqueezy', async (c) => {
    try {
      const answer = await receiveDelivery(c, deps, 'lemonsqueezy', (raw, facts) =>
        handleLemonSqueezyDelivery(deps, raw, c.req.header('x-signature'), facts),
      );
      return c.json(answer, 200);
    } catch (err) {
      if (err instanceof Error && 'status' in err && (err as { status: number }).status === 401) {
        warn('bad signature');
      }
      throw err;
    }
  });
  return app;
}
