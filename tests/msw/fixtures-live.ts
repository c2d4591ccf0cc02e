/**
 * Live stream messages (CONTRACT.md "Live events") as the reference server sends them: the JSON of
 * each `data:` line, with its `id:`. Times are relative to the pinned clock FIXTURE_NOW.
 */
import { FIXTURE_NOW } from './fixtures';

/** One `data:` JSON of the stream (snake_case, as on the wire). */
export interface LiveMessageFixture {
  id: string;
  type: string;
  email?: string | null;
  provider?: string | null;
  amount_cents?: number | null;
  currency?: string | null;
  at?: string | null;
}

const NOW_MS = Date.parse(FIXTURE_NOW);

/** The ISO UTC instant `minutes` before FIXTURE_NOW. */
export function minutesAgo(minutes: number): string {
  return new Date(NOW_MS - minutes * 60_000).toISOString();
}

/** One message of each type, newest first (the order the feed shows them). */
export const LIVE_MESSAGES_EACH_TYPE: readonly LiveMessageFixture[] = [
  {
    id: '106',
    type: 'subscription.new',
    email: 'ada.lovelace@example.com',
    provider: 'lemonsqueezy',
    amount_cents: 4700,
    currency: 'USD',
    at: minutesAgo(0.5),
  },
  {
    id: '105',
    type: 'access.granted',
    email: 'ada.lovelace@example.com',
    provider: 'lemonsqueezy',
    amount_cents: null,
    currency: null,
    at: minutesAgo(1),
  },
  {
    id: '104',
    type: 'subscription.renewal',
    email: 'grace.hopper@example.com',
    provider: 'clickbank',
    amount_cents: 9700,
    currency: 'USD',
    at: minutesAgo(12),
  },
  {
    id: '103',
    type: 'isr.event',
    email: 'grace.hopper@example.com',
    provider: 'clickbank',
    amount_cents: 9700,
    currency: 'USD',
    at: minutesAgo(12),
  },
  {
    id: '102',
    type: 'subscription.cancelled',
    email: 'alan.turing@example.com',
    provider: 'lemonsqueezy',
    amount_cents: null,
    currency: 'USD',
    at: minutesAgo(95),
  },
  {
    id: '101',
    type: 'access.revoked',
    email: 'alan.turing@example.com',
    provider: 'lemonsqueezy',
    at: minutesAgo(60 * 26),
  },
];

/** Sales in four currencies, and a refund (negative cents). */
export const LIVE_MESSAGES_MIXED_CURRENCIES: readonly LiveMessageFixture[] = [
  {
    id: '205',
    type: 'subscription.new',
    email: 'eu@example.com',
    provider: 'lemonsqueezy',
    amount_cents: 3900,
    currency: 'EUR',
    at: minutesAgo(2),
  },
  {
    id: '204',
    type: 'subscription.renewal',
    email: 'uk@example.com',
    provider: 'lemonsqueezy',
    amount_cents: 12_999,
    currency: 'GBP',
    at: minutesAgo(3),
  },
  {
    id: '203',
    type: 'isr.event',
    email: 'jp@example.com',
    provider: 'clickbank',
    amount_cents: 980_000,
    currency: 'JPY',
    at: minutesAgo(4),
  },
  {
    id: '202',
    type: 'isr.event',
    email: 'refund@example.com',
    provider: 'clickbank',
    amount_cents: -4700,
    currency: 'USD',
    at: minutesAgo(5),
  },
  {
    id: '201',
    type: 'subscription.new',
    email: 'big@example.com',
    provider: 'clickbank',
    amount_cents: 123_456_789,
    currency: 'USD',
    at: minutesAgo(6),
  },
];

/** A very long email and an unknown provider value. */
export const LIVE_MESSAGES_LONG_TEXT: readonly LiveMessageFixture[] = [
  {
    id: '301',
    type: 'subscription.new',
    email:
      'maximiliane.alexandra.fitzgerald-montgomery.the-third+newsletter-signup@subdomain.example-company.co.uk',
    provider: 'paddle-marketplace-legacy-integration',
    amount_cents: 99_999_999,
    currency: 'USD',
    at: minutesAgo(1),
  },
  {
    id: '300',
    type: 'access.granted',
    email: 'short@example.com',
    provider: 'clickbank',
    at: minutesAgo(2),
  },
];

/** Messages missing their email, amount, currency, provider or time. */
export const LIVE_MESSAGES_MISSING_FIELDS: readonly LiveMessageFixture[] = [
  {
    id: '404',
    type: 'subscription.new',
    provider: 'clickbank',
    amount_cents: 4700,
    at: minutesAgo(1),
  },
  {
    id: '403',
    type: 'subscription.renewal',
    email: 'no-amount@example.com',
    provider: 'lemonsqueezy',
    at: minutesAgo(2),
  },
  {
    id: '402',
    type: 'isr.event',
    email: 'no-currency@example.com',
    amount_cents: 2500,
    at: minutesAgo(3),
  },
  {
    id: '401',
    type: 'subscription.cancelled',
    email: 'no-time@example.com',
    provider: 'clickbank',
  },
];

/** Fifty messages (the feed's cap), cycling through the types, one a minute. */
export const LIVE_MESSAGES_MANY: readonly LiveMessageFixture[] = Array.from(
  { length: 50 },
  (_, i) => {
    const types = [
      'subscription.new',
      'subscription.renewal',
      'isr.event',
      'access.granted',
      'subscription.cancelled',
      'access.revoked',
    ];
    const type = types[i % types.length]!;
    const hasAmount = !type.startsWith('access.') && type !== 'subscription.cancelled';
    return {
      id: String(1000 - i),
      type,
      email: `customer${String(50 - i).padStart(2, '0')}@example.com`,
      provider: i % 2 === 0 ? 'clickbank' : 'lemonsqueezy',
      amount_cents: hasAmount ? 1900 + i * 100 : null,
      currency: hasAmount ? 'USD' : null,
      at: minutesAgo(i * 7),
    };
  },
);
