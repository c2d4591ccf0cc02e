/**
 * Reconciliation with LemonSqueezy (docs/api.md "Reconciliation"): lists the store's subscriptions
 * with `GET {LEMONSQUEEZY_API_URL}/v1/subscriptions?filter[store_id]={id}&page[number]=N&page[size]=100`
 * (JSON:API, `Authorization: Bearer {key}`), following `meta.page.lastPage`, within the API's
 * 300 requests a minute (server/reconcile/http.ts). Each object has the shape of a webhook's `data`.
 *
 * A subscription is `missing` when no row has its id, and `mismatched` field by field when its
 * stored status, period end, end or the member's access differ from what the webhook would store
 * for the object. An object older (attributes.updated_at) than the stored one is left alone: a
 * webhook newer than the list already applied it. A fix applies the object through the webhook's
 * own code (applyLemonSqueezySubscription), so the status, dates, lifecycle rows, access, forum
 * job and live events follow the same rules.
 */
import { z } from 'zod';
import type { AppDeps, ServerConfig } from '../context';
import type { Queryable } from '../db/types';
import { activeAccessCondition, LEMONSQUEEZY_STATUSES, storedProviderStatus } from '../vocabulary';
import { storableJson } from '../webhooks/common';
import { applyLemonSqueezySubscription } from '../webhooks/lemonsqueezy';
import { accessMismatch, instantText, sameInstant, type AccessExpectation } from './access';
import { providerGet, ProviderError, type ProviderHttpOptions, type RequestBudget } from './http';
import type { Comparison, FailedRow, Fix, MismatchRow } from './types';

/** LemonSqueezy's API limit: 300 requests a minute. */
export const LEMONSQUEEZY_BUDGET: RequestBudget = { max: 300, windowMs: 60_000 };
/** Subscriptions per page (the API's largest page). */
export const LEMONSQUEEZY_PAGE_SIZE = 100;
/** Most pages one run reads (1,000,000 subscriptions), so a provider that never ends stops. */
const MAX_PAGES = 10_000;

/** Why reconciliation with LemonSqueezy cannot run, or null when it can. */
export function lemonSqueezyNotConfigured(config: ServerConfig): string | null {
  if (!config.lemonSqueezyApiKey || !config.lemonSqueezyStoreId) {
    return 'LemonSqueezy is not configured: set LEMONSQUEEZY_API_KEY and LEMONSQUEEZY_STORE_ID';
  }
  return null;
}

const time = z
  .string()
  .nullish()
  .transform((v) => {
    if (v == null) return null;
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? new Date(ms) : null;
  });

const subscriptionItem = z
  .object({
    type: z.literal('subscriptions'),
    id: z.union([z.string().min(1).max(64), z.number().int().nonnegative()]).transform(String),
    attributes: z
      .object({
        user_email: z.string().trim().toLowerCase().min(3).max(320),
        status: z.enum(LEMONSQUEEZY_STATUSES),
        renews_at: time,
        ends_at: time,
        updated_at: time,
      })
      .loose(),
  })
  .loose();
type Item = z.output<typeof subscriptionItem>;

const pageSchema = z
  .object({
    data: z.array(z.unknown()),
    meta: z
      .object({ page: z.object({ lastPage: z.number().int().nonnegative() }).loose() })
      .loose()
      .optional(),
  })
  .loose();

/**
 * Reads every page of the store's subscriptions, handing each page's raw objects to `onPage`
 * before the next is fetched → the number of pages. Throws ProviderError.
 */
export async function listLemonSqueezySubscriptions(
  config: ServerConfig,
  onPage: (items: unknown[]) => Promise<void>,
  opts: ProviderHttpOptions = {},
): Promise<number> {
  const base = config.lemonSqueezyApiUrl ?? 'https://api.lemonsqueezy.com';
  const headers = {
    Accept: 'application/vnd.api+json',
    'Content-Type': 'application/vnd.api+json',
    Authorization: `Bearer ${config.lemonSqueezyApiKey ?? ''}`,
  };
  let page = 1;
  let lastPage = 1;
  do {
    const query = new URLSearchParams({
      'filter[store_id]': config.lemonSqueezyStoreId ?? '',
      'page[number]': String(page),
      'page[size]': String(LEMONSQUEEZY_PAGE_SIZE),
    });
    const answer = await providerGet(
      'LemonSqueezy',
      `${base}/v1/subscriptions?${query.toString()}`,
      headers,
      base,
      LEMONSQUEEZY_BUDGET,
      opts,
    );
    const parsed = pageSchema.safeParse(answer.body);
    if (!parsed.success) {
      throw new ProviderError(
        `LemonSqueezy answered page ${page} without a JSON:API data list`,
        answer.status,
      );
    }
    lastPage = parsed.data.meta?.page.lastPage ?? page;
    await onPage(parsed.data.data);
    page++;
  } while (page <= lastPage && page <= MAX_PAGES);
  return page - 1;
}

/** What the database holds for one LemonSqueezy subscription and its customer's member. */
interface StoredRow {
  provider_id: string;
  status: string;
  current_period_end: Date | null;
  ends_at: Date | null;
  stored_updated_at: string | null;
  mg_status: string | null;
  expires_at: Date | null;
  other_grants: boolean;
}

async function storedRows(
  db: Queryable,
  ids: string[],
  now: Date,
): Promise<Map<string, StoredRow>> {
  const r = await db.query<StoredRow>(
    `SELECT s.provider_id, s.status, s.current_period_end, s.ends_at,
            s.payload -> 'attributes' ->> 'updated_at' AS stored_updated_at,
            m.mg_status, m.expires_at,
            EXISTS (SELECT 1 FROM subscriptions o WHERE o.customer_id = s.customer_id AND o.id <> s.id
                       AND ${activeAccessCondition('o', '$2')}) AS other_grants
       FROM subscriptions s LEFT JOIN members m ON m.customer_id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND s.provider_id = ANY($1::text[])`,
    [ids, now],
  );
  return new Map(r.rows.map((row) => [row.provider_id, row]));
}

/** The access the webhook gives a LemonSqueezy status (server/webhooks/lemonsqueezy.ts). */
function expectedAccess(a: Item['attributes'], now: Date): AccessExpectation {
  switch (a.status) {
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

/** The period end the webhook stores for an object. */
function periodEndOf(a: Item['attributes']): Date | null {
  return a.status === 'cancelled' || a.status === 'expired'
    ? (a.ends_at ?? a.renews_at)
    : (a.renews_at ?? a.ends_at);
}

/** The differences of one object from its stored row (empty when they agree). */
function differences(item: Item, stored: StoredRow, now: Date): MismatchRow[] {
  const a = item.attributes;
  const row = (field: string, ours: string | null, theirs: string | null): MismatchRow => ({
    email: a.user_email,
    subscription_id: item.id,
    field,
    ours,
    theirs,
  });
  const out: MismatchRow[] = [];
  const status = storedProviderStatus(a.status);
  if (stored.status !== status) out.push(row('status', stored.status, status));
  const periodEnd = periodEndOf(a);
  if (!sameInstant(stored.current_period_end, periodEnd)) {
    out.push(
      row('current_period_end', instantText(stored.current_period_end), instantText(periodEnd)),
    );
  }
  if (!sameInstant(stored.ends_at, a.ends_at)) {
    out.push(row('ends_at', instantText(stored.ends_at), instantText(a.ends_at)));
  }
  const access = accessMismatch(expectedAccess(a, now), stored, now);
  if (access) out.push(row('access', access.ours, access.theirs));
  return out;
}

/**
 * Compares every subscription of the store with the database at deps.now() → the fixes a real
 * run applies, plus the objects that could not be read. Throws ProviderError.
 */
export async function compareLemonSqueezy(
  deps: AppDeps,
  opts: ProviderHttpOptions = {},
): Promise<Comparison> {
  const now = deps.now();
  const fixes: Fix[] = [];
  const failed: FailedRow[] = [];
  let checked = 0;
  await listLemonSqueezySubscriptions(
    deps.config,
    async (raw) => {
      const entries: Array<{ item: Item; data: Record<string, unknown> }> = [];
      for (const value of raw) {
        const clean = storableJson(value);
        const parsed = subscriptionItem.safeParse(clean);
        if (!parsed.success) {
          const id = (clean as { id?: unknown } | null)?.id;
          failed.push({
            email: null,
            subscription_id: typeof id === 'string' || typeof id === 'number' ? String(id) : '?',
            error: `not a readable subscription object: ${parsed.error.issues
              .map((i) => `${i.path.join('.')}: ${i.message}`)
              .join('; ')
              .slice(0, 200)}`,
          });
          continue;
        }
        entries.push({ item: parsed.data, data: clean as Record<string, unknown> });
      }
      checked += entries.length;
      const stored = await storedRows(
        deps.db,
        entries.map((e) => e.item.id),
        now,
      );
      for (const { item, data } of entries) {
        const row = stored.get(item.id);
        const apply = (tx: Queryable, at: Date, reason: string) =>
          applyLemonSqueezySubscription(
            tx,
            { dataId: item.id, data, customData: {} },
            at,
            reason,
          ).then((r) => r.effects);
        const providerStatus = storedProviderStatus(item.attributes.status);
        if (!row) {
          fixes.push({
            email: item.attributes.user_email,
            subscriptionId: item.id,
            providerStatus,
            isMissing: true,
            mismatches: [],
            apply,
          });
          continue;
        }
        const storedAt = row.stored_updated_at ? Date.parse(row.stored_updated_at) : NaN;
        const theirsAt = item.attributes.updated_at?.getTime() ?? NaN;
        if (Number.isFinite(storedAt) && Number.isFinite(theirsAt) && theirsAt < storedAt) continue;
        const mismatches = differences(item, row, now);
        if (mismatches.length === 0) continue;
        fixes.push({
          email: item.attributes.user_email,
          subscriptionId: item.id,
          providerStatus,
          isMissing: false,
          mismatches,
          apply,
        });
      }
    },
    opts,
  );
  return { checked, fixes, failed };
}
