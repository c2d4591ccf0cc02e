/**
 * Display rules of the Subscriptions screen and its detail drawer that src/domain/detail.ts does
 * not cover (specification §2 Subscriptions, §5): the Location line, yes/no, cadence and
 * dash fallbacks. Pure and total: every function accepts missing values and never throws.
 */
import { DASH } from './format';
import { marketplaceLocation } from './detail';
import { isClickbank } from './providers';
import type { MarketplaceOrder, SubscriptionDetail } from './types';

/** A trimmed non-empty string, or null. */
function text(value: string | null | undefined): string | null {
  const trimmed = String(value ?? '').trim();
  return trimmed ? trimmed : null;
}

/**
 * The Location line of Customer / Marketing (§2). For the marketplace: the latest order's state,
 * country and postal code; otherwise, or when the order has none, the detail's city, region and
 * country. Null when nothing is known (shown as a dash).
 */
export function locationText(
  detail: Pick<SubscriptionDetail, 'provider' | 'city' | 'region' | 'country'>,
  latestOrder: MarketplaceOrder | null,
): string | null {
  if (isClickbank(detail.provider)) {
    const fromOrder = marketplaceLocation(latestOrder);
    if (fromOrder) return fromOrder;
  }
  const parts = [detail.city, detail.region, detail.country].map(text).filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** A urls-map key made readable for a link: 'update_payment_method' → 'Update payment method'. */
export function linkLabel(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/** A boolean as 'yes' / 'no' (§2 Cancelled (yes/no), Test Mode); a dash when missing. */
export function yesNo(value: boolean | null | undefined): string {
  if (value == null) return DASH;
  return value ? 'yes' : 'no';
}

/** Cadence for display: monthly → Monthly, yearly → Yearly (the §2 filter labels); others as sent. */
export function cadenceLabel(cadence: string | null | undefined): string {
  const value = text(cadence);
  if (value == null) return DASH;
  const lower = value.toLowerCase();
  if (lower === 'monthly') return 'Monthly';
  if (lower === 'yearly') return 'Yearly';
  return value;
}

/** Any scalar as text; a dash when missing, blank or not a finite number. */
export function orDash(value: string | number | null | undefined): string {
  if (value == null) return DASH;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : DASH;
  return text(value) ?? DASH;
}
