/**
 * Provider status filter values (specification §4 "Users filter options" and §2 Subscriptions
 * status select: active, trialing, paused, past_due, cancelled). The stored status is the
 * provider's own word: LemonSqueezy says `on_trial` where the console says `trialing`, so the
 * filter value 'trialing' matches both spellings. Any other lower-case word is matched as is, so
 * rows carrying other statuses (unpaid, expired) stay reachable.
 */
import { badRequest } from '../errors';
import { queryText, type Query } from './params';

const ALIASES: Record<string, string[]> = {
  trialing: ['trialing', 'on_trial'],
  on_trial: ['trialing', 'on_trial'],
  cancelled: ['cancelled', 'canceled'],
  canceled: ['cancelled', 'canceled'],
};

/**
 * Reads a provider-status filter parameter → the stored status values it matches (e.g.
 * 'trialing' → ['trialing', 'on_trial']), or undefined when absent. 400 unless a word of
 * letters and underscores (≤ 32 characters).
 */
export function parseProviderStatus(q: Query, name: string): string[] | undefined {
  const t = queryText(q, name);
  if (t === undefined) return undefined;
  const v = t.toLowerCase();
  if (!/^[a-z_]{1,32}$/.test(v)) {
    throw badRequest(
      `${name} must be a status word such as active, trialing, paused, past_due or cancelled (got '${t}')`,
    );
  }
  return ALIASES[v] ?? [v];
}
