/**
 * Subscriptions list, detail drawer and marketplace orders (§2 Subscriptions, §3 Subscription
 * row / detail / Marketplace order record, §7 GET /subscriptions, GET /subscriptions/detail,
 * GET /api/admin/clickbank/orders, POST /subscriptions/refresh and the action twins).
 */
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { z } from './zod';
import { sortOrdersNewestFirst } from '../domain/detail';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { buildSubscriptionsParams } from '../domain/query';
import type {
  AccessAction,
  ActionResult,
  Address,
  MarketplaceOrder,
  SubscriptionDetail,
  SubscriptionRow,
  SubscriptionsPage,
  SubscriptionsQuery,
} from '../domain/types';
import { ApiError, apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import { accessActionBody, actionResultSchema } from './users';
import {
  asObject,
  asObjectList,
  readBool,
  readInt,
  readString,
  wireId,
  wireInt,
  wireObject,
  wireString,
  type WireObject,
} from './wire';

/** One wire subscription row → SubscriptionRow (amount: integer cents or null). */
export const subscriptionRowSchema = z.pipe(
  z.object({
    row_id: wireId,
    email: z.string(),
    name: wireString,
    provider: wireString,
    provider_id: wireString,
    status: wireString,
    cadence: wireString,
    start_date: wireString,
    current_period_end: wireString,
    expires_at: wireString,
    amount: wireInt,
    currency: wireString,
    updated_at: wireString,
  }),
  z.transform((r): SubscriptionRow => ({
    rowId: r.row_id,
    email: r.email,
    name: r.name,
    provider: r.provider,
    providerId: r.provider_id,
    status: r.status,
    cadence: r.cadence,
    startDate: r.start_date,
    currentPeriodEnd: r.current_period_end,
    expiresAt: r.expires_at,
    amountCents: r.amount,
    currency: r.currency,
    updatedAt: r.updated_at,
  })),
);

/** GET /subscriptions answer {rows, total} → SubscriptionsPage (missing total = rows counted). */
export const subscriptionsPageSchema = z.pipe(
  z.object({ rows: z.array(subscriptionRowSchema), total: wireInt }),
  z.transform((p): SubscriptionsPage => ({ rows: p.rows, total: p.total ?? p.rows.length })),
);

/**
 * GET /subscriptions with page, pageSize, sortKey, sortDir and the non-empty filters of `q`
 * (buildSubscriptionsParams) → SubscriptionsPage. Rejects with ApiError /
 * MalformedResponseError; show subscriptionsErrorMessage(error).
 */
export async function fetchSubscriptions(
  q: SubscriptionsQuery,
  signal?: AbortSignal,
): Promise<SubscriptionsPage> {
  return apiRequest('/subscriptions', {
    query: buildSubscriptionsParams(q),
    schema: subscriptionsPageSchema,
    signal,
  });
}

/**
 * §8 subscriptions failure text: '{status} {message}' for an HTTP error with a message
 * ('500 Internal error'); the bare message when no answer came ('Network error'); else
 * 'Failed to load subscriptions' (e.g. a malformed answer).
 */
export function subscriptionsErrorMessage(error: unknown): string {
  const message = errorMessageOr(error, '');
  if (!message) return MESSAGES.subscriptions;
  if (error instanceof ApiError && error.status > 0) return `${error.status} ${message}`;
  return message;
}

/** Query: one subscriptions page, keeping the previous page while the next loads. */
export function subscriptionsQueryOptions(q: SubscriptionsQuery) {
  return queryOptions({
    queryKey: queryKeys.subscriptions.list(buildSubscriptionsParams(q)),
    queryFn: ({ signal }) => fetchSubscriptions(q, signal),
    placeholderData: keepPreviousData,
    // §4 "reloads on any change of page, size, sort or filters": a page seen moments ago is
    // shown from the cache and asked for again, not served as fresh for the default 30 s.
    staleTime: 0,
  });
}

/** Hook: one subscriptions page as a query. */
export function useSubscriptions(q: SubscriptionsQuery) {
  return useQuery(subscriptionsQueryOptions(q));
}

/* ------------------------------------------------------------------------------------------ */
/* Detail                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/** Which subscription the drawer shows (§7): by provider and its id, or by email. */
export type SubscriptionDetailKey = { provider: string; providerId: string } | { email: string };

/** GET /subscriptions/detail query (§7): enrich=1 plus provider and provider_id, or email. */
export function detailParams(key: SubscriptionDetailKey): QueryParams {
  return 'email' in key
    ? { enrich: 1, email: key.email }
    : { enrich: 1, provider: key.provider, provider_id: key.providerId };
}

/**
 * The LemonSqueezy attributes carried in provider_detail (CONTRACT.md: details keep the
 * provider's shape): {data:{attributes}}, {attributes} or the attributes themselves.
 */
function lemonSqueezyAttributes(providerDetail: unknown): WireObject {
  const pd = asObject(providerDetail);
  if (!pd) return {};
  return asObject(asObject(pd.data)?.attributes) ?? asObject(pd.attributes) ?? pd;
}

function toAddress(value: unknown): Address | null {
  const a = asObject(value);
  if (!a) return null;
  const address: Address = {
    city: readString(a.city),
    state: readString(a.state ?? a.region),
    postalCode: readString(a.postal_code ?? a.zip),
    country: readString(a.country),
  };
  return Object.values(address).some((v) => v !== null) ? address : null;
}

function toUrls(value: unknown): Record<string, string> {
  const bag = asObject(value);
  const out: Record<string, string> = {};
  for (const [name, url] of Object.entries(bag ?? {})) {
    if (typeof url === 'string' && url.trim()) out[name] = url;
  }
  return out;
}

/**
 * A §3 Subscription detail (snake_case, docs/api.md) → SubscriptionDetail. Every field is
 * optional. For lemonsqueezy, a field missing at the top level is read from the subscription
 * attributes in provider_detail (user_email → email, user_name → name, renews_at, card_brand…).
 * amount and total_revenue_currency are integer cents. Never throws on an object.
 */
export function normaliseSubscriptionDetail(raw: WireObject): SubscriptionDetail {
  const provider = readString(raw.provider);
  const ls = provider === 'lemonsqueezy' ? lemonSqueezyAttributes(raw.provider_detail) : {};
  const get = (key: string, lsKey: string = key): unknown => raw[key] ?? ls[lsKey];
  return {
    email: readString(get('email', 'user_email')),
    name: readString(get('name', 'user_name')),
    address: toAddress(raw.address),
    provider,
    providerId: readString(raw.provider_id),
    status: readString(get('status')),
    statusFormatted: readString(get('status_formatted')),
    cadence: readString(raw.cadence),
    startDate: readString(get('start_date', 'created_at')),
    renewsAt: readString(get('renews_at')),
    currentPeriodEnd: readString(raw.current_period_end),
    endsAt: readString(get('ends_at')),
    expiresAt: readString(raw.expires_at),
    amountCents: readInt(raw.amount),
    currency: readString(raw.currency),
    storeId: readString(get('store_id')),
    statusMarketing: readString(get('status_marketing')),
    city: readString(get('city')),
    region: readString(get('region')),
    country: readString(get('country')),
    totalRevenueCents: readInt(get('total_revenue_currency')),
    paymentProcessor: readString(get('payment_processor')),
    cardBrand: readString(get('card_brand')),
    cardLastFour: readString(get('card_last_four')),
    cancelled: readBool(get('cancelled')),
    trialEndsAt: readString(get('trial_ends_at')),
    billingAnchor: readInt(get('billing_anchor')),
    firstSubscriptionItem: get('first_subscription_item') ?? null,
    pause: get('pause') ?? null,
    urls: toUrls(get('urls')),
    createdAt: readString(get('created_at')),
    updatedAt: readString(get('updated_at')),
    testMode: readBool(get('test_mode')),
    providerDetail: raw.provider_detail ?? null,
  };
}

/**
 * GET /subscriptions/detail?enrich=1&(provider&provider_id | email) → SubscriptionDetail.
 * Rejects with ApiError / MalformedResponseError (screens show 'Failed to load details',
 * MESSAGES.details).
 */
export async function fetchSubscriptionDetail(
  key: SubscriptionDetailKey,
  signal?: AbortSignal,
): Promise<SubscriptionDetail> {
  const raw = await apiRequest('/subscriptions/detail', {
    query: detailParams(key),
    schema: wireObject,
    signal,
  });
  return normaliseSubscriptionDetail(raw);
}

/** Query: the drawer's detail; pass null while the drawer is closed (the query then idles). */
export function subscriptionDetailQueryOptions(key: SubscriptionDetailKey | null) {
  return queryOptions({
    queryKey: queryKeys.subscriptions.detail(key ? detailParams(key) : {}),
    queryFn: key ? ({ signal }) => fetchSubscriptionDetail(key, signal) : skipToken,
  });
}

/** Hook: the drawer's detail as a query (idle while `key` is null). */
export function useSubscriptionDetail(key: SubscriptionDetailKey | null) {
  return useQuery(subscriptionDetailQueryOptions(key));
}

/* ------------------------------------------------------------------------------------------ */
/* Marketplace (ClickBank) orders                                                               */
/* ------------------------------------------------------------------------------------------ */

function parseRawJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? parsed : value;
  } catch {
    return value;
  }
}

/** A §3 Marketplace order record (snake_case) → MarketplaceOrder. Money in integer cents. */
export function normaliseMarketplaceOrder(raw: WireObject): MarketplaceOrder {
  return {
    receipt: readString(raw.receipt),
    sku: readString(raw.sku),
    status: readString(raw.status),
    title: readString(raw.title),
    site: readString(raw.site),
    affiliate: readString(raw.affiliate),
    country: readString(raw.country),
    state: readString(raw.state),
    postalCode: readString(raw.postal_code),
    firstName: readString(raw.first_name),
    lastName: readString(raw.last_name),
    customerDisplayName: readString(raw.customer_display_name),
    customerRefundableState: readString(raw.customer_refundable_state),
    currency: readString(raw.currency),
    amountCents: readInt(raw.amount_cents),
    rebillAmountCents: readInt(raw.rebill_amount_cents),
    accountAmountCents: readInt(raw.account_amount_cents),
    nextPaymentAt: readString(raw.next_payment_at),
    createdAtProvider: readString(raw.created_at_provider),
    rawJson: parseRawJson(raw.raw_json),
  };
}

const clickbankOrdersSchema = z.object({
  local: z.nullish(z.object({ clickbank_details: z.nullish(z.array(z.unknown())) })),
});

/**
 * GET /api/admin/clickbank/orders?email= (§7; prefix + '/clickbank/orders') → the order
 * records under local.clickbank_details, newest first ([] when none). A non-OK answer rejects
 * with ApiError {status, message 'ClickBank orders fetch failed ({status})'} (§8); no answer
 * rejects with ApiError status 0. Screens show 'Failed to load ClickBank order details'
 * (MESSAGES.clickbankOrders).
 */
export async function fetchClickbankOrders(
  email: string,
  signal?: AbortSignal,
): Promise<MarketplaceOrder[]> {
  try {
    const answer = await apiRequest('/clickbank/orders', {
      query: { email },
      schema: clickbankOrdersSchema,
      signal,
    });
    const records = asObjectList(answer.local?.clickbank_details);
    return sortOrdersNewestFirst(records.map(normaliseMarketplaceOrder));
  } catch (error) {
    if (error instanceof ApiError && error.status > 0 && error.message) {
      throw new ApiError(
        error.status,
        `ClickBank orders fetch failed (${error.status})`,
        error.payload,
      );
    }
    throw error;
  }
}

/** Query: a customer's marketplace orders; pass null to idle (non-marketplace detail). */
export function clickbankOrdersQueryOptions(email: string | null) {
  return queryOptions({
    queryKey: queryKeys.subscriptions.clickbankOrders(email ?? ''),
    queryFn: email ? ({ signal }) => fetchClickbankOrders(email, signal) : skipToken,
  });
}

/** Hook: a customer's marketplace orders as a query (idle while `email` is null). */
export function useClickbankOrders(email: string | null) {
  return useQuery(clickbankOrdersQueryOptions(email));
}

/* ------------------------------------------------------------------------------------------ */
/* Refresh and the action twins                                                                */
/* ------------------------------------------------------------------------------------------ */

/** POST /subscriptions/refresh answer (docs/api.md {ok, refreshed, message}), permissive. */
export interface RefreshResult {
  ok: boolean | null;
  refreshed: number | null;
  message: string | null;
}

/** POST /subscriptions/refresh (§7) → RefreshResult. Rejects with ApiError. */
export async function refreshSubscriptions(signal?: AbortSignal): Promise<RefreshResult> {
  const answer = asObject(await apiRequest('/subscriptions/refresh', { method: 'POST', signal }));
  return {
    ok: readBool(answer?.ok),
    refreshed: readInt(answer?.refreshed),
    message: readString(answer?.message),
  };
}

/** Actions the /subscriptions/* twins offer (§7): no grant-until-date. */
export type SubscriptionAction = Exclude<AccessAction, { kind: 'grant_on_date' }>;

const SUBSCRIPTION_ACTION_PATHS: Record<SubscriptionAction['kind'], string> = {
  grant: '/subscriptions/grant',
  revoke_now: '/subscriptions/revoke-now',
  revoke_deferred: '/subscriptions/revoke-deferred',
  revoke_on_date: '/subscriptions/revoke-on-date',
};

/**
 * POST /subscriptions/{grant|revoke-now|revoke-deferred|revoke-on-date} (§7) with {email} or
 * {email, date} → ActionResult (docs/api.md: they answer like the users actions). Rejects with
 * ApiError. Invalidate with invalidateAccessData afterwards.
 */
export async function runSubscriptionAction(
  email: string,
  action: SubscriptionAction,
  signal?: AbortSignal,
): Promise<ActionResult> {
  return apiRequest(SUBSCRIPTION_ACTION_PATHS[action.kind], {
    method: 'POST',
    body: accessActionBody(email, action),
    schema: actionResultSchema,
    signal,
  });
}
