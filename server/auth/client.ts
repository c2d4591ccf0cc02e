/**
 * Who is asking: the client address behind the configured proxies (sign-in limits, logs, audit).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppDeps } from '../context';

/**
 * The client address used for rate limiting and logs. With `trustedHops` = 0
 * (default) it is the socket's remote address and X-Forwarded-For is ignored. With n > 0 reverse
 * proxies in front, each appending the address it saw to X-Forwarded-For, it is the n-th entry
 * from the RIGHT (the one the outermost trusted proxy wrote); entries further left are
 * client-controlled and never used. When the header has fewer entries, the leftmost one is used.
 * 'unknown' when there is no socket (in-process tests without an env).
 */
export function clientAddress(c: Context, trustedHops: number): string {
  let socket = 'unknown';
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // in-process request without a socket
  }
  if (trustedHops <= 0) return socket;
  const entries = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) return socket;
  const pick = entries[Math.max(0, entries.length - trustedHops)] ?? socket;
  return pick.slice(0, 100);
}

/** The configured number of trusted proxy hops (TRUSTED_PROXY_HOPS; TRUST_PROXY=true counts as 1). */
export function trustedHops(config: AppDeps['config']): number {
  return config.trustedProxyHops ?? (config.trustProxy ? 1 : 0);
}
