/**
 * The MRR history of a seeded subscription (revenue_spans, migration 015), so the Revenue screen
 * has every movement: each subscription recurs from its start until it ends, and, drawn from a
 * stream of its own (the rest of the demo data does not change with it):
 * - ~12 % of those recurring for at least 60 days changed plan part-way (from a cheaper plan: an
 *   expansion; from a dearer one: a contraction), and recur at their present plan since;
 * - ~6 % of those still recurring after at least 120 days lapsed for 30–75 days part-way and came
 *   back (a churn, then a reactivation).
 * Trials recur at 0 (no span); a paused one stopped at its last payment. Values are in twelfths
 * of a cent: 12 × the monthly price, or the yearly price.
 */
import type { Cadence, Provider } from '../vocabulary';
import { copyLine } from './copy';
import type { Rng } from './prng';
import { PLANS, type Plan } from './vocabulary';

const DAY_MS = 86_400_000;

/** Column list of the COPY lines revenueSpanLines writes. */
export const REVENUE_SPAN_COLUMNS =
  'subscription_id, customer_id, provider, plan, cadence, currency, mrr_twelfths, valid_from, valid_to';

/** What the history needs of one seeded subscription (epoch ms, UTC). */
export interface SpanInput {
  subscriptionId: number;
  customerId: number;
  provider: Provider;
  plan: Plan;
  cadence: Cadence;
  currency: string;
  startMs: number;
  /** The LemonSqueezy-style simulated status (on_trial, active, past_due, paused, unpaid, cancelled, expired). */
  status: string;
  /** When a cancelled, expired or unpaid subscription stopped recurring; null when it has not. */
  endsAt: number | null;
  periodEnd: number;
  paymentTimes: number[];
}

/** Monthly value in twelfths of a cent of a plan at a cadence. */
export function planTwelfths(plan: Plan, cadence: Cadence): number {
  return cadence === 'monthly' ? 12 * plan.monthlyCents : plan.yearlyCents;
}

/** The spans of one subscription as COPY lines (REVENUE_SPAN_COLUMNS), drawing 4 numbers from `rng`. */
export function revenueSpanLines(s: SpanInput, horizonMs: number, rng: Rng): string[] {
  const u = [rng.next(), rng.next(), rng.next(), rng.next()] as const;
  let end: number | null;
  switch (s.status) {
    case 'on_trial':
      return [];
    case 'active':
    case 'past_due':
      end = null;
      break;
    case 'paused':
      end = Math.max(...s.paymentTimes, s.startMs);
      break;
    default:
      end = s.endsAt ?? s.periodEnd;
  }
  if (end !== null && end <= s.startMs) return [];
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  // Changes happen in the past: within the part of the span before the seeding moment.
  const length = Math.min(end ?? horizonMs, horizonMs) - s.startMs;
  const current = { plan: s.plan, from: s.startMs, to: end };
  const spans: Array<{ plan: Plan; from: number; to: number | null }> = [current];
  if (u[0] < 0.12 && length >= 60 * DAY_MS) {
    const at = second(s.startMs + (0.2 + 0.6 * u[1]) * length);
    const others = PLANS.filter((p) => p.name !== s.plan.name);
    const before = others[Math.floor(u[1] * 1e6) % others.length] ?? s.plan;
    spans.splice(0, 1, { plan: before, from: s.startMs, to: at }, { ...current, from: at });
  }
  if (end === null && u[2] < 0.06 && length >= 120 * DAY_MS) {
    const gapFrom = second(s.startMs + (0.3 + 0.3 * u[3]) * length);
    const gapTo = gapFrom + (30 + Math.floor(45 * u[3])) * DAY_MS;
    if (gapTo < horizonMs) {
      const cut: typeof spans = [];
      for (const sp of spans) {
        const to = sp.to ?? Infinity;
        if (to <= gapFrom || sp.from >= gapTo) cut.push(sp);
        else {
          if (sp.from < gapFrom) cut.push({ ...sp, to: gapFrom });
          if (to > gapTo) cut.push({ ...sp, from: gapTo });
        }
      }
      spans.splice(0, spans.length, ...cut);
    }
  }
  return spans.map((sp) =>
    copyLine([
      s.subscriptionId,
      s.customerId,
      s.provider,
      sp.plan.name,
      s.cadence,
      s.currency,
      planTwelfths(sp.plan, s.cadence),
      new Date(sp.from).toISOString(),
      sp.to == null ? null : new Date(sp.to).toISOString(),
    ]),
  );
}
