/**
 * Rules of the Subscriptions screen's detail drawer and footer (§2 Subscriptions). Pure.
 */
import { normaliseCurrency, parseUtc } from './format';
import { isClickbank } from './providers';
import type { MarketplaceOrder, SubscriptionDetail, SubscriptionRow } from './types';

/** The footer text when the page holds more than one currency (§2), copied exactly. */
export const MIXED_CURRENCY_LABEL = '— Mixed —';

function nonBlank(value: string | null | undefined): string | null {
  const text = typeof value === 'string' ? value.trim() : '';
  return text ? text : null;
}

/**
 * The name shown in the drawer (§2): the detail's name; else, for the marketplace (clickbank),
 * the latest order's display name; else the order's first plus last name. Null when none (a dash).
 */
export function displayName(
  detail: Pick<SubscriptionDetail, 'name' | 'provider'>,
  latestOrder?: MarketplaceOrder | null,
): string | null {
  const name = nonBlank(detail.name);
  if (name) return name;
  if (!latestOrder) return null;
  if (isClickbank(detail.provider)) {
    const display = nonBlank(latestOrder.customerDisplayName);
    if (display) return display;
  }
  const full = [nonBlank(latestOrder.firstName), nonBlank(latestOrder.lastName)]
    .filter(Boolean)
    .join(' ');
  return full || null;
}

/** Marketplace location (§2): 'state, country, postal code', skipping blanks; null when none. */
export function marketplaceLocation(
  order: Pick<MarketplaceOrder, 'state' | 'country' | 'postalCode'> | null | undefined,
): string | null {
  if (!order) return null;
  const parts = [order.state, order.country, order.postalCode].map(nonBlank).filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

/**
 * The Core section's Address/Region line (§2): the address as 'city, state, postal code,
 * country'; without an address, 'city, region, country' from the customer fields. Null when none.
 */
export function addressRegion(
  detail: Pick<SubscriptionDetail, 'address' | 'city' | 'region' | 'country'>,
): string | null {
  const a = detail.address;
  const parts = a ? [a.city, a.state, a.postalCode, a.country].map(nonBlank).filter(Boolean) : [];
  const fallback = [detail.city, detail.region, detail.country].map(nonBlank).filter(Boolean);
  const chosen = parts.length ? parts : fallback;
  return chosen.length ? chosen.join(', ') : null;
}

/** A named external link for the Useful Links section (§2). */
export interface ExternalLink {
  /** The key of the detail's urls map, e.g. 'customer_portal'. */
  name: string;
  /** An absolute http(s) URL. */
  href: string;
}

/**
 * The detail's named links that are safe to open in a new tab (§2 Useful Links): only absolute
 * http: and https: URLs, in the map's order; javascript:, data:, relative or malformed ones are
 * dropped.
 */
export function safeExternalLinks(
  urls: Record<string, unknown> | null | undefined,
): ExternalLink[] {
  if (!urls || typeof urls !== 'object') return [];
  const links: ExternalLink[] = [];
  for (const [name, value] of Object.entries(urls)) {
    if (typeof value !== 'string') continue;
    try {
      const url = new URL(value.trim());
      if (url.protocol === 'http:' || url.protocol === 'https:')
        links.push({ name, href: url.href });
    } catch {
      // not an absolute URL: skipped
    }
  }
  return links;
}

/** The footer total of a page of subscriptions (§2). */
export type PageAmountTotal =
  { kind: 'single'; amountCents: number; currency: string } | { kind: 'mixed' } | { kind: 'none' };

/**
 * Totals the amounts on the page (§2 footer). Rows without an amount are skipped; a missing
 * currency counts as USD (§1). One currency → its sum in cents; more than one → 'mixed' (shown as
 * '— Mixed —'); no amounts at all → 'none' (a dash).
 */
export function pageAmountTotal(
  rows: readonly Pick<SubscriptionRow, 'amountCents' | 'currency'>[],
): PageAmountTotal {
  let sum = 0;
  const currencies = new Set<string>();
  for (const row of rows) {
    if (row.amountCents == null || !Number.isFinite(row.amountCents)) continue;
    currencies.add(normaliseCurrency(row.currency));
    sum += row.amountCents;
  }
  if (currencies.size === 0) return { kind: 'none' };
  if (currencies.size > 1) return { kind: 'mixed' };
  const [currency] = [...currencies] as [string];
  return { kind: 'single', amountCents: sum, currency };
}

/**
 * Splits marketplace orders (newest first) into the latest and the previous ones (§2 Order
 * details); `latest` is null when there are no local order records.
 */
export function splitOrders(orders: readonly MarketplaceOrder[]): {
  latest: MarketplaceOrder | null;
  previous: MarketplaceOrder[];
} {
  const [latest, ...previous] = orders;
  return { latest: latest ?? null, previous };
}

/**
 * Marketplace orders newest first by created_at_provider (UTC ISO-8601, §3 Marketplace order
 * record); orders without a readable date keep their relative order after the dated ones.
 * Returns a new array; the input is not changed.
 */
export function sortOrdersNewestFirst(orders: readonly MarketplaceOrder[]): MarketplaceOrder[] {
  const time = (o: MarketplaceOrder) => parseUtc(o.createdAtProvider)?.getTime() ?? null;
  return orders
    .map((order, index) => ({ order, index, t: time(order) }))
    .sort((a, b) => {
      if (a.t !== null && b.t !== null && a.t !== b.t) return b.t - a.t;
      if (a.t === null && b.t !== null) return 1;
      if (a.t !== null && b.t === null) return -1;
      return a.index - b.index;
    })
    .map((x) => x.order);
}
