/**
 * One customer, whole, and find-anything search (docs/api.md "Customers", "Search"):
 * GET /customers/:email, GET /customers/:email/timeline (keyset paged), POST
 * /customers/:email/forum-jobs/:id/retry and GET /search. Wire fields (snake_case) are
 * normalised at this boundary; a wrong-kind field reads as null, a wrong structure rejects with
 * MalformedResponseError.
 */
import {
  infiniteQueryOptions,
  keepPreviousData,
  mutationOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from './zod';
import {
  SEARCH_RESULT_KINDS,
  TIMELINE_PAGE_SIZE,
  isConsolePath,
  isTimelineKind,
  timelineKindsParam,
  type CustomerRecord,
  type ForumJob,
  type ForumJobStatus,
  type PaymentKind,
  type SearchResult,
  type TimelineKind,
  type TimelinePage,
} from '../domain/customer';
import { errorMessageOr, errorStatus } from '../domain/messages';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import { subscriptionRowSchema } from './subscriptions';
import { asObject, asObjectList, readInt, readString, wireObject, type WireObject } from './wire';

/** Message of a customer page that could not load (other than not found). */
export const CUSTOMER_ERROR = 'Failed to load customer';
/** Message of an email the server does not know. */
export const CUSTOMER_NOT_FOUND = 'No customer with this email.';
/** Message of a timeline page that could not load. */
export const TIMELINE_ERROR = 'Failed to load the timeline';
/** Message of a search that failed. */
export const SEARCH_ERROR = 'Search failed';

const PAYMENT_KINDS: readonly PaymentKind[] = ['payment', 'renewal', 'refund', 'chargeback'];
const JOB_STATUSES: readonly ForumJobStatus[] = ['pending', 'sent', 'failed'];

function toJob(raw: WireObject): ForumJob | null {
  const id = readInt(raw.id);
  const status = readString(raw.status);
  if (id === null) return null;
  return {
    id,
    op: readString(raw.op) ?? 'sync',
    status: JOB_STATUSES.includes(status as ForumJobStatus)
      ? (status as ForumJobStatus)
      : 'pending',
    attempts: readInt(raw.attempts) ?? 0,
    lastError: readString(raw.last_error),
    createdAt: readString(raw.created_at) ?? '',
    updatedAt: readString(raw.updated_at),
    nextAttemptAt: readString(raw.next_attempt_at),
  };
}

const customerSchema = z.object({
  customer: z.looseObject({ email: z.string() }),
  subscriptions: z.optional(z.array(z.unknown())),
  orders: z.optional(z.array(z.unknown())),
  payments: z.optional(z.array(z.unknown())),
  forum: z.optional(wireObject),
});

/** The customer answer → CustomerRecord (rows the schema refuses are skipped, not fatal). */
export function normaliseCustomer(answer: z.infer<typeof customerSchema>): CustomerRecord {
  const c = answer.customer as WireObject & { email: string };
  const providers = Array.isArray(c.providers)
    ? c.providers.filter((p): p is string => typeof p === 'string')
    : [];
  const forum = answer.forum ?? {};
  const subscriptions = (answer.subscriptions ?? []).flatMap((row) => {
    const parsed = subscriptionRowSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
  return {
    customer: {
      email: c.email,
      name: readString(c.name),
      providers,
      mgStatus: readString(c.mg_status),
      mgStatusLabel: readString(c.mg_status_label),
      providerStatus: readString(c.provider_status),
      cadence: readString(c.cadence),
      expiresAt: readString(c.expires_at),
      currentPeriodEnd: readString(c.current_period_end),
      createdAt: readString(c.created_at),
      lifetimeRevenueCents: readInt(c.lifetime_revenue_cents) ?? 0,
      currency: readString(c.currency) ?? 'USD',
    },
    subscriptions,
    orders: asObjectList(answer.orders).flatMap((o) => {
      const receipt = readString(o.receipt);
      if (receipt === null) return [];
      return [
        {
          receipt,
          transactionType: readString(o.transaction_type) ?? '',
          product: readString(o.product),
          amountCents: readInt(o.amount_cents),
          currency: readString(o.currency),
          affiliate: readString(o.affiliate),
          at: readString(o.at) ?? '',
        },
      ];
    }),
    payments: asObjectList(answer.payments).flatMap((p) => {
      const kind = readString(p.kind) as PaymentKind | null;
      const amountCents = readInt(p.amount_cents);
      if (kind === null || !PAYMENT_KINDS.includes(kind) || amountCents === null) return [];
      return [
        {
          at: readString(p.at) ?? '',
          kind,
          provider: readString(p.provider) ?? '',
          amountCents: Math.abs(amountCents),
          currency: readString(p.currency) ?? '',
          reference: readString(p.reference),
          subscriptionId: readString(p.subscription_id),
        },
      ];
    }),
    forum: {
      state: readString(forum.state) ?? 'unknown',
      username: readString(forum.username),
      jobs: asObjectList(forum.jobs)
        .map(toJob)
        .filter((job): job is ForumJob => job !== null),
      invites: asObjectList(forum.invites).map((i) => ({
        createdAt: readString(i.created_at) ?? '',
        expiresAt: readString(i.expires_at),
        status: readString(i.status) ?? 'pending',
      })),
    },
  };
}

/** GET /customers/:email → CustomerRecord. Rejects with ApiError (404 = unknown email). */
export async function fetchCustomer(email: string, signal?: AbortSignal): Promise<CustomerRecord> {
  const answer = await apiRequest(`/customers/${encodeURIComponent(email)}`, {
    schema: customerSchema,
    signal,
  });
  return normaliseCustomer(answer);
}

/** Query: one customer's record. */
export function customerQueryOptions(email: string) {
  return queryOptions({
    queryKey: queryKeys.customers.detail(email),
    queryFn: ({ signal }) => fetchCustomer(email, signal),
  });
}

/** The customer page's message for a failed load: not found, or the error's own message. */
export function customerErrorMessage(error: unknown): string {
  if (errorStatus(error) === 404) return CUSTOMER_NOT_FOUND;
  return errorMessageOr(error, CUSTOMER_ERROR);
}

const timelineSchema = z.object({
  items: z.array(z.unknown()),
  next_before: z.optional(z.nullable(z.string())),
});

/** A timeline answer → TimelinePage (entries of an unknown kind or without a time are skipped). */
export function normaliseTimeline(answer: z.infer<typeof timelineSchema>): TimelinePage {
  return {
    items: asObjectList(answer.items).flatMap((raw, index) => {
      const at = readString(raw.at);
      if (at === null || !isTimelineKind(raw.kind)) return [];
      return [
        {
          id: readString(raw.id) ?? `${raw.kind}:${at}:${index}`,
          at,
          kind: raw.kind,
          title: readString(raw.title) ?? '',
          detail: asObject(raw.detail) ?? {},
          actor: readString(raw.actor),
        },
      ];
    }),
    nextBefore: answer.next_before ?? null,
  };
}

/**
 * GET /customers/:email/timeline?kind&before&limit → one page, newest first. `kinds` empty =
 * every kind; `before` is the previous page's nextBefore.
 */
export async function fetchCustomerTimeline(
  email: string,
  kinds: readonly TimelineKind[],
  before: string | null,
  signal?: AbortSignal,
): Promise<TimelinePage> {
  const answer = await apiRequest(`/customers/${encodeURIComponent(email)}/timeline`, {
    query: {
      kind: timelineKindsParam(kinds),
      before: before ?? '',
      limit: String(TIMELINE_PAGE_SIZE),
    },
    schema: timelineSchema,
    signal,
  });
  return normaliseTimeline(answer);
}

/** Infinite query: the timeline for a choice of kinds, page after page ("Show older"). */
export function customerTimelineQueryOptions(email: string, kinds: readonly TimelineKind[]) {
  return infiniteQueryOptions({
    queryKey: queryKeys.customers.timeline(email, timelineKindsParam(kinds)),
    queryFn: ({ signal, pageParam }) => fetchCustomerTimeline(email, kinds, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TimelinePage) => last.nextBefore,
    placeholderData: keepPreviousData,
  });
}

/** The timeline's message for a failed page. */
export function timelineErrorMessage(error: unknown): string {
  return errorMessageOr(error, TIMELINE_ERROR);
}

const retrySchema = z.object({ ok: z.optional(z.boolean()), job: z.optional(wireObject) });

/** POST /customers/:email/forum-jobs/:id/retry → the re-queued job (or null if not echoed). */
export async function retryForumJob(email: string, jobId: number): Promise<ForumJob | null> {
  const answer = await apiRequest(
    `/customers/${encodeURIComponent(email)}/forum-jobs/${jobId}/retry`,
    { method: 'POST', schema: retrySchema },
  );
  return answer.job ? toJob(answer.job) : null;
}

/** Marks the customer's record and timeline stale (after an action or a retry). */
export async function invalidateCustomer(queryClient: QueryClient, email: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: queryKeys.customers.one(email) });
}

/** Hook: retry a failed forum job now, then reload the customer. */
export function useRetryForumJob(email: string) {
  const queryClient = useQueryClient();
  return useMutation(
    mutationOptions({
      mutationFn: (jobId: number) => retryForumJob(email, jobId),
      onSettled: () => invalidateCustomer(queryClient, email),
    }),
  );
}

const searchSchema = z.object({ results: z.array(z.unknown()) });

/** The search answer → results (unknown kinds and off-console hrefs are dropped). */
export function normaliseSearch(answer: z.infer<typeof searchSchema>): SearchResult[] {
  return asObjectList(answer.results).flatMap((raw) => {
    const kind = SEARCH_RESULT_KINDS.find((k) => k === raw.kind);
    const href = readString(raw.href);
    const label = readString(raw.label);
    if (!kind || href === null || label === null || !isConsolePath(href)) return [];
    return [
      { kind, label, email: readString(raw.email), match: readString(raw.match) ?? '', href },
    ];
  });
}

/** GET /search?q&limit → results, best first. */
export async function fetchSearch(q: string, signal?: AbortSignal): Promise<SearchResult[]> {
  const answer = await apiRequest('/search', {
    query: { q, limit: '20' },
    schema: searchSchema,
    signal,
  });
  return normaliseSearch(answer);
}

/** Query: the results for one (trimmed, debounced) query; the last results stay while typing. */
export function searchQueryOptions(q: string) {
  return queryOptions({
    queryKey: queryKeys.search(q),
    queryFn: ({ signal }) => fetchSearch(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** The palette's message for a failed search. */
export function searchErrorMessage(error: unknown): string {
  return errorMessageOr(error, SEARCH_ERROR);
}
