/**
 * Builders of provider deliveries for the webhook tests, the bench and the demo sender: LemonSqueezy
 * bodies built from the provider's own Subscription object (tests/msw/provider/
 * lemonsqueezy-subscription.json, the API reference's example) and signed like the store signs
 * them, and ClickBank Instant Notifications (JSON v6/v7 shape, as the seed writes them) encrypted
 * like ClickBank encrypts them. The server never imports this module.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encryptIns } from '../clickbank/ins';
import { signLemonSqueezy, type LemonSqueezyEvent } from './lemonsqueezy';

const here = path.dirname(fileURLToPath(import.meta.url));
const providerDir = path.join(here, '..', '..', 'tests', 'msw', 'provider');

/** The provider's example Subscription object ({type, id, attributes}), freshly parsed (safe to mutate). */
export function lemonSqueezySubscriptionFixture(): {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
} {
  return JSON.parse(readFileSync(path.join(providerDir, 'lemonsqueezy-subscription.json'), 'utf8'));
}

/** The clickbankgo INS test vector (secretKey, iv, notification, expectedJson). */
export function clickbankTestVector(): {
  secretKey: string;
  iv: string;
  notification: string;
  expectedJson: Record<string, unknown>;
} {
  return JSON.parse(
    readFileSync(path.join(providerDir, 'clickbank-ins-testvector-clickbankgo.json'), 'utf8'),
  );
}

/** LemonSqueezy time format ('2026-11-20T12:00:00.000000Z') of `d`. */
export const lsTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** A signed delivery: the exact body bytes and the headers LemonSqueezy sends with them. */
export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** Serialises `{meta, data}` and signs it with `secret` → SignedDelivery (X-Event-Name, X-Signature). */
export function signedLemonSqueezyDelivery(
  event: LemonSqueezyEvent,
  data: unknown,
  secret: string,
  customData?: Record<string, unknown>,
): SignedDelivery {
  const body = JSON.stringify({
    meta: {
      event_name: event,
      test_mode: false,
      ...(customData ? { custom_data: customData } : {}),
    },
    data,
  });
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Event-Name': event,
      'X-Signature': signLemonSqueezy(body, secret),
    },
  };
}

/**
 * A subscription object from the fixture with `id` and `attrs` merged into its attributes (e.g.
 * user_email, status, created_at/updated_at as LemonSqueezy timestamps).
 */
export function lemonSqueezySubscription(
  id: string,
  attrs: Record<string, unknown>,
): { type: string; id: string; attributes: Record<string, unknown> } {
  const base = lemonSqueezySubscriptionFixture();
  return { ...base, id, attributes: { ...base.attributes, ...attrs } };
}

/** A subscription invoice object (data of subscription_payment_*), fields as the LemonSqueezy API names them. */
export function lemonSqueezyInvoice(
  id: string,
  attrs: {
    subscription_id: string | number;
    user_email: string;
    billing_reason: 'initial' | 'renewal' | 'updated';
    total: number;
    currency?: string;
    at: Date;
  },
): { type: string; id: string; attributes: Record<string, unknown> } {
  const { at, ...rest } = attrs;
  return {
    type: 'subscription-invoices',
    id,
    attributes: {
      store_id: 1,
      customer_id: 1,
      user_name: 'John Doe',
      card_brand: 'visa',
      card_last_four: '4242',
      currency: 'USD',
      currency_rate: '1.00000000',
      status: 'paid',
      status_formatted: 'Paid',
      refunded: false,
      refunded_at: null,
      subtotal: attrs.total,
      discount_total: 0,
      tax: 0,
      created_at: lsTime(at),
      updated_at: lsTime(at),
      test_mode: false,
      ...rest,
    },
  };
}

/** An order object (data of order_created / order_refunded). */
export function lemonSqueezyOrder(
  id: string,
  attrs: {
    user_email: string;
    total: number;
    currency?: string;
    at: Date;
    refunded?: boolean;
    product_id?: number;
  },
): { type: string; id: string; attributes: Record<string, unknown> } {
  return {
    type: 'orders',
    id,
    attributes: {
      store_id: 1,
      customer_id: 1,
      identifier: `id-${id}`,
      order_number: Number(id),
      user_name: 'John Doe',
      user_email: attrs.user_email,
      currency: attrs.currency ?? 'USD',
      subtotal: attrs.total,
      total: attrs.total,
      status: attrs.refunded ? 'refunded' : 'paid',
      refunded: attrs.refunded ?? false,
      refunded_amount: attrs.refunded ? attrs.total : 0,
      first_order_item: {
        id: 1,
        order_id: Number(id),
        product_id: attrs.product_id ?? 1,
        variant_id: 1,
        product_name: 'Lemonade',
        variant_name: 'Citrus Blast',
        price: attrs.total,
      },
      created_at: lsTime(attrs.at),
      updated_at: lsTime(attrs.at),
      test_mode: false,
    },
  };
}

/** ClickBank basic time format ('20220810T162015-0700') of `d` in UTC offset -0700 when `basic`, else ISO with +00:00. */
export function cbTime(d: Date, basic = false): string {
  if (!basic) return `${d.toISOString().slice(0, 19)}+00:00`;
  const local = new Date(d.getTime() - 7 * 3_600_000).toISOString();
  return `${local.slice(0, 4)}${local.slice(5, 7)}${local.slice(8, 10)}T${local.slice(11, 13)}${local.slice(14, 16)}${local.slice(17, 19)}-0700`;
}

/** A ClickBank notification (JSON v7 shape) for `email`; amounts in currency units, as ClickBank sends them. */
export function clickbankNotification(args: {
  type: string;
  receipt: string;
  email: string;
  at: Date;
  amount?: number;
  basicTime?: boolean;
  affiliate?: string | null;
  trackingCode?: string | null;
  nextPaymentAt?: Date | null;
  sku?: string;
  title?: string;
  vendorVariables?: Record<string, string>;
}): Record<string, unknown> {
  const amount = args.amount ?? 19;
  const sign = args.type === 'RFND' || args.type === 'CGBK' ? -1 : 1;
  const person = {
    firstName: 'JANE',
    lastName: 'BUYER',
    fullName: 'Jane Buyer',
    email: args.email,
  };
  return {
    transactionTime: cbTime(args.at, args.basicTime),
    receipt: args.receipt,
    transactionType: args.type,
    vendor: 'mgclub',
    ...(args.affiliate ? { affiliate: args.affiliate } : {}),
    role: 'VENDOR',
    totalAccountAmount: (sign * Math.round(amount * 70)) / 100,
    paymentMethod: 'VISA',
    totalOrderAmount: sign * amount,
    totalTaxAmount: 0,
    totalShippingAmount: 0,
    currency: 'USD',
    orderLanguage: 'EN',
    trackingCodes: args.trackingCode ? [args.trackingCode] : [],
    lineItems: [
      {
        itemNo: args.sku ?? 'mg-pro-m',
        productTitle: args.title ?? 'Pro Membership (Monthly)',
        shippable: false,
        recurring: true,
        accountAmount: (sign * Math.round(amount * 70)) / 100,
        quantity: 1,
        lineItemType: 'ORIGINAL',
        paymentPlan: {
          rebillStatus: args.type === 'CANCEL-REBILL' ? 'CANCELED' : 'ACTIVE',
          rebillFrequency: 'MONTHLY',
          rebillAmount: amount,
          paymentsProcessed: 1,
          paymentsRemaining: 998,
          ...(args.nextPaymentAt ? { nextPaymentDate: cbTime(args.nextPaymentAt, true) } : {}),
        },
      },
    ],
    customer: {
      shipping: { ...person, address: {} },
      billing: { ...person, address: { state: 'TX', postalCode: '76520', country: 'US' } },
    },
    upsell: null,
    version: 7.0,
    attemptCount: 1,
    ...(args.vendorVariables ? { vendorVariables: args.vendorVariables } : {}),
  };
}

/** Encrypts `notification` with `secretKey` → the JSON body ClickBank posts ({notification, iv}). */
export function encryptedClickbankBody(notification: unknown, secretKey: string): string {
  return JSON.stringify(encryptIns(JSON.stringify(notification), secretKey));
}
