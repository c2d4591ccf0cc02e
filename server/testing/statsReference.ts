/**
 * The dashboard figures computed the straightforward way, one statement per figure over whole
 * tables: the reference that server/stats/stats.equivalence.test.ts compares the sliced,
 * roll-up-based computation with, and the baseline of bench/server-stats.ts.
 * Tests and benchmarks only; nothing here is imported by the server.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../context';
import { FORUM_OUTBOX_STATUS_UNKNOWN, forumOutboxStatus } from '../outbox/status';
import type { Db } from '../db/types';
import {
  monthlyRecurringCents,
  utcDayBounds,
  type AdminStatusBody,
  type DashboardStatsBody,
} from '../stats';
import { activeAccessCondition, type Cadence } from '../vocabulary';

interface Core {
  activeMonthly: number;
  activeYearly: number;
  mrrCents: number;
  scheduledCancellations: number;
  avgDaysRemaining: number | null;
}

/** Rate into the reporting currency, or null when the configuration has none for `currency`. */
function rateOf(
  config: Pick<ServerConfig, 'fxRates' | 'reportingCurrency'>,
  currency: string,
): number | null {
  if (currency === config.reportingCurrency) return 1;
  const rate = config.fxRates[currency];
  return rate != null && Number.isFinite(rate) ? rate : null;
}

const toNumber = (v: unknown): number => (v == null ? 0 : Number(v));

async function core(db: Db, config: ServerConfig, now: Date, missing: Set<string>): Promise<Core> {
  const nowIso = now.toISOString();
  const groups = await db.query<{
    currency: string;
    cadence: Cadence;
    n: number;
    sum_cents: string | null;
  }>(
    `SELECT s.currency, s.cadence, count(*)::int AS n,
            sum(s.amount_cents) FILTER (WHERE s.status <> 'trialing')::bigint AS sum_cents
       FROM subscriptions s
      WHERE ${activeAccessCondition('s', '$1')}
      GROUP BY s.currency, s.cadence`,
    [nowIso],
  );
  let activeMonthly = 0;
  let activeYearly = 0;
  for (const g of groups.rows) {
    if (g.cadence === 'yearly') activeYearly += g.n;
    else activeMonthly += g.n;
  }
  const mrrCents = monthlyRecurringCents(
    groups.rows.map((g) => ({
      currency: g.currency,
      cadence: g.cadence,
      sum_cents: toNumber(g.sum_cents),
    })),
    config,
    missing,
  );

  // Days left: the member's scheduled expiry when set, else the subscription's ends_at, else its
  // current period end; past ends count as 0.
  const remaining = await db.query<{ avg_days: number | null }>(
    `SELECT avg(GREATEST(0, extract(epoch FROM (COALESCE(m.expires_at, s.ends_at, s.current_period_end) - $1::timestamptz)) / 86400.0))::float8 AS avg_days
       FROM subscriptions s
       LEFT JOIN (SELECT subscription_id, min(expires_at) AS expires_at FROM members
                   WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
                   GROUP BY subscription_id) m ON m.subscription_id = s.id
      WHERE ${activeAccessCondition('s', '$1')}
        AND COALESCE(m.expires_at, s.ends_at, s.current_period_end) IS NOT NULL`,
    [nowIso],
  );
  const avg = remaining.rows[0]?.avg_days;
  const scheduled = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM members WHERE mg_status = 'active' AND expires_at > $1`,
    [nowIso],
  );
  return {
    activeMonthly,
    activeYearly,
    mrrCents,
    scheduledCancellations: scheduled.rows[0]?.n ?? 0,
    avgDaysRemaining: avg == null ? null : Math.round(Number(avg) * 10) / 10,
  };
}

/**
 * Reference GET /stats (§3 Stats): MRR/ARR (ARR = 12 × MRR) in reporting cents,
 * active counts by cadence, scheduled cancellations (members active with a future expires_at),
 * average days remaining, today's new/renewal/cancellation events (UTC day of `now`), customers
 * that ever subscribed, and all-time revenue (new + renewal − refund amounts, converted).
 * Throws when the database fails (the app answers 500/503).
 */
export async function referenceDashboardStats(
  db: Db,
  config: ServerConfig,
  now: Date,
  log?: Logger,
): Promise<DashboardStatsBody> {
  const missing = new Set<string>();
  const c = await core(db, config, now, missing);
  const { start, end } = utcDayBounds(now);
  const today = await db.query<{ type: string; n: number }>(
    `SELECT type, count(*)::int AS n FROM subscription_events
      WHERE occurred_at >= $1 AND occurred_at < $2 AND type IN ('new', 'renewal', 'cancellation')
      GROUP BY type`,
    [start.toISOString(), end.toISOString()],
  );
  const todayCount = (type: string) => today.rows.find((r) => r.type === type)?.n ?? 0;
  const subscribers = await db.query<{ n: number }>(
    'SELECT count(DISTINCT customer_id)::int AS n FROM subscriptions',
  );
  const revenue = await db.query<{ currency: string; net_cents: string | null }>(
    // An event without its own currency is in its subscription's (looked up only for those rows).
    `SELECT COALESCE(e.currency, (SELECT s.currency FROM subscriptions s WHERE s.id = e.subscription_id)) AS currency,
            sum(CASE WHEN e.type IN ('new', 'renewal') THEN COALESCE(e.amount_cents, 0)
                     WHEN e.type = 'refund' THEN -COALESCE(e.amount_cents, 0)
                     ELSE 0 END)::bigint AS net_cents
       FROM subscription_events e
      WHERE e.type IN ('new', 'renewal', 'refund')
      GROUP BY 1`,
  );
  let revenueTotal = 0;
  for (const r of revenue.rows) {
    const rate = rateOf(config, r.currency);
    if (rate == null) missing.add(r.currency);
    else revenueTotal += rate * toNumber(r.net_cents);
  }
  if (missing.size > 0) {
    log?.warn(
      { currencies: [...missing] },
      'stats: no FX rate for these currencies; left out of money figures',
    );
  }
  return {
    currency: config.reportingCurrency,
    mrr_cents: c.mrrCents,
    arr_cents: 12 * c.mrrCents,
    activeSubscribers: c.activeMonthly + c.activeYearly,
    activeMonthly: c.activeMonthly,
    activeYearly: c.activeYearly,
    scheduledCancellations: c.scheduledCancellations,
    avgDaysRemaining: c.avgDaysRemaining,
    newToday: todayCount('new'),
    renewalsToday: todayCount('renewal'),
    cancellationsToday: todayCount('cancellation'),
    totalSubscribers: subscribers.rows[0]?.n ?? 0,
    totalRevenueCents: Math.round(revenueTotal),
  };
}

/**
 * Reference GET /status (§3 Admin stats): the same active figures as /stats plus pending_expire
 * (members active whose expires_at has passed) and webhook_dedup_rows. When the database fails it
 * answers db_ok false with every figure null instead of throwing.
 */
export async function referenceAdminStatus(
  db: Db,
  config: ServerConfig,
  now: Date,
  log?: Logger,
): Promise<AdminStatusBody> {
  try {
    const missing = new Set<string>();
    const c = await core(db, config, now, missing);
    const pending = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM members WHERE mg_status = 'active' AND expires_at <= $1`,
      [now.toISOString()],
    );
    const dedup = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_dedup');
    return {
      db_ok: true,
      active_total: c.activeMonthly + c.activeYearly,
      active_monthly: c.activeMonthly,
      active_yearly: c.activeYearly,
      scheduled_cancellations: c.scheduledCancellations,
      avg_days_remaining: c.avgDaysRemaining,
      mrr: c.mrrCents,
      arr: 12 * c.mrrCents,
      pending_expire: pending.rows[0]?.n ?? 0,
      webhook_dedup_rows: dedup.rows[0]?.n ?? 0,
      // The forum outbox figures are computed once, by the same function as /status.
      ...(await forumOutboxStatus(db, now)),
    };
  } catch (err) {
    log?.error(
      { err: err instanceof Error ? err.message : String(err) },
      'status: database query failed',
    );
    return {
      db_ok: false,
      active_total: null,
      active_monthly: null,
      active_yearly: null,
      scheduled_cancellations: null,
      avg_days_remaining: null,
      mrr: null,
      arr: null,
      pending_expire: null,
      webhook_dedup_rows: null,
      ...FORUM_OUTBOX_STATUS_UNKNOWN,
    };
  }
}
