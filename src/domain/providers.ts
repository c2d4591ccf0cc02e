/**
 * Billing-provider rules (specification §1, §2 Subscriptions). Pure.
 */
import type { Provider } from './types';

/** The marketplace provider value (§1): the one whose details carry ClickBank order records. */
export const CLICKBANK: Provider = 'clickbank';

/**
 * Whether a provider value is ClickBank, ignoring case and surrounding spaces ('clickbank',
 * 'ClickBank', ' CLICKBANK ' → true; null, '' or 'lemonsqueezy' → false). The one place the
 * console decides it: the orders query, the drawer's Order details, the Location line and the
 * display-name fallback all ask here.
 */
export function isClickbank(provider: string | null | undefined): boolean {
  return typeof provider === 'string' && provider.trim().toLowerCase() === CLICKBANK;
}
