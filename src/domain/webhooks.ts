/**
 * The webhook inbox (docs/api.md "Webhook deliveries"): every delivery the providers posted, with
 * what became of it. The Webhooks list filters by provider, outcome, event, email and a UTC time
 * range, newest first, 50/100/200 rows. Pure.
 */
import type { ListSpec } from './list';
import type { Tone } from './types';

/** What became of a delivery (docs/api.md outcome table). */
export const DELIVERY_OUTCOMES = [
  'applied',
  'duplicate',
  'ignored',
  'ignored_test',
  'invalid',
  'refused_signature',
  'failed',
] as const;
/** One of DELIVERY_OUTCOMES. */
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** The providers that post webhooks. */
export const WEBHOOK_PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;

/** Operator-facing words for each outcome. */
export const OUTCOME_LABELS: Readonly<Record<DeliveryOutcome, string>> = {
  applied: 'Applied',
  duplicate: 'Duplicate',
  ignored: 'Ignored',
  ignored_test: 'Test',
  invalid: 'Invalid',
  refused_signature: 'Refused (signature)',
  failed: 'Failed',
};

/** Operator-facing provider names. */
export const PROVIDER_LABELS: Readonly<Record<string, string>> = {
  lemonsqueezy: 'LemonSqueezy',
  clickbank: 'ClickBank',
};

/** The tone of an outcome's badge: what needs a look stands out. */
export function outcomeTone(outcome: DeliveryOutcome): Tone {
  switch (outcome) {
    case 'applied':
      return 'success';
    case 'duplicate':
    case 'ignored':
    case 'ignored_test':
      return 'neutral';
    case 'invalid':
    case 'refused_signature':
      return 'warning';
    default:
      return 'danger';
  }
}

/** The Webhooks filter values; '' means "any". `from`/`to` are UTC datetime-local values. */
export interface WebhooksFilters {
  provider: string;
  outcome: string;
  event: string;
  email: string;
  from: string;
  to: string;
}

/** The one order deliveries come in (newest first); not an operator's choice. */
export type WebhooksSortKey = 'received_at';

/** Rows choices and the default. */
export const WEBHOOKS_PAGE_SIZES = [50, 100, 200] as const;
/** 50 rows by default. */
export const WEBHOOKS_DEFAULT_PAGE_SIZE = 50;

/** GET /webhook-deliveries: page, pageSize, provider, outcome, event, email, from, to. */
export const WEBHOOKS_LIST: ListSpec<WebhooksFilters, WebhooksSortKey> = {
  fields: {
    provider: { param: 'provider', kind: 'select', options: WEBHOOK_PROVIDERS },
    outcome: { param: 'outcome', kind: 'select', options: DELIVERY_OUTCOMES },
    event: { param: 'event', kind: 'text' },
    email: { param: 'email', kind: 'text' },
    from: { param: 'from', kind: 'datetime' },
    to: { param: 'to', kind: 'datetime' },
  },
  sortKeys: ['received_at'],
  defaultSort: { key: 'received_at', direction: 'desc' },
  sortEncoding: 'none',
  pageSizes: WEBHOOKS_PAGE_SIZES,
  defaultPageSize: WEBHOOKS_DEFAULT_PAGE_SIZE,
};

/** One delivery as listed, normalised. */
export interface WebhookDelivery {
  id: string;
  /** ISO instant (UTC), or null. */
  receivedAt: string | null;
  provider: string;
  event: string | null;
  outcome: DeliveryOutcome;
  /** The HTTP status the provider was answered. */
  httpStatus: number;
  /** The error answered, or the reason an ignored delivery was not acted on. */
  error: string | null;
  email: string | null;
  subscriptionId: string | null;
  /** Bytes received. */
  bodySize: number;
  /** Whether the verified body is kept (a replay needs it). */
  hasBody: boolean;
  /** What the delivery changed, e.g. ['subscription.created', 'access.grant']. */
  effects: readonly string[];
  /** ISO instant (UTC) of the latest replay, or null. */
  replayedAt: string | null;
  replayOutcome: DeliveryOutcome | null;
}

/** One delivery with its headers and payload. */
export interface WebhookDeliveryDetail extends WebhookDelivery {
  headers: Readonly<Record<string, string>>;
  /** The verified payload (JSON), or null when only its size was kept. */
  body: unknown;
}

/** One page of deliveries. */
export interface WebhookDeliveriesPage {
  rows: WebhookDelivery[];
  /** Matching deliveries, counted up to a cap (see isTotalCapped). */
  total: number;
  totalPages: number;
  /** The server stopped counting at `total`: show 'N+'. */
  isTotalCapped: boolean;
}

/** What a replay did. */
export interface ReplayResult {
  outcome: DeliveryOutcome;
  effects: readonly string[];
  error: string | null;
}

/** Whether `value` is one of DELIVERY_OUTCOMES. */
export function isDeliveryOutcome(value: unknown): value is DeliveryOutcome {
  return typeof value === 'string' && (DELIVERY_OUTCOMES as readonly string[]).includes(value);
}

/** A body size in bytes as operators read it: '512 B', '1.8 KiB', '256.0 KiB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** What a replay result says in one sentence. */
export function replaySummary(result: ReplayResult): string {
  switch (result.outcome) {
    case 'applied':
      return result.effects.length > 0
        ? `Applied: ${result.effects.join(', ')}.`
        : 'Applied; nothing needed to change.';
    case 'duplicate':
      return 'Already applied: nothing changed.';
    case 'ignored':
    case 'ignored_test':
      return `Ignored: ${result.error ?? 'nothing for this server to do'}.`;
    default:
      return `${OUTCOME_LABELS[result.outcome]}: ${result.error ?? 'the replay did not apply'}.`;
  }
}
