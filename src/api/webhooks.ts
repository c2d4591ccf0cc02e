/**
 * The webhook inbox (docs/api.md "Webhook deliveries"): one page of deliveries, one delivery with
 * its payload, and a replay. Wire fields (snake_case) are normalised at this boundary.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from './zod';
import { listRequestParams, type ListQuery } from '../domain/list';
import { totalPages } from '../domain/paging';
import {
  WEBHOOKS_LIST,
  isDeliveryOutcome,
  type ReplayResult,
  type WebhookDeliveriesPage,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhooksFilters,
  type WebhooksSortKey,
} from '../domain/webhooks';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import {
  asObject,
  asObjectList,
  readBool,
  readInt,
  readString,
  wireInt,
  type WireObject,
} from './wire';

/** A Webhooks list query (page, Rows, the fixed newest-first order, the filters). */
export type WebhooksQuery = ListQuery<WebhooksFilters, WebhooksSortKey>;

const pageSchema = z.object({
  rows: z.array(z.unknown()),
  total: z.optional(wireInt),
  totalPages: z.optional(wireInt),
  totalCapped: z.optional(z.boolean()),
});

const replaySchema = z.object({
  outcome: z.string(),
  effects: z.optional(z.array(z.string())),
  error: z.optional(z.nullable(z.string())),
});

function toDelivery(raw: WireObject, index: number): WebhookDelivery {
  const outcome = raw.outcome;
  const replay = raw.replay_outcome;
  return {
    id: typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : `#${index}`,
    receivedAt: readString(raw.received_at),
    provider: readString(raw.provider) ?? '',
    event: readString(raw.event),
    outcome: isDeliveryOutcome(outcome) ? outcome : 'failed',
    httpStatus: readInt(raw.http_status) ?? 0,
    error: readString(raw.error),
    email: readString(raw.email),
    subscriptionId: readString(raw.subscription_id),
    bodySize: readInt(raw.body_size) ?? 0,
    hasBody: readBool(raw.has_body) === true,
    effects: Array.isArray(raw.effects) ? raw.effects.filter((e) => typeof e === 'string') : [],
    replayedAt: readString(raw.replayed_at),
    replayOutcome: isDeliveryOutcome(replay) ? replay : null,
  };
}

/**
 * GET /webhook-deliveries?page&pageSize&provider&outcome&event&email&from&to (blanks dropped) →
 * one page, newest first. Rejects with ApiError / MalformedResponseError.
 */
export async function fetchWebhookDeliveries(
  query: WebhooksQuery,
  signal?: AbortSignal,
): Promise<WebhookDeliveriesPage> {
  const answer = await apiRequest('/webhook-deliveries', {
    query: listRequestParams(WEBHOOKS_LIST, query),
    schema: pageSchema,
    signal,
  });
  const rows = asObjectList(answer.rows).map(toDelivery);
  const total = answer.total ?? rows.length;
  return {
    rows,
    total,
    totalPages: answer.totalPages ?? totalPages(total, query.pageSize),
    isTotalCapped: answer.totalCapped === true,
  };
}

/** Query: one page of deliveries, keeping the previous page on screen while the next loads. */
export function webhookDeliveriesQueryOptions(query: WebhooksQuery) {
  return queryOptions({
    queryKey: queryKeys.webhooks.list(listRequestParams(WEBHOOKS_LIST, query)),
    queryFn: ({ signal }) => fetchWebhookDeliveries(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /webhook-deliveries/:id → the delivery with its headers and payload. */
export async function fetchWebhookDelivery(
  id: string,
  signal?: AbortSignal,
): Promise<WebhookDeliveryDetail> {
  const raw = await apiRequest(`/webhook-deliveries/${encodeURIComponent(id)}`, {
    schema: z.record(z.string(), z.unknown()),
    signal,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(asObject(raw.headers) ?? {})) {
    if (typeof value === 'string') headers[name] = value;
  }
  return { ...toDelivery(raw, 0), headers, body: raw.body ?? null };
}

/** Query: one delivery's detail (the drawer). */
export function webhookDeliveryQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.webhooks.detail(id),
    queryFn: ({ signal }) => fetchWebhookDelivery(id, signal),
  });
}

/** POST /webhook-deliveries/:id/replay (admin and up) → what the replay did. */
export async function replayWebhookDelivery(id: string): Promise<ReplayResult> {
  const answer = await apiRequest(`/webhook-deliveries/${encodeURIComponent(id)}/replay`, {
    method: 'POST',
    schema: replaySchema,
  });
  return {
    outcome: isDeliveryOutcome(answer.outcome) ? answer.outcome : 'failed',
    effects: answer.effects ?? [],
    error: answer.error ?? null,
  };
}

/** The text of a failed list load. */
export function webhooksErrorMessage(): string {
  return 'Failed to load webhook deliveries';
}
