/**
 * What the header and the login screen show about the product itself (specification §2 Layout,
 * §9): its title, its version and the two providers' consoles.
 */
import { APP_VERSION } from '../../domain/types';

/** The product title shown in the header and on the login screen. */
export const PRODUCT_TITLE = 'MG Admin Console';

/** The version as shown to operators (§9 "App version: 0.0.1"): 'v0.0.1'. */
export const VERSION_LABEL = `v${APP_VERSION}`;

/** An external link the header offers; it always opens in a new tab. */
export interface ExternalLink {
  /** Visible text, e.g. 'Website' or 'Forum'. */
  label: string;
  /** Absolute http(s) URL. */
  href: string;
}

/** The two billing providers' own consoles (§1: LemonSqueezy store, ClickBank marketplace). */
export const PROVIDER_LINKS: readonly ExternalLink[] = [
  { label: 'LemonSqueezy', href: 'https://app.lemonsqueezy.com' },
  { label: 'ClickBank', href: 'https://accounts.clickbank.com' },
];
