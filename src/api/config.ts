/**
 * Run-time configuration (CONTRACT.md "Where things live"): `{apiPrefix, defaultAdminEmail,
 * siteUrl?, forumUrl?}`, so one build can talk to another backend and link to its product's own
 * sites (the server's API_PREFIX, ADMIN_EMAIL, SITE_URL and FORUM_URL settings). It reaches the
 * page in one of two ways, both before the app runs:
 * - /admin/config.js, which index.html loads and which sets `window.__MG_CONFIG__` (any backend);
 * - a JSON data block, `<script type="application/json" id="mg-config">`, which the reference
 *   server writes into the document in place of that script tag (server/static.ts,
 *   inlineConsoleConfig), saving a never-cached request on every load.
 * Build-time defaults come from VITE_API_PREFIX, VITE_DEFAULT_ADMIN_EMAIL, VITE_SITE_URL and
 * VITE_FORUM_URL, else '/api/admin', 'admin@example.com' and no site links.
 */
import { z } from './zod';

declare global {
  interface ImportMetaEnv {
    /** Build-time API prefix, e.g. '/api/admin' or 'https://api.example.com/api/admin'. */
    readonly VITE_API_PREFIX?: string;
    /** Build-time default for the login screen's Email field. */
    readonly VITE_DEFAULT_ADMIN_EMAIL?: string;
    /** Build-time default of the product's website (the header's Website link). */
    readonly VITE_SITE_URL?: string;
    /** Build-time default of the product's forum (the header's Forum link). */
    readonly VITE_FORUM_URL?: string;
  }
  interface Window {
    /** Set by /admin/config.js; read through getConfig() only. */
    __MG_CONFIG__?: unknown;
  }
}

/**
 * Id of the JSON data block that carries the configuration in a document served by the reference
 * server (server/static.ts CONFIG_ELEMENT_ID).
 */
export const CONFIG_ELEMENT_ID = 'mg-config';

/** The last data block text read and what it parsed to (the block never changes in a page). */
let inlined: { text: string; value: unknown } | null = null;

/**
 * The configuration of the document's JSON data block (#mg-config), or undefined when the page
 * has no such block (or no document, as in tests and workers) or its text is not JSON.
 */
function inlinedConfig(): unknown {
  const doc = (globalThis as { document?: Pick<Document, 'getElementById'> }).document;
  const text = doc?.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (typeof text !== 'string') return undefined;
  if (inlined?.text !== text) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    inlined = { text, value };
  }
  return inlined.value;
}

/** The console's run-time configuration. */
export interface AppConfig {
  /** Admin API prefix without a trailing slash: '/api/admin' or an absolute http(s) URL. */
  apiPrefix: string;
  /** Pre-filled username on the login screen (§2). */
  defaultAdminEmail: string;
  /** The product's website, an absolute http(s) URL; null = no Website link in the header. */
  siteUrl: string | null;
  /** The product's forum, an absolute http(s) URL; null = no Forum link in the header. */
  forumUrl: string | null;
}

/** A usable prefix: a path from the root ('/api/admin') or an absolute http(s) URL. */
const prefixSchema = z.pipe(
  z.string().check(z.trim(), z.regex(/^(\/|https?:\/\/)/i)),
  z.transform((p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)),
);
const emailSchema = z.string().check(z.trim(), z.minLength(1));
/** A link target: an absolute http(s) URL (never javascript: or a relative path). */
const siteUrlSchema = z.string().check(
  z.trim(),
  z.regex(/^https?:\/\//i),
  z.refine((url) => URL.canParse(url)),
);

/** A valid site URL from `value`, else `fallback`. */
function siteUrl(value: unknown, fallback: string | null): string | null {
  const parsed = siteUrlSchema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

function buildDefaults(): AppConfig {
  const env = import.meta.env ?? {};
  const prefix = prefixSchema.safeParse(env.VITE_API_PREFIX);
  const email = emailSchema.safeParse(env.VITE_DEFAULT_ADMIN_EMAIL);
  return {
    apiPrefix: prefix.success ? prefix.data : '/api/admin',
    defaultAdminEmail: email.success ? email.data : 'admin@example.com',
    siteUrl: siteUrl(env.VITE_SITE_URL, null),
    forumUrl: siteUrl(env.VITE_FORUM_URL, null),
  };
}

/** The build-time defaults (VITE_* or the built-in values). */
export const DEFAULT_CONFIG: Readonly<AppConfig> = Object.freeze(buildDefaults());

/**
 * The effective configuration: each field of the run-time configuration (`window.__MG_CONFIG__`,
 * else the document's #mg-config data block) that is valid (a prefix starting with '/' or
 * http(s)://, a non-blank email, absolute http(s) site and forum URLs) overrides the build-time
 * default; a missing, malformed or partial configuration falls back field by field. Trailing
 * slashes are stripped from the prefix. Never throws; read on every call so tests can change it.
 */
export function getConfig(): AppConfig {
  const raw = (globalThis as { __MG_CONFIG__?: unknown }).__MG_CONFIG__ ?? inlinedConfig();
  const bag = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const prefix = prefixSchema.safeParse(bag.apiPrefix);
  const email = emailSchema.safeParse(bag.defaultAdminEmail);
  return {
    apiPrefix: prefix.success ? prefix.data : DEFAULT_CONFIG.apiPrefix,
    defaultAdminEmail: email.success ? email.data : DEFAULT_CONFIG.defaultAdminEmail,
    siteUrl: siteUrl(bag.siteUrl, DEFAULT_CONFIG.siteUrl),
    forumUrl: siteUrl(bag.forumUrl, DEFAULT_CONFIG.forumUrl),
  };
}
