/**
 * One customer, whole (docs/api.md "Customers" and "Search"): the customer page's record, its
 * merged timeline, and the find-anything search's results. Pure types and rules; the wire is
 * normalised in src/api/customers.ts.
 */
import type { SubscriptionRow } from './types';

/** The kinds of timeline entry, in the order the filter chips show them. */
export const TIMELINE_KINDS = [
  'webhook',
  'subscription',
  'payment',
  'refund',
  'access',
  'forum',
  'isr',
  'log',
] as const;

/** One kind of timeline entry (GET /customers/:email/timeline `kind`). */
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** Each kind's chip and badge label. */
export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  webhook: 'Webhook',
  subscription: 'Subscription',
  payment: 'Payment',
  refund: 'Refund',
  access: 'Access',
  forum: 'Forum',
  isr: 'ISR',
  log: 'Log',
};

/** Whether `value` names a timeline kind. */
export function isTimelineKind(value: unknown): value is TimelineKind {
  return typeof value === 'string' && (TIMELINE_KINDS as readonly string[]).includes(value);
}

/** The URL parameter that keeps the timeline's kind chips (`?kind=webhook,access`). */
export const TIMELINE_KIND_PARAM = 'kind';

/**
 * The chosen kinds from the URL's `kind` parameter, in TIMELINE_KINDS order; unknown names and
 * repeats are dropped, and none (or only unknown ones) means every kind: [].
 */
export function parseTimelineKinds(param: string | null): TimelineKind[] {
  if (!param) return [];
  const named = new Set(param.split(',').map((part) => part.trim()));
  return TIMELINE_KINDS.filter((kind) => named.has(kind));
}

/** The `kind` parameter for a choice of kinds: '' (no parameter) for every kind. */
export function timelineKindsParam(kinds: readonly TimelineKind[]): string {
  return TIMELINE_KINDS.filter((kind) => kinds.includes(kind)).join(',');
}

/** The console path of a customer's page (relative to /admin): '/customers/a%40b.com'. */
export function customerPath(email: string): string {
  return `/customers/${encodeURIComponent(email.trim())}`;
}

/** The customer page's header facts (GET /customers/:email `customer`). */
export interface CustomerSummary {
  email: string;
  name: string | null;
  /** Providers with a subscription or order of this customer: 'lemonsqueezy', 'clickbank'. */
  providers: readonly string[];
  mgStatus: string | null;
  /** Server-given label that takes precedence over mgStatus (as on Users). */
  mgStatusLabel: string | null;
  providerStatus: string | null;
  cadence: string | null;
  /** When forum access ends (ISO UTC), null when open-ended or none. */
  expiresAt: string | null;
  /** End of the current billing period (ISO UTC), named by Revoke at renewal. */
  currentPeriodEnd: string | null;
  createdAt: string | null;
  /** Net lifetime revenue in integer cents of `currency` (the reporting currency). */
  lifetimeRevenueCents: number;
  /** The reporting currency (ISO 4217). */
  currency: string;
}

/** One ClickBank order of the customer (its receipt and what it was). */
export interface CustomerOrder {
  receipt: string;
  /** ClickBank's transactionType, e.g. 'SALE', 'BILL', 'RFND', 'CGBK'. */
  transactionType: string;
  product: string | null;
  /** Integer cents of `currency`, null when unknown. */
  amountCents: number | null;
  currency: string | null;
  /** The affiliate's nickname, null for a direct sale. */
  affiliate: string | null;
  /** ISO UTC. */
  at: string;
}

/** What a money movement was. */
export type PaymentKind = 'payment' | 'renewal' | 'refund' | 'chargeback';

/** One money movement on either provider. */
export interface CustomerPayment {
  /** ISO UTC. */
  at: string;
  kind: PaymentKind;
  provider: string;
  /** Positive integer cents in the payment's own currency; `kind` gives the direction. */
  amountCents: number;
  currency: string;
  /** Order id, receipt or invoice id. */
  reference: string | null;
  subscriptionId: string | null;
}

/** A forum outbox job's state. */
export type ForumJobStatus = 'pending' | 'sent' | 'failed';

/** One forum outbox job for this customer. */
export interface ForumJob {
  id: number;
  /** What the job does, e.g. 'grant', 'revoke', 'invite'. */
  op: string;
  status: ForumJobStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string | null;
  nextAttemptAt: string | null;
}

/** A pending or past forum invite. */
export interface ForumInvite {
  createdAt: string;
  expiresAt: string | null;
  status: string;
}

/** The forum side of the customer: membership, outbox jobs and invites. */
export interface CustomerForum {
  /** 'member', 'invited', 'none' or 'unknown'. */
  state: string;
  username: string | null;
  jobs: readonly ForumJob[];
  invites: readonly ForumInvite[];
}

/** GET /customers/:email, normalised. */
export interface CustomerRecord {
  customer: CustomerSummary;
  /** Every subscription on both providers, newest first, as the Subscriptions list shows them. */
  subscriptions: readonly SubscriptionRow[];
  orders: readonly CustomerOrder[];
  payments: readonly CustomerPayment[];
  forum: CustomerForum;
}

/** One timeline entry: when, what kind, a one-line title, expandable detail, and who acted. */
export interface TimelineItem {
  /** Unique across kinds, e.g. 'webhook:123'. */
  id: string;
  /** ISO UTC. */
  at: string;
  kind: TimelineKind;
  title: string;
  detail: Readonly<Record<string, unknown>>;
  /** An operator's email, 'webhook', 'expiration', 'system', or null when unknown. */
  actor: string | null;
}

/** One page of the timeline, newest first, and the cursor of the next (null at the end). */
export interface TimelinePage {
  items: readonly TimelineItem[];
  nextBefore: string | null;
}

/** The kinds a search result can be (GET /search). */
export const SEARCH_RESULT_KINDS = [
  'customer',
  'subscription',
  'order',
  'receipt',
  'affiliate',
  'screen',
] as const;

/** One kind of search result. */
export type SearchResultKind = (typeof SEARCH_RESULT_KINDS)[number];

/** Each kind's group heading in the palette. */
export const SEARCH_KIND_LABELS: Record<SearchResultKind, string> = {
  customer: 'Customers',
  subscription: 'Subscriptions',
  order: 'Orders',
  receipt: 'Receipts',
  affiliate: 'Affiliates',
  screen: 'Screens',
};

/** One search result: what it is, how it reads, what matched and where Enter goes. */
export interface SearchResult {
  kind: SearchResultKind;
  label: string;
  email: string | null;
  /** The value that matched (an id, an email, a name). */
  match: string;
  /** A console path relative to /admin, e.g. '/customers/a%40b.com' or '/logs'. */
  href: string;
}

/** A group of results of one kind, in the server's rank order. */
export interface SearchResultGroup {
  kind: SearchResultKind;
  label: string;
  results: readonly SearchResult[];
}

/**
 * The results grouped by kind, the groups in the order their best result ranks (the server
 * answers best first), each keeping the server's order.
 */
export function groupSearchResults(results: readonly SearchResult[]): SearchResultGroup[] {
  const groups = new Map<SearchResultKind, SearchResult[]>();
  for (const result of results) {
    const group = groups.get(result.kind);
    if (group) group.push(result);
    else groups.set(result.kind, [result]);
  }
  return [...groups].map(([kind, grouped]) => ({
    kind,
    label: SEARCH_KIND_LABELS[kind],
    results: grouped,
  }));
}

/**
 * Whether `href` is a path inside the console ('/…', not '//host' or a URL with a scheme), so
 * a search answer can never send the operator off-site.
 */
export function isConsolePath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !href.includes('\\');
}

/** The search box's shortest query, in characters after trimming. */
export const SEARCH_MIN_LENGTH = 1;

/** The search box's longest query (the server refuses longer). */
export const SEARCH_MAX_LENGTH = 200;

/**
 * The pause after the last keystroke before a search is sent (ms). With the server's ≤ 50 ms
 * p95 the results show within 100 ms of the last keystroke.
 */
export const SEARCH_DEBOUNCE_MS = 50;

/** The timeline's page size. */
export const TIMELINE_PAGE_SIZE = 50;
