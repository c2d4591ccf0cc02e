/**
 * POST /subscriptions/refresh (specification §7; answer `{ok, refreshed, message}` per
 * docs/api.md): re-reads subscriptions from the providers and updates the stored rows.
 *
 * - No provider keys (LEMONSQUEEZY_API_KEY, ClickBank keys) → 200 {ok:false, refreshed:0,
 *   message:'Providers not configured: nothing to refresh'}; nothing is called.
 * - LemonSqueezy key set → pages through `GET /v1/subscriptions?page[number]=N&page[size]=100`
 *   (JSON:API, `Authorization: Bearer <key>`) and, for each subscription already stored, updates
 *   status, current_period_end (renews_at), ends_at, payload (the whole object) and updated_at,
 *   each subscription in a transaction of its own: a status change locks the members that point
 *   at the subscription (migration 027), and one transaction over thousands of subscriptions
 *   would hold those locks, and its subscriptions', while webhooks, access actions and the expiry
 *   job wait for them or deadlock with it. Subscriptions not stored yet are counted as skipped:
 *   creating customers is the webhooks' job. A provider error answers {ok:false, refreshed:0,
 *   message} and writes nothing.
 * - ClickBank: orders arrive by Instant Notification; there is no list-all call to refresh from,
 *   so the answer says so.
 */
import type { AppDeps } from '../context';
import { insertLog } from '../logRows';
import { invalidateStatsCache } from '../stats/cache';

/** The refresh answer (docs/api.md). */
export interface RefreshResult {
  ok: boolean;
  refreshed: number;
  message: string;
  /** Stored rows left alone because the provider did not list them, or listed ones not stored. */
  skipped?: number;
}

/** Where to reach the providers (tests point these at loopback fakes). */
export interface RefreshOptions {
  /** LemonSqueezy API origin, default https://api.lemonsqueezy.com. */
  lemonSqueezyBaseUrl?: string;
  /** Per-call time-out in ms, default 30 000 (§9 request time-out). */
  timeoutMs?: number;
  /** Page cap (100 subscriptions a page), default 200. */
  maxPages?: number;
}

interface LsSubscription {
  id: string;
  attributes: { status?: unknown; renews_at?: unknown; ends_at?: unknown };
}

const toDate = (v: unknown): Date | null => {
  if (typeof v !== 'string') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Runs the refresh described in the module doc → RefreshResult. Never throws for provider failures. */
export async function refreshSubscriptions(
  deps: AppDeps,
  opts: RefreshOptions = {},
): Promise<RefreshResult> {
  const { lemonSqueezyApiKey, clickbankClerkKey, clickbankDeveloperKey } = deps.config;
  if (!lemonSqueezyApiKey) {
    if (!clickbankClerkKey && !clickbankDeveloperKey) {
      return { ok: false, refreshed: 0, message: 'Providers not configured: nothing to refresh' };
    }
    return {
      ok: false,
      refreshed: 0,
      message:
        'LemonSqueezy not configured; ClickBank orders arrive by Instant Notification and are not refreshed',
    };
  }
  const base = (opts.lemonSqueezyBaseUrl ?? 'https://api.lemonsqueezy.com').replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxPages = opts.maxPages ?? 200;
  const fetched: LsSubscription[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const url = `${base}/v1/subscriptions?page[number]=${page}&page[size]=100`;
    let body: { data?: unknown; meta?: { page?: { lastPage?: unknown } } };
    try {
      const res = await fetch(url, {
        headers: {
          Accept: 'application/vnd.api+json',
          Authorization: `Bearer ${lemonSqueezyApiKey}`,
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        return {
          ok: false,
          refreshed: 0,
          message: `LemonSqueezy answered HTTP ${res.status}; nothing was changed`,
        };
      }
      body = (await res.json()) as typeof body;
    } catch (err) {
      const e = err as { name?: string; message?: string };
      const why =
        e?.name === 'TimeoutError'
          ? `timed out after ${timeoutMs} ms`
          : (e?.message ?? String(err));
      return {
        ok: false,
        refreshed: 0,
        message: `LemonSqueezy request failed: ${why}; nothing was changed`,
      };
    }
    const data = Array.isArray(body.data) ? body.data : [];
    for (const item of data) {
      const o = item as Partial<LsSubscription>;
      if (typeof o?.id === 'string' && o.attributes && typeof o.attributes === 'object')
        fetched.push(o as LsSubscription);
    }
    const lastPage = Number(body.meta?.page?.lastPage ?? page);
    if (data.length === 0 || !Number.isFinite(lastPage) || page >= lastPage) break;
  }

  const now = deps.now();
  let refreshed = 0;
  for (const s of fetched) {
    const status = typeof s.attributes.status === 'string' ? s.attributes.status : null;
    if (status === null) continue;
    const r = await deps.db.query(
      `UPDATE subscriptions SET status = $1, current_period_end = $2, ends_at = $3, payload = $4, updated_at = $5
          WHERE provider = 'lemonsqueezy' AND provider_id = $6`,
      [
        status,
        toDate(s.attributes.renews_at),
        toDate(s.attributes.ends_at),
        JSON.stringify(s),
        now,
        s.id,
      ],
    );
    refreshed += r.affectedRows ?? 0;
  }
  await insertLog(deps.db, now, 'info', 'subscriptions.refresh', {
    provider: 'lemonsqueezy',
    fetched: fetched.length,
    refreshed,
  });
  // Provider refreshes emit no live event: drop the cached dashboard figures (server/stats/cache.ts).
  if (refreshed > 0) await invalidateStatsCache(deps);
  const skipped = fetched.length - refreshed;
  return {
    ok: true,
    refreshed,
    skipped,
    message: `Refreshed ${refreshed} LemonSqueezy subscription${refreshed === 1 ? '' : 's'}${skipped > 0 ? ` (${skipped} not stored here, skipped)` : ''}`,
  };
}
