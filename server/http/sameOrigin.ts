/**
 * Cross-site request refusal for the admin API (CSRF). Mounted under the API
 * prefix only: provider webhooks (/webhooks/*, at the server root) are server-to-server calls
 * authenticated by their signatures and are not affected.
 *
 * For every unsafe method (anything but GET, HEAD, OPTIONS) the request is refused with 403
 * `{error:'forbidden', message}` when
 * - `Sec-Fetch-Site` is present and is not `same-origin` or `none` (a browser says `cross-site`
 *   or `same-site` for a request started by another site), or
 * - `Origin` is present and is `null` or names another host than the request's `Host` (ports
 *   included; the scheme is not compared, so a TLS-terminating proxy in front does not matter).
 * Requests without either header (curl, scripts, servers) pass: they cannot carry a victim's
 * cookie by accident, and every route but the event stream needs the Bearer header anyway.
 */
import type { Context, MiddlewareHandler } from 'hono';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why the request counts as cross-site, or null when it may proceed. With `trustedHops` > 0 (a
 * reverse proxy in front, TRUSTED_PROXY_HOPS) the last X-Forwarded-Host entry is accepted as the
 * request's host too, for proxies that rewrite `Host`.
 */
export function crossSiteReason(c: Context, trustedHops = 0): string | null {
  if (SAFE_METHODS.has(c.req.method)) return null;
  const site = c.req.header('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = c.req.header('origin')?.trim();
  if (origin == null || origin === '') return null;
  if (origin === 'null') return 'Origin is null';
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return 'Origin is not a URL';
  }
  let host = c.req.header('host')?.trim().toLowerCase();
  if (!host) {
    try {
      host = new URL(c.req.url).host.toLowerCase();
    } catch {
      host = '';
    }
  }
  // Default ports: "Host: example.com:443" and "Origin: https://example.com" are one origin.
  const bare = (h: string) => h.replace(/:(80|443)$/, '');
  const hosts = [host];
  if (trustedHops > 0) {
    const forwarded = c.req.header('x-forwarded-host')?.split(',').pop()?.trim().toLowerCase();
    if (forwarded) hosts.push(forwarded);
  }
  if (!hosts.some((h) => bare(h) === bare(originHost))) return 'Origin is another site';
  return null;
}

/** Middleware: answers 403 `{error:'forbidden', message:'Cross-site request refused (…)'}` per crossSiteReason. */
export function sameOriginGuard(trustedHops = 0): MiddlewareHandler {
  return async (c, next) => {
    const reason = crossSiteReason(c, trustedHops);
    if (reason) {
      return c.json({ error: 'forbidden', message: `Cross-site request refused (${reason})` }, 403);
    }
    await next();
  };
}
