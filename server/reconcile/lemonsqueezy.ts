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
 *
 * Cadence: the list is read with `include=variant`, so each page carries its subscriptions'
 * variants and their billing interval; a fix whose variant was not included (and whose names do
 * not say) looks it up with `GET /v1/variants/:id`, once per variant per run, before its
 * transaction. Without an interval the webhook's fallbacks apply (server/webhooks/cadence.ts).
 *
 * Once the whole list was read, the stored subscriptions of the configured store (payload
 * store_id, or none recorded) that it lacks are reported as `not_at_provider`, and left as they
 * are.
 */
import { z } from 'zod';
import type { AppDeps, ServerConfig } from '../context';
import type { Queryable } from '../db/types';
import { activeAccessCondition, LEMONSQUEEZY_STATUSES, storedProviderStatus } from '../vocabulary';
import { blankToNull, storableJson } from '../webhooks/common';
import { cadenceOfNames, type VariantInterval } from '../webhooks/cadence';
import { applyLemonSqueezySubscription } from '../webhooks/lemonsqueezy';
import { accessMismatch, instantText, sameInstant, type AccessExpectation } from './access';
import { providerGet, ProviderError, type ProviderHttpOptions, type RequestBudget } from './http';
import {
  NOT_AT_PROVIDER_LISTED,
  type Comparison,
  type FailedRow,
  type Fix,
  type MismatchRow,
  type NotAtProviderRow,
} from './types';

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
    included: z.array(z.unknown()).optional(),
    meta: z
      .object({ page: z.object({ lastPage: z.number().int().nonnegative() }).loose() })
      .loose()
      .optional(),
  })
  .loose();

/** Pages read at once after the first (which tells how many there are); 4 of the 300 a minute. */
export const LEMONSQUEEZY_PAGES_AHEAD = 4;

/** One page of the list: its raw objects, the related objects included, and its last page. */
interface ListPage {
  items: unknown[];
  included: unknown[];
  lastPage: number;
}

/** The API's base URL and request headers for `config`. */
function apiOf(config: ServerConfig): { base: string; headers: Record<string, string> } {
  return {
    base: config.lemonSqueezyApiUrl ?? 'https://api.lemonsqueezy.com',
    headers: {
      Accept: 'application/vnd.api+json',
      'Content-Type': 'application/vnd.api+json',
      Authorization: `Bearer ${config.lemonSqueezyApiKey ?? ''}`,
    },
  };
}

/**
 * Reads every page of the store's subscriptions (with their variants included), handing each
 * page's raw objects and included objects to `onPage` in page order → the number of pages. After the first page, up to LEMONSQUEEZY_PAGES_AHEAD pages
 * are fetched ahead of the one `onPage` is working on, so the API's latency overlaps the
 * comparison (every request still waits for the budget, and a 429 holds them all). Throws
 * ProviderError (the first failing page's).
 */
export async function listLemonSqueezySubscriptions(
  config: ServerConfig,
  onPage: (items: unknown[], included: unknown[]) => Promise<void>,
  opts: ProviderHttpOptions = {},
): Promise<number> {
  const { base, headers } = apiOf(config);
  const fetchPage = async (page: number): Promise<ListPage> => {
    const query = new URLSearchParams({
      'filter[store_id]': config.lemonSqueezyStoreId ?? '',
      'page[number]': String(page),
      'page[size]': String(LEMONSQUEEZY_PAGE_SIZE),
      include: 'variant',
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
    return {
      items: parsed.data.data,
      included: parsed.data.included ?? [],
      lastPage: parsed.data.meta?.page.lastPage ?? page,
    };
  };
  const first = await fetchPage(1);
  // A list that grows while it is read reports a later last page; one that shrinks only ends in
  // empty pages.
  let lastPage = Math.min(first.lastPage, MAX_PAGES);
  await onPage(first.items, first.included);
  const ahead = new Map<number, Promise<ListPage>>();
  let requested = 1;
  for (let page = 2; page <= lastPage; page++) {
    while (requested < lastPage && ahead.size < LEMONSQUEEZY_PAGES_AHEAD) {
      requested++;
      const pending = fetchPage(requested);
      // Awaited in order below; until then a failure must not count as unhandled.
      pending.catch(() => undefined);
      ahead.set(requested, pending);
    }
    const current = ahead.get(page) ?? fetchPage(page);
    ahead.delete(page);
    const got = await current;
    lastPage = Math.min(Math.max(lastPage, got.lastPage), MAX_PAGES);
    await onPage(got.items, got.included);
  }
  return lastPage;
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

/** A variant's interval unit from an included or looked-up variant object, or null. */
function intervalOf(variant: unknown): VariantInterval | null {
  const raw = (variant as { attributes?: { interval?: unknown } } | null)?.attributes?.interval;
  return raw === 'day' || raw === 'week' || raw === 'month' || raw === 'year' ? raw : null;
}

/**
 * The variants' intervals of one run: those the pages included, and those looked up with
 * `GET /v1/variants/:id` (once per variant per run; a failed lookup is null, logged, and the
 * webhook's fallbacks decide).
 */
function variantIntervals(deps: AppDeps, opts: ProviderHttpOptions) {
  const known = new Map<string, VariantInterval | null>();
  const lookups = new Map<string, Promise<VariantInterval | null>>();
  const { base, headers } = apiOf(deps.config);
  return {
    /** Remembers the variants among a page's `included` objects. */
    learn(included: unknown[]): void {
      for (const o of included) {
        const v = o as { type?: unknown; id?: unknown } | null;
        if (v?.type !== 'variants' || (typeof v.id !== 'string' && typeof v.id !== 'number')) {
          continue;
        }
        known.set(String(v.id), intervalOf(v));
      }
    },
    /** The interval of variant `id` as far as known now (undefined: not known yet). */
    get(id: string): VariantInterval | null | undefined {
      return known.get(id);
    },
    /** The interval of variant `id`, looked up when the pages did not include it. */
    async resolve(id: string): Promise<VariantInterval | null> {
      if (known.has(id)) return known.get(id) ?? null;
      if (!/^\d{1,20}$/.test(id)) return null;
      let pending = lookups.get(id);
      if (!pending) {
        pending = providerGet(
          'LemonSqueezy',
          `${base}/v1/variants/${id}`,
          headers,
          base,
          LEMONSQUEEZY_BUDGET,
          { ...opts, maxAttempts: Math.min(opts.maxAttempts ?? 3, 3) },
        ).then(
          (answer) => intervalOf((answer.body as { data?: unknown } | null)?.data),
          (err: unknown) => {
            deps.log.warn(
              { variant_id: id, err: err instanceof Error ? err.message : String(err) },
              'reconcile: variant lookup failed; the cadence falls back',
            );
            return null;
          },
        );
        lookups.set(id, pending);
      }
      const interval = await pending;
      known.set(id, interval);
      return interval;
    },
  };
}

/**
 * The stored subscriptions of the configured store whose provider ids are not in `seen` and that
 * existed by `before` (one added meanwhile may simply be newer than the list) → the first
 * NOT_AT_PROVIDER_LISTED by id and the total. A row without a recorded store_id (an invoice's
 * placeholder) counts as the store's.
 */
async function storedNotSeen(
  db: Queryable,
  storeId: string,
  seen: string[],
  before: Date,
): Promise<{ rows: NotAtProviderRow[]; total: number }> {
  const r = await db.query<NotAtProviderRow & { total: number }>(
    `SELECT c.email, s.provider_id AS subscription_id, s.status, count(*) OVER ()::int AS total
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND s.created_at <= $3
        AND COALESCE(s.payload -> 'attributes' ->> 'store_id', $2) = $2
        AND NOT EXISTS (SELECT 1 FROM unnest($1::text[]) AS seen(id) WHERE seen.id = s.provider_id)
      ORDER BY s.id LIMIT ${NOT_AT_PROVIDER_LISTED}`,
    [seen, storeId, before],
  );
  return {
    rows: r.rows.map(({ email, subscription_id, status }) => ({ email, subscription_id, status })),
    total: r.rows[0]?.total ?? 0,
  };
}

/**
 * Compares every subscription of the store with the database at deps.now() → the fixes a real
 * run applies, the objects that could not be read, and the stored subscriptions the store no
 * longer lists. Throws ProviderError.
 */
export async function compareLemonSqueezy(
  deps: AppDeps,
  opts: ProviderHttpOptions = {},
): Promise<Comparison> {
  const now = deps.now();
  const fixes: Fix[] = [];
  const failed: FailedRow[] = [];
  const seen: string[] = [];
  const intervals = variantIntervals(deps, opts);
  let checked = 0;
  const pages = await listLemonSqueezySubscriptions(
    deps.config,
    async (raw, included) => {
      intervals.learn(included);
      const entries: Array<{ item: Item; data: Record<string, unknown> }> = [];
      for (const value of raw) {
        const clean = storableJson(value);
        const parsed = subscriptionItem.safeParse(clean);
        if (!parsed.success) {
          const id = (clean as { id?: unknown } | null)?.id;
          const subscriptionId =
            typeof id === 'string' || typeof id === 'number' ? String(id) : '?';
          if (subscriptionId !== '?') seen.push(subscriptionId);
          failed.push({
            email: null,
            subscription_id: subscriptionId,
            error: `not a readable subscription object: ${parsed.error.issues
              .map((i) => `${i.path.join('.')}: ${i.message}`)
              .join('; ')
              .slice(0, 200)}`,
          });
          continue;
        }
        seen.push(parsed.data.id);
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
        const variantId = String(item.attributes.variant_id ?? '');
        const apply = (tx: Queryable, at: Date, reason: string) =>
          applyLemonSqueezySubscription(
            tx,
            { dataId: item.id, data, customData: {} },
            at,
            reason,
            intervals.get(variantId) ?? null,
          ).then((r) => r.effects);
        // The names, when they say, decide before any interval (cadenceOfNames).
        const named =
          cadenceOfNames(
            blankToNull(item.attributes.variant_name),
            blankToNull(item.attributes.product_name),
          ) !== null;
        const prepare = async () => {
          if (!named && variantId !== '') await intervals.resolve(variantId);
        };
        const providerStatus = storedProviderStatus(item.attributes.status);
        if (!row) {
          fixes.push({
            email: item.attributes.user_email,
            subscriptionId: item.id,
            providerStatus,
            isMissing: true,
            mismatches: [],
            prepare,
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
          prepare,
          apply,
        });
      }
    },
    opts,
  );
  // A list cut off at MAX_PAGES is incomplete: an absence from it proves nothing.
  const notAtProvider =
    pages < MAX_PAGES
      ? await storedNotSeen(deps.db, deps.config.lemonSqueezyStoreId ?? '', seen, now)
      : undefined;
  return { checked, fixes, failed, notAtProvider };
}
