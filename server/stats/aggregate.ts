/**
 * The expensive parts of the dashboard figures (GET /stats, GET /status; specification §2
 * Dashboard, §3 Stats and Admin stats) as short statements over roll-ups and small index ranges.
 *
 * Current access and the days left split into sums that do not depend on the instant, kept per
 * (status, currency, cadence) and per (status, day of the end) by migration 023, and for the
 * cancelled subscriptions still paid for per (day of ends_at, currency, cadence) by migration 042,
 * plus at most a day of ends of each and the subscriptions whose member's scheduled expiry
 * overrides their own end (off their members' copies, migrations 040 and 043), each read from a
 * covering index (the decomposition is in migration 023's header). The figures are exactly those
 * of one statement over every subscription (server/stats/stats.equivalence.test.ts). The
 * statements are separate reads, not one snapshot: a write committed between two of them can land
 * in the figures or not, as if the whole computation had run a moment earlier or later (writes
 * invalidate the cached figures anyway, server/stats/cache.ts).
 */
import type { Queryable } from '../db/types';
import { ACCESS_STATUSES, activeAccessCondition, type Cadence } from '../vocabulary';

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

/** A whole number of microseconds written as a PostgreSQL numeric (e.g. "1795000000000000" or "…000.000000") → bigint. */
function wholeMicros(text: string | null): bigint {
  if (text == null || text === '') return 0n;
  const m = /^(-?\d+)(?:\.0*)?$/.exec(text.trim());
  if (!m) throw new Error(`stats: cannot read microseconds "${text}"`);
  return BigInt(m[1] ?? '0');
}

type Row = Record<string, string | number | null>;
const num = (v: string | number | null | undefined): number => (v == null ? 0 : Number(v));

/**
 * Current access at `now` (activeAccessCondition of server/vocabulary.ts) per (currency, cadence),
 * and the days-left sums: the end of a subscription is its member's earliest scheduled expiry
 * (members active with expires_at), else its ends_at, else its current period end; an end in the
 * past counts 0 days. Five short statements (migration 023). Days left are summed as intervals or
 * microseconds, exactly. Rejects when the database fails.
 */
export async function activeAccessFigures(db: Queryable, now: Date): Promise<AccessFigures> {
  const nowIso = now.toISOString();
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const today = new Date(dayStart).toISOString().slice(0, 10);
  const tomorrow = new Date(dayStart + 86_400_000).toISOString();
  const nowMicros = BigInt(now.getTime()) * 1000n;
  const statuses = [...ACCESS_STATUSES];

  // The statuses that grant access on their own, from the roll-up.
  const own = await db.query<Row>(
    `SELECT currency, cadence, sum(n)::bigint AS n, sum(amount_cents)::bigint AS sum_cents,
            COALESCE(sum(amount_cents) FILTER (WHERE status <> 'trialing'), 0)::bigint AS recurring_cents,
            sum(dated)::bigint AS dated
       FROM stats_access_groups WHERE status = ANY($1::text[])
      GROUP BY currency, cadence HAVING sum(n) > 0`,
    [statuses],
  );
  // Their own ends after today, whole days at a time …
  const later = await db.query<Row>(
    `SELECT COALESCE(sum(n), 0)::bigint AS n, COALESCE(sum(end_micros), 0)::text AS micros
       FROM stats_access_days WHERE status = ANY($1::text[]) AND end_day > $2::date`,
    [statuses, today],
  );
  // … and later today.
  const todayRest = await db.query<Row>(
    `SELECT extract(epoch FROM sum(COALESCE(ends_at, current_period_end) - $1::timestamptz))::text AS secs
       FROM subscriptions
      WHERE COALESCE(ends_at, current_period_end) > $1::timestamptz
        AND COALESCE(ends_at, current_period_end) < $2::timestamptz
        AND status = ANY($3::text[])`,
    [nowIso, tomorrow, statuses],
  );
  // Cancelled but paid until a future ends_at (the rest of activeAccessCondition); their own end
  // is that ends_at, their days left Σ (ends_at − now) in microseconds: those ending after today
  // from the roll-up (migration 042), those ending later today from their index.
  const cancelled = await db.query<Row>(
    `SELECT currency, cadence, sum(n)::bigint AS n, sum(cents)::bigint AS sum_cents,
            sum(micros)::text AS micros
       FROM (SELECT currency, cadence, n, amount_cents AS cents, end_micros - n * $3::numeric AS micros
               FROM stats_cancelled_days WHERE end_day > $2::date
             UNION ALL
             SELECT currency, cadence, 1, COALESCE(amount_cents, 0),
                    extract(epoch FROM ends_at - $1::timestamptz) * 1000000
               FROM subscriptions
              WHERE status = 'cancelled' AND ends_at > $1::timestamptz AND ends_at < $4::timestamptz) c
      GROUP BY currency, cadence HAVING sum(n) > 0`,
    [nowIso, today, nowMicros.toString(), tomorrow],
  );
  // Where a member's scheduled expiry overrides the own end of a subscription with access: its
  // days instead of the own end's. The members carry their subscription's status, ends_at and
  // current_period_end (migrations 035, 036 and 040), equal for every member of one subscription;
  // only those whose expiry is not that own end can change it, and their index answers alone
  // (migration 043). A member left out expires at the own end: where the others' earliest expiry
  // is later, the earliest is the own end and the subscription drops out after one probe (a
  // LIMIT 1 subquery: the planner misjudges how many members the index holds and would hash every
  // member with an expiry for an EXISTS).
  const overridden = await db.query<Row>(
    `SELECT count(*) FILTER (WHERE o.end_at IS NULL)::int AS newly_dated,
            extract(epoch FROM sum(o.expires_at - $1::timestamptz) FILTER (WHERE o.expires_at > $1::timestamptz))::text AS member_secs,
            extract(epoch FROM sum(o.end_at - $1::timestamptz) FILTER (WHERE o.end_at > $1::timestamptz))::text AS own_secs
       FROM (SELECT s.subscription_id, min(s.expires_at) AS expires_at,
                    min(COALESCE(s.ends_at, s.current_period_end)) AS end_at
               FROM (SELECT subscription_id, expires_at, sub_status AS status, sub_ends_at AS ends_at,
                            sub_current_period_end AS current_period_end
                       FROM members
                      WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
                        AND expires_at IS DISTINCT FROM COALESCE(sub_ends_at, sub_current_period_end)) s
              WHERE ${activeAccessCondition('s', '$1')}
              GROUP BY s.subscription_id) o
      WHERE NOT (o.expires_at > o.end_at
                 AND (SELECT true FROM members m
                       WHERE m.subscription_id = o.subscription_id AND m.mg_status = 'active'
                         AND m.expires_at IS NOT NULL AND m.expires_at = o.end_at LIMIT 1) IS NOT NULL)`,
    [nowIso],
  );

  const groups = new Map<string, AccessGroup>();
  const add = (currency: string, cadence: Cadence, n: number, sum: number, recurring: number) => {
    const key = `${currency}\u0000${cadence}`;
    const g = groups.get(key) ?? { currency, cadence, n: 0, sum_cents: 0, recurring_cents: 0 };
    g.n += n;
    g.sum_cents += sum;
    g.recurring_cents += recurring;
    groups.set(key, g);
  };
  let dated = 0;
  for (const r of own.rows) {
    add(
      String(r.currency),
      r.cadence as Cadence,
      num(r.n),
      num(r.sum_cents),
      num(r.recurring_cents),
    );
    dated += num(r.dated);
  }
  let remainingMicros =
    wholeMicros(later.rows[0]?.micros as string | null) - BigInt(num(later.rows[0]?.n)) * nowMicros;
  remainingMicros += secondsToMicros((todayRest.rows[0]?.secs as string | null) ?? null);
  for (const r of cancelled.rows) {
    // A cancelled subscription is never a trial: all of it is recurring.
    add(String(r.currency), r.cadence as Cadence, num(r.n), num(r.sum_cents), num(r.sum_cents));
    dated += num(r.n);
    remainingMicros += wholeMicros(r.micros as string | null);
  }
  const o = overridden.rows[0];
  dated += num(o?.newly_dated);
  remainingMicros += secondsToMicros((o?.member_secs as string | null) ?? null);
  remainingMicros -= secondsToMicros((o?.own_secs as string | null) ?? null);
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
 * Customers that ever subscribed (distinct customer_id of subscriptions), kept by migration 023's
 * triggers. Rejects on failure.
 */
export async function subscriberCount(db: Queryable): Promise<number> {
  const r = await db.query<{ n: string | number }>(
    `SELECT n FROM stats_totals WHERE name = 'subscribed_customers'`,
  );
  return num(r.rows[0]?.n ?? 0);
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
