/**
 * The billing cadence of a LemonSqueezy subscription. A subscription object does not carry its
 * interval; its variant does (`GET /v1/variants/:id` → `attributes.interval`: day, week, month or
 * year, with `interval_count`). In order of trust:
 * 1. the variant or product name as sent ('Yearly', 'Annual', 'Monthly');
 * 2. the variant's interval from the API, when LEMONSQUEEZY_API_KEY is set (cached per process);
 * 3. the invoice history: the gap between the subscription's two latest charges;
 * 4. the cadence already stored for the subscription;
 * 5. the first period: renews_at a whole number of years after created_at (same month and day)
 *    is yearly, anything else monthly. A monthly subscription's renewal date is a whole number of
 *    months after its start, so its age never makes it yearly.
 */
import type { AppDeps } from '../context';
import type { Queryable } from '../db/types';
import type { Cadence } from '../vocabulary';

/** A variant's billing interval unit as the API names it. */
export type VariantInterval = 'day' | 'week' | 'month' | 'year';

/** How long a looked-up interval is reused (ms); a variant's interval does not change once sold. */
const CACHE_MS = 6 * 3_600_000;
/** Time-out of one variant lookup (ms): the delivery waits for it. */
export const VARIANT_LOOKUP_TIMEOUT_MS = 3000;
const cache = new Map<string, { interval: VariantInterval | null; at: number }>();

/** Cadence of an interval unit: yearly for 'year', monthly for anything shorter. */
export function cadenceOfInterval(interval: VariantInterval): Cadence {
  return interval === 'year' ? 'yearly' : 'monthly';
}

/** Cadence named by a variant or product name ('Yearly', 'Annual plan', 'Monthly'), else null. */
export function cadenceOfNames(...names: Array<string | null | undefined>): Cadence | null {
  const text = names.filter(Boolean).join(' ');
  if (/year|annual/i.test(text)) return 'yearly';
  if (/month/i.test(text)) return 'monthly';
  return null;
}

/**
 * Looks up variant `variantId`'s interval through `GET {LEMONSQUEEZY_API_URL}/v1/variants/:id`
 * → the unit, or null when the API is not configured, the variant is unknown or the call fails
 * (the delivery then falls back to the history; a lookup never fails a delivery).
 */
export async function lookUpVariantInterval(
  deps: Pick<AppDeps, 'config' | 'log'>,
  variantId: string | null,
): Promise<VariantInterval | null> {
  const key = deps.config.lemonSqueezyApiKey;
  if (!key || !variantId || !/^\d{1,20}$/.test(variantId)) return null;
  const base = (deps.config.lemonSqueezyApiUrl ?? 'https://api.lemonsqueezy.com').replace(
    /\/+$/,
    '',
  );
  const cacheKey = `${base} ${variantId}`;
  const hit = cache.get(cacheKey);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.interval;
  try {
    const res = await fetch(`${base}/v1/variants/${variantId}`, {
      headers: { Accept: 'application/vnd.api+json', Authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(VARIANT_LOOKUP_TIMEOUT_MS),
    });
    if (!res.ok) {
      deps.log.warn({ variant_id: variantId, status: res.status }, 'variant lookup refused');
      return null;
    }
    const body = (await res.json()) as { data?: { attributes?: { interval?: unknown } } };
    const raw = body.data?.attributes?.interval;
    const interval =
      raw === 'day' || raw === 'week' || raw === 'month' || raw === 'year' ? raw : null;
    cache.set(cacheKey, { interval, at: Date.now() });
    return interval;
  } catch (err) {
    deps.log.warn(
      { variant_id: variantId, err: err instanceof Error ? err.message : String(err) },
      'variant lookup failed',
    );
    return null;
  }
}

/** Forgets every cached variant interval (tests). */
export function clearVariantCache(): void {
  cache.clear();
}

/**
 * Cadence from subscription `subscriptionId`'s charge history (its 'new' and 'renewal' events):
 * the gap between its two latest charges, over 200 days → yearly; null with fewer than two.
 */
export async function cadenceFromHistory(
  tx: Queryable,
  subscriptionId: number,
): Promise<Cadence | null> {
  const r = await tx.query<{ occurred_at: Date }>(
    `SELECT occurred_at FROM subscription_events
      WHERE subscription_id = $1 AND type IN ('new', 'renewal')
      ORDER BY occurred_at DESC LIMIT 2`,
    [subscriptionId],
  );
  const [last, before] = r.rows;
  if (!last || !before) return null;
  const gapDays =
    (new Date(last.occurred_at).getTime() - new Date(before.occurred_at).getTime()) / 86_400_000;
  if (gapDays < 1) return null;
  return gapDays > 200 ? 'yearly' : 'monthly';
}

/**
 * Cadence from the first period alone: renews_at on the same month and day as created_at, at
 * least 300 days later → yearly; otherwise monthly.
 */
export function cadenceFromPeriod(createdAt: Date, renewsAt: Date | null): Cadence {
  if (!renewsAt) return 'monthly';
  const days = (renewsAt.getTime() - createdAt.getTime()) / 86_400_000;
  const sameDay =
    renewsAt.getUTCMonth() === createdAt.getUTCMonth() &&
    renewsAt.getUTCDate() === createdAt.getUTCDate();
  return days >= 300 && sameDay ? 'yearly' : 'monthly';
}
