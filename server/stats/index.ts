/**
 * Dashboard figures (GET /stats, specification §2 Dashboard and §3 Stats) and admin stats
 * (GET /status, §3 Admin stats), computed from the database at the clock `now`. "Current access"
 * is activeAccessCondition of server/vocabulary.ts.
 *
 * Money is integer cents. Amounts in other currencies are converted into the reporting currency
 * with the fixed rates of the configuration; a currency without a rate is left out (and logged).
 */
import type { Db } from '../db/types';
import type { Logger } from 'pino';
import type { ServerConfig } from '../context';
import type { Cadence } from '../vocabulary';
import {
  activeAccessFigures,
  averageDaysRemaining,
  netRevenueByCurrency,
  subscriberCount,
} from './aggregate';
import { FORUM_OUTBOX_STATUS_UNKNOWN, forumOutboxStatus } from '../outbox/status';
import { reportingRate } from '../fx';

/** GET /stats body (docs/api.md "Dashboard and status"). Money in cents of `currency`. */
export interface DashboardStatsBody {
  currency: string;
  mrr_cents: number;
  arr_cents: number;
  activeSubscribers: number;
  activeMonthly: number;
  activeYearly: number;
  scheduledCancellations: number;
  /** Average days of access left over subscriptions with current access, one decimal; null when none. */
  avgDaysRemaining: number | null;
  newToday: number;
  renewalsToday: number;
  cancellationsToday: number;
  totalSubscribers: number;
  totalRevenueCents: number;
}

/** GET /status body (§3 Admin stats); mrr and arr in cents of the reporting currency. */
export interface AdminStatusBody {
  db_ok: boolean;
  active_total: number | null;
  active_monthly: number | null;
  active_yearly: number | null;
  scheduled_cancellations: number | null;
  avg_days_remaining: number | null;
  mrr: number | null;
  arr: number | null;
  pending_expire: number | null;
  webhook_dedup_rows: number | null;
  /** Forum outbox backlog and failures (server/outbox/status.ts). */
  forum_pending: number | null;
  forum_oldest_pending_s: number | null;
  forum_failed: number | null;
  forum_last_error: string | null;
  forum_last_error_at: string | null;
}

interface Core {
  activeMonthly: number;
  activeYearly: number;
  mrrCents: number;
  scheduledCancellations: number;
  avgDaysRemaining: number | null;
}

const toNumber = (v: unknown): number => (v == null ? 0 : Number(v));

/**
 * Monthly value in reporting cents of recurring subscriptions (current access, trials left out:
 * docs/metrics.md "MRR") grouped by currency and cadence:
 * Σ_currency rate × (Σ monthly amounts + Σ yearly amounts / 12), rounded once at the end.
 */
export function monthlyRecurringCents(
  groups: Array<{ currency: string; cadence: Cadence; sum_cents: number }>,
  config: Pick<ServerConfig, 'fxRates' | 'reportingCurrency'>,
  missing: Set<string>,
): number {
  let total = 0;
  for (const g of groups) {
    const rate = reportingRate(config, g.currency);
    if (rate == null) {
      missing.add(g.currency);
      continue;
    }
    total += rate * (g.cadence === 'yearly' ? g.sum_cents / 12 : g.sum_cents);
  }
  return Math.round(total);
}

async function core(db: Db, config: ServerConfig, now: Date, missing: Set<string>): Promise<Core> {
  // Current access per (currency, cadence) and the days left, from migration 023's roll-ups and
  // small index ranges (./aggregate.ts): the same figures as one statement over every subscription.
  const access = await activeAccessFigures(db, now);
  let activeMonthly = 0;
  let activeYearly = 0;
  for (const g of access.groups) {
    if (g.cadence === 'yearly') activeYearly += g.n;
    else activeMonthly += g.n;
  }
  const mrrCents = monthlyRecurringCents(
    access.groups.map((g) => ({ ...g, sum_cents: g.recurring_cents })),
    config,
    missing,
  );
  const scheduled = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM members WHERE mg_status = 'active' AND expires_at > $1`,
    [now.toISOString()],
  );
  return {
    activeMonthly,
    activeYearly,
    mrrCents,
    scheduledCancellations: scheduled.rows[0]?.n ?? 0,
    avgDaysRemaining: averageDaysRemaining(access),
  };
}

/** Start (inclusive) and end (exclusive) of the UTC day containing `now`. */
export function utcDayBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start, end: new Date(start.getTime() + 86_400_000) };
}

/**
 * Computes GET /stats (§3 Stats): MRR/ARR (ARR = 12 × MRR) in reporting cents,
 * active counts by cadence, scheduled cancellations (members active with a future expires_at),
 * average days remaining, today's new/renewal/cancellation events (UTC day of `now`), customers
 * that ever subscribed, and all-time revenue (new + renewal − refund amounts, converted).
 * Throws when the database fails (the app answers 500/503).
 */
export async function computeDashboardStats(
  db: Db,
  config: ServerConfig,
  now: Date,
  log?: Logger,
): Promise<DashboardStatsBody> {
  const missing = new Set<string>();
  const c = await core(db, config, now, missing);
  const { start } = utcDayBounds(now);
  // Today's events from the daily roll-up the overview reads (migration 005: every event of a
  // subscription, by UTC day and type, exact at commit): under a stream of webhooks the events of
  // today sit on pages not yet all-visible, and counting them in the index visits each one.
  const today = await db.query<{ type: string; n: number }>(
    `SELECT type, sum(events)::int AS n FROM metrics_daily_provider
      WHERE day = $1::date AND type IN ('new', 'renewal', 'cancellation')
      GROUP BY type`,
    [start.toISOString().slice(0, 10)],
  );
  const todayCount = (type: string) => today.rows.find((r) => r.type === type)?.n ?? 0;
  const subscribers = await subscriberCount(db);
  // Net new + renewal − refund amounts per currency (./aggregate.ts: roll-up and refund index).
  const revenue = await netRevenueByCurrency(db);
  let revenueTotal = 0;
  for (const r of revenue) {
    const rate = reportingRate(config, r.currency);
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
    totalSubscribers: subscribers,
    totalRevenueCents: Math.round(revenueTotal),
  };
}

/**
 * Computes GET /status (§3 Admin stats): the same active figures as /stats plus pending_expire
 * (members active whose expires_at has passed), webhook_dedup_rows and the forum outbox figures
 * (forum_pending, forum_oldest_pending_s, forum_failed, forum_last_error, forum_last_error_at). When the database fails it
 * answers db_ok false with every figure null instead of throwing.
 */
export async function computeAdminStatus(
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
