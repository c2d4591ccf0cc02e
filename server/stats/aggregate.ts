/**
 * The expensive parts of the dashboard figures (GET /stats, GET /status; specification §2
 * Dashboard, §3 Stats and Admin stats) as short statements.
 *
 * On the embedded database (PGlite: one connection, statements run one at a time) one long
 * aggregate would make every other request wait for it. So each figure reads a covering index
 * (migration 013; index-only scans, never the wide subscription rows) or a roll-up, and the two
 * that must visit every subscription read it in slices of ids (`STATS_SLICE_IDS` per statement),
 * so another request's query waits at most one slice. The figures are exactly those of one
 * statement over the whole table (server/stats/stats.equivalence.test.ts), except that slices are
 * not one snapshot: a write between two slices can land in the figures or not, as if the whole
 * statement had run a moment earlier or later (writes invalidate the cached figures anyway,
 * server/stats/cache.ts).
 */
import type { Queryable } from '../db/types';
import { activeAccessCondition, type Cadence } from '../vocabulary';

/** Ids per slice statement: small enough that a slice is a short wait for the request behind it (bench/server-stats.ts). */
export const STATS_SLICE_IDS = 20_000;

/**
 * Current access of one (currency, cadence): count and Σ amount_cents (null amounts count 0), and
 * recurring_cents, the same sum without trials (MRR leaves trials out: docs/metrics.md "MRR").
 */
export interface AccessGroup {
  currency: string;
  cadence: Cadence;
  n: number;
  sum_cents: number;
  recurring_cents: number;
}

/** What activeAccessFigures answers: the groups, and the days-left sums behind avgDaysRemaining. */
export interface AccessFigures {
  /** One entry per (currency, cadence) with current access, sorted by currency then cadence. */
  groups: AccessGroup[];
  /** Subscriptions with current access and a known end (member expiry, ends_at or period end). */
  dated: number;
  /** Σ max(0, end − now) over those, in microseconds (exact). */
  remainingMicros: bigint;
}

/** Half-open id ranges [lo, hi) of at most `size` ids covering lo..hi (inclusive); [] when empty. */
export function idSlices(
  lo: number | null,
  hi: number | null,
  size = STATS_SLICE_IDS,
): Array<[number, number]> {
  if (lo == null || hi == null || !Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) {
    return [];
  }
  const slices: Array<[number, number]> = [];
  for (let start = lo; start <= hi; start += size) slices.push([start, start + size]);
  return slices;
}

/** A non-negative decimal string with up to 6 fraction digits (PostgreSQL numeric seconds) → microseconds. */
export function secondsToMicros(text: string | null): bigint {
  if (text == null || text === '') return 0n;
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) throw new Error(`stats: cannot read seconds "${text}"`);
  const fraction = (m[2] ?? '').padEnd(6, '0');
  if (/[1-9]/.test(fraction.slice(6))) {
    throw new Error(`stats: seconds "${text}" finer than a microsecond`);
  }
  return BigInt(m[1] ?? '0') * 1_000_000n + BigInt(fraction.slice(0, 6));
}

async function bounds(db: Queryable, sql: string): Promise<Array<[number, number]>> {
  const r = await db.query<{ lo: number | null; hi: number | null }>(sql);
  const row = r.rows[0];
  return idSlices(row?.lo == null ? null : Number(row.lo), row?.hi == null ? null : Number(row.hi));
}

/**
 * Current access at `now` (activeAccessCondition) per (currency, cadence), and the days-left
 * sums: the end of a subscription is its member's earliest scheduled expiry (members active with
 * expires_at), else its ends_at, else its current period end; an end in the past counts 0 days.
 * One statement per slice of subscription ids (index-only over subscriptions_stats_slice_idx and
 * members_stats_expiry_idx). The days left are summed as intervals (integer days and
 * microseconds: exact, and ~10× cheaper per row on PGlite than numeric epoch arithmetic), and
 * turned into seconds once per slice. Rejects when the database fails.
 */
export async function activeAccessFigures(db: Queryable, now: Date): Promise<AccessFigures> {
  const nowIso = now.toISOString();
  const slices = await bounds(db, 'SELECT min(id) AS lo, max(id) AS hi FROM subscriptions');
  const groups = new Map<string, AccessGroup>();
  let dated = 0;
  let remainingMicros = 0n;
  for (const [lo, hi] of slices) {
    const r = await db.query<{
      currency: string;
      cadence: Cadence;
      n: number;
      sum_cents: string | number | null;
      recurring_cents: string | number | null;
      dated: number;
      secs: string | null;
    }>(
      `SELECT s.currency, s.cadence, count(*)::int AS n, sum(s.amount_cents)::bigint AS sum_cents,
              sum(s.amount_cents) FILTER (WHERE s.status <> 'trialing')::bigint AS recurring_cents,
              count(e.end_at)::int AS dated,
              extract(epoch FROM sum(e.end_at - $1::timestamptz) FILTER (WHERE e.end_at > $1))::text AS secs
         FROM subscriptions s
         LEFT JOIN (SELECT subscription_id, min(expires_at) AS expires_at FROM members
                     WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
                       AND subscription_id >= $2 AND subscription_id < $3
                     GROUP BY subscription_id) m ON m.subscription_id = s.id
        CROSS JOIN LATERAL (SELECT COALESCE(m.expires_at, s.ends_at, s.current_period_end) AS end_at) e
        WHERE s.id >= $2 AND s.id < $3 AND ${activeAccessCondition('s', '$1')}
        GROUP BY s.currency, s.cadence`,
      [nowIso, lo, hi],
    );
    for (const row of r.rows) {
      const key = `${row.currency}\u0000${row.cadence}`;
      const g = groups.get(key) ?? {
        currency: row.currency,
        cadence: row.cadence,
        n: 0,
        sum_cents: 0,
        recurring_cents: 0,
      };
      g.n += row.n;
      g.sum_cents += row.sum_cents == null ? 0 : Number(row.sum_cents);
      g.recurring_cents += row.recurring_cents == null ? 0 : Number(row.recurring_cents);
      groups.set(key, g);
      dated += row.dated;
      remainingMicros += secondsToMicros(row.secs);
    }
  }
  const sorted = [...groups.values()].sort(
    (a, b) => a.currency.localeCompare(b.currency) || a.cadence.localeCompare(b.cadence),
  );
  return { groups: sorted, dated, remainingMicros };
}

/** Average days left (one decimal) from activeAccessFigures; null when no subscription has a known end. */
export function averageDaysRemaining(f: Pick<AccessFigures, 'dated' | 'remainingMicros'>) {
  if (f.dated === 0) return null;
  const avg = Number(f.remainingMicros) / f.dated / 86_400_000_000;
  return Math.round(avg * 10) / 10;
}

/**
 * Customers that ever subscribed (distinct customer_id of subscriptions): one index-only count per
 * slice of customer ids (the slices are disjoint, so their counts add up). Rejects on failure.
 */
export async function subscriberCount(db: Queryable): Promise<number> {
  const slices = await bounds(
    db,
    'SELECT min(customer_id) AS lo, max(customer_id) AS hi FROM subscriptions',
  );
  let total = 0;
  for (const [lo, hi] of slices) {
    const r = await db.query<{ n: number }>(
      `SELECT count(DISTINCT customer_id)::int AS n FROM subscriptions
        WHERE customer_id >= $1 AND customer_id < $2`,
      [lo, hi],
    );
    total += r.rows[0]?.n ?? 0;
  }
  return total;
}

/**
 * All-time net revenue per currency in that currency's cents: Σ new and renewal amounts − Σ
 * refund amounts (null amounts count 0), an event without a currency in its subscription's.
 * New and renewal sums come from the daily roll-up metrics_daily_provider (migration 005, kept
 * exact by triggers on every event and subscription write), refunds from their partial index
 * (migration 013). Sorted by currency. Rejects on failure.
 */
export async function netRevenueByCurrency(
  db: Queryable,
): Promise<Array<{ currency: string; net_cents: number }>> {
  const paid = await db.query<{ currency: string; cents: string | number | null }>(
    `SELECT currency, sum(amount_cents)::bigint AS cents FROM metrics_daily_provider
      WHERE type IN ('new', 'renewal') GROUP BY currency`,
  );
  const refunded = await db.query<{ currency: string; cents: string | number | null }>(
    `SELECT COALESCE(e.currency, (SELECT s.currency FROM subscriptions s WHERE s.id = e.subscription_id)) AS currency,
            sum(COALESCE(e.amount_cents, 0))::bigint AS cents
       FROM subscription_events e
      WHERE e.type = 'refund'
      GROUP BY 1`,
  );
  const net = new Map<string, number>();
  for (const r of paid.rows) net.set(r.currency, (net.get(r.currency) ?? 0) + Number(r.cents ?? 0));
  for (const r of refunded.rows) {
    net.set(r.currency, (net.get(r.currency) ?? 0) - Number(r.cents ?? 0));
  }
  return [...net.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, net_cents]) => ({ currency, net_cents }));
}
