/**
 * Webhook inbox fixtures (docs/api.md "Webhook deliveries"): wire rows as the reference server
 * sends them, and the same deliveries normalised for the view stories. Payloads are the providers'
 * documented shapes: LemonSqueezy's Subscription object (tests/msw/provider) and a ClickBank v7
 * Instant Notification.
 */
import subscription from './provider/lemonsqueezy-subscription.json';
import type {
  DeliveryOutcome,
  WebhookDelivery,
  WebhookDeliveryDetail,
} from '../../src/domain/webhooks';

/** One GET /webhook-deliveries row as sent. */
export interface WebhookRowWire {
  id: number;
  received_at: string;
  provider: 'lemonsqueezy' | 'clickbank';
  event: string | null;
  outcome: DeliveryOutcome;
  http_status: number;
  error: string | null;
  email: string | null;
  subscription_id: string | null;
  body_size: number;
  has_body: boolean;
  effects: string[];
  replayed_at: string | null;
  replay_outcome: DeliveryOutcome | null;
}

const at = (minutesBefore: number) =>
  new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - minutesBefore * 60_000).toISOString();

function row(
  id: number,
  minutesBefore: number,
  rest: Partial<WebhookRowWire> & Pick<WebhookRowWire, 'provider' | 'event' | 'outcome'>,
): WebhookRowWire {
  const status =
    rest.outcome === 'refused_signature'
      ? 401
      : rest.outcome === 'invalid'
        ? 400
        : rest.outcome === 'failed'
          ? 500
          : 200;
  return {
    id,
    received_at: at(minutesBefore),
    http_status: status,
    error: null,
    email: 'ada@example.com',
    subscription_id: null,
    body_size: 1873,
    has_body: rest.outcome !== 'refused_signature',
    effects: [],
    replayed_at: null,
    replay_outcome: null,
    ...rest,
  };
}

/** Twelve deliveries, newest first: every outcome, both providers. */
export const WEBHOOK_ROWS: WebhookRowWire[] = [
  row(112, 1, {
    provider: 'lemonsqueezy',
    event: 'subscription_created',
    outcome: 'applied',
    subscription_id: '1',
    effects: ['subscription.created', 'event.new', 'access.grant'],
  }),
  row(111, 3, {
    provider: 'lemonsqueezy',
    event: 'subscription_created',
    outcome: 'duplicate',
    subscription_id: '1',
  }),
  row(110, 7, {
    provider: 'clickbank',
    event: 'SALE',
    outcome: 'applied',
    email: 'jane.buyer@example.com',
    subscription_id: 'ABCD1234',
    body_size: 2210,
    effects: ['subscription.created', 'order', 'event.new', 'access.grant', 'isr.sale'],
  }),
  row(109, 12, {
    provider: 'lemonsqueezy',
    event: 'license_key_created',
    outcome: 'ignored',
    error: 'license keys do not change subscriptions or forum access',
  }),
  row(108, 20, {
    provider: 'clickbank',
    event: 'TEST',
    outcome: 'ignored_test',
    email: null,
    error: 'a test notification changes nothing',
    effects: ['test'],
  }),
  row(107, 31, {
    provider: 'lemonsqueezy',
    event: null,
    outcome: 'refused_signature',
    email: null,
    error: 'Invalid or missing X-Signature',
    body_size: 1402,
  }),
  row(106, 44, {
    provider: 'clickbank',
    event: 'SALE',
    outcome: 'invalid',
    email: null,
    error: 'customer.billing.email is required',
  }),
  row(105, 58, {
    provider: 'lemonsqueezy',
    event: 'subscription_updated',
    outcome: 'failed',
    subscription_id: '1',
    error: 'Error: connection terminated unexpectedly',
    replayed_at: at(2),
    replay_outcome: 'applied',
  }),
  row(104, 75, {
    provider: 'clickbank',
    event: 'ABANDONED_ORDER',
    outcome: 'ignored',
    email: 'grace@example.com',
    error: 'an abandoned cart is no sale',
  }),
  row(103, 96, {
    provider: 'lemonsqueezy',
    event: 'subscription_payment_success',
    outcome: 'applied',
    email: 'grace@example.com',
    subscription_id: '42',
    effects: ['event.renewal', 'isr.rebill'],
  }),
  row(102, 130, {
    provider: 'clickbank',
    event: 'CANCEL-REBILL',
    outcome: 'applied',
    email: 'jane.buyer@example.com',
    subscription_id: 'ABCD1234',
    effects: ['order', 'event.cancellation'],
  }),
  row(101, 190, {
    provider: 'lemonsqueezy',
    event: 'order_created',
    outcome: 'applied',
    email: 'linus@example.com',
    effects: ['isr.sale'],
  }),
];

/** `count` deliveries cycling through the twelve, with fresh ids and times (paging stories). */
export function makeWebhookRows(count: number): WebhookRowWire[] {
  return Array.from({ length: count }, (_, i) => {
    const base = WEBHOOK_ROWS[i % WEBHOOK_ROWS.length]!;
    return { ...base, id: 5000 - i, received_at: at(i * 4 + 1) };
  });
}

/** The wire body of a delivery's detail (GET /webhook-deliveries/:id). */
export function webhookDetailWire(r: WebhookRowWire): Record<string, unknown> {
  return {
    ...r,
    headers: {
      'content-type': 'application/json',
      'user-agent': r.provider === 'clickbank' ? 'ClickBank-INS' : 'LemonSqueezy-Hookshot',
      ...(r.provider === 'lemonsqueezy' && r.event ? { 'x-event-name': r.event } : {}),
    },
    body: r.has_body ? payloadOf(r) : null,
  };
}

/** A ClickBank v7 Instant Notification, decrypted. */
const CLICKBANK_SALE = {
  transactionTime: '2026-11-20T11:53:00+00:00',
  receipt: 'ABCD1234',
  transactionType: 'SALE',
  vendor: 'mgclub',
  affiliate: 'topaff',
  role: 'VENDOR',
  totalAccountAmount: 13.3,
  paymentMethod: 'VISA',
  totalOrderAmount: 19,
  currency: 'USD',
  lineItems: [
    {
      itemNo: 'mg-pro-m',
      productTitle: 'Pro Membership (Monthly)',
      recurring: true,
      accountAmount: 13.3,
      paymentPlan: { rebillStatus: 'ACTIVE', rebillFrequency: 'MONTHLY', rebillAmount: 19 },
    },
  ],
  customer: {
    billing: { firstName: 'JANE', lastName: 'BUYER', email: 'jane.buyer@example.com' },
  },
  version: 7,
  attemptCount: 1,
};

function payloadOf(r: WebhookRowWire): unknown {
  if (r.provider === 'clickbank') return { ...CLICKBANK_SALE, transactionType: r.event };
  return {
    meta: { event_name: r.event, test_mode: false },
    data: {
      ...subscription,
      id: r.subscription_id ?? subscription.id,
      attributes: { ...subscription.attributes, user_email: r.email },
    },
  };
}

/** The view's shape of a wire row (what src/api/webhooks.ts makes of it). */
export function toDelivery(r: WebhookRowWire): WebhookDelivery {
  return {
    id: String(r.id),
    receivedAt: r.received_at,
    provider: r.provider,
    event: r.event,
    outcome: r.outcome,
    httpStatus: r.http_status,
    error: r.error,
    email: r.email,
    subscriptionId: r.subscription_id,
    bodySize: r.body_size,
    hasBody: r.has_body,
    effects: r.effects,
    replayedAt: r.replayed_at,
    replayOutcome: r.replay_outcome,
  };
}

/** The view's shape of a delivery's detail. */
export function toDeliveryDetail(r: WebhookRowWire): WebhookDeliveryDetail {
  const wire = webhookDetailWire(r);
  return {
    ...toDelivery(r),
    headers: wire.headers as Record<string, string>,
    body: wire.body ?? null,
  };
}
