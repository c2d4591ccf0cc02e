/**
 * Revenue analytics (docs/api.md "Revenue"): GET /metrics/revenue, /metrics/revenue/movements/:date
 * and /metrics/cohorts. Answers are read permissively into the domain's shapes. Their query keys
 * sit under the metrics family, so the live events that refresh Metrics refresh them too.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { errorMessageOr } from '../domain/messages';
import {
  MOVEMENT_KINDS,
  type Cohort,
  type MovementKind,
  type MovementSubscription,
  type RevenueOverview,
  type RevenueQuery,
} from '../domain/revenue';
import { apiRequest, type QueryParams } from './client';
import { queryKeys } from './queryKeys';
import { asObjectList, readInt, readString, wireObject, type WireObject } from './wire';

const int = (v: unknown): number => readInt(v) ?? 0;
const fraction = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;
const kindOf = (v: unknown): MovementKind => {
  const s = readString(v);
  return (MOVEMENT_KINDS as readonly string[]).includes(s ?? '') ? (s as MovementKind) : 'new';
};

/** GET /metrics/revenue answer → RevenueOverview. */
export function normaliseRevenue(raw: WireObject): RevenueOverview {
  const range = (raw.range ?? {}) as WireObject;
  return {
    currency: readString(raw.currency) ?? 'USD',
    interval: readString(range.interval) === 'month' ? 'month' : 'day',
    from: readString(range.from) ?? '',
    to: readString(range.to) ?? '',
    mrrStartCents: int(raw.mrr_start_cents),
    mrrEndCents: int(raw.mrr_end_cents),
    movements: asObjectList(raw.movements).map((m) => ({
      date: readString(m.date) ?? '',
      new: int(m.new_cents),
      expansion: int(m.expansion_cents),
      reactivation: int(m.reactivation_cents),
      contraction: int(m.contraction_cents),
      churn: int(m.churn_cents),
    })),
    mrrSeries: asObjectList(raw.mrr_series).map((m) => ({
      date: readString(m.date) ?? '',
      mrrCents: int(m.mrr_cents),
    })),
    customersStart: int(raw.customers_start),
    customersEnd: int(raw.customers_end),
    customersChurned: int(raw.customers_churned),
    customerChurnRate: fraction(raw.customer_churn_rate),
    mrrChurnRate: fraction(raw.mrr_churn_rate),
    nrr: fraction(raw.nrr),
    quickRatio: fraction(raw.quick_ratio),
    arpaCents: readInt(raw.arpa_cents),
    ltvCents: readInt(raw.ltv_cents),
    mrrByProvider: asObjectList(raw.mrr_by_provider).map((p) => ({
      name: readString(p.provider) ?? '',
      mrrCents: int(p.mrr_cents),
    })),
    mrrByPlan: asObjectList(raw.mrr_by_plan).map((p) => ({
      name: readString(p.plan) ?? '',
      mrrCents: int(p.mrr_cents),
    })),
  };
}

/** GET /metrics/cohorts answer → cohorts. */
export function normaliseCohorts(raw: WireObject): Cohort[] {
  const pcts = (v: unknown) =>
    Array.isArray(v) ? v.map((x) => (typeof x === 'number' && Number.isFinite(x) ? x : null)) : [];
  return asObjectList(raw.cohorts).map((c) => ({
    cohort: readString(c.cohort) ?? '',
    customers: int(c.customers),
    mrrCents: int(c.mrr_cents),
    logo: pcts(c.logo).map((x) => x ?? 0),
    revenue: pcts(c.revenue),
  }));
}

const params = (q: RevenueQuery): QueryParams => ({ ...q });

/** GET /metrics/revenue → RevenueOverview. Rejects with ApiError (revenueErrorMessage). */
export async function fetchRevenue(q: RevenueQuery, signal?: AbortSignal) {
  const raw = await apiRequest('/metrics/revenue', {
    query: params(q),
    schema: wireObject,
    signal,
  });
  return normaliseRevenue(raw);
}

/** GET /metrics/cohorts → cohorts of the range's months. Rejects with ApiError. */
export async function fetchCohorts(
  q: Pick<RevenueQuery, 'from' | 'to' | 'provider'>,
  signal?: AbortSignal,
) {
  const raw = await apiRequest('/metrics/cohorts', {
    query: { from: q.from, to: q.to, provider: q.provider },
    schema: wireObject,
    signal,
  });
  return normaliseCohorts(raw);
}

/** GET /metrics/revenue/movements/:date → the subscriptions behind one bar. Rejects with ApiError. */
export async function fetchMovementSubscriptions(
  q: RevenueQuery & { date: string; kind: MovementKind; interval: string },
  signal?: AbortSignal,
): Promise<{ total: number; rows: MovementSubscription[] }> {
  const { date, ...rest } = q;
  const raw = await apiRequest(`/metrics/revenue/movements/${encodeURIComponent(date)}`, {
    query: { ...rest },
    schema: wireObject,
    signal,
  });
  return {
    total: int(raw.total),
    rows: asObjectList(raw.rows).map((r) => ({
      subscriptionId: int(r.subscription_id),
      email: readString(r.email) ?? '',
      provider: readString(r.provider) ?? '',
      plan: readString(r.plan) ?? '',
      cadence: readString(r.cadence) ?? '',
      at: readString(r.at) ?? '',
      kind: kindOf(r.kind),
      deltaCents: readInt(r.delta_reporting_cents),
    })),
  };
}

/** Failure text of the revenue figures: the message, or 'Failed to load revenue'. */
export function revenueErrorMessage(error: unknown): string {
  return errorMessageOr(error, 'Failed to load revenue');
}

const key = (what: string, p: QueryParams) => [...queryKeys.metrics.all(), what, p] as const;

/** Query: the revenue figures, keeping the previous ones while new ones load. */
export function revenueQueryOptions(q: RevenueQuery) {
  return queryOptions({
    queryKey: key('revenue', params(q)),
    queryFn: ({ signal }) => fetchRevenue(q, signal),
    placeholderData: keepPreviousData,
  });
}

/** Query: the cohorts. */
export function cohortsQueryOptions(q: Pick<RevenueQuery, 'from' | 'to' | 'provider'>) {
  return queryOptions({
    queryKey: key('cohorts', { from: q.from, to: q.to, provider: q.provider }),
    queryFn: ({ signal }) => fetchCohorts(q, signal),
    placeholderData: keepPreviousData,
  });
}

/** Hook: the revenue figures of one range (disabled when `q` is null). */
export function useRevenue(q: RevenueQuery | null) {
  return useQuery({ ...revenueQueryOptions(q ?? EMPTY_QUERY), enabled: q !== null });
}

/** Hook: the cohorts. */
export function useCohorts(q: Pick<RevenueQuery, 'from' | 'to' | 'provider'>) {
  return useQuery(cohortsQueryOptions(q));
}

/** Hook: the subscriptions behind the selected bar (disabled when none is selected). */
export function useMovementSubscriptions(
  q: (RevenueQuery & { date: string; kind: MovementKind; interval: string }) | null,
) {
  return useQuery({
    queryKey: key('revenue-movements', q ? { ...q } : {}),
    queryFn: ({ signal }) => fetchMovementSubscriptions(q as NonNullable<typeof q>, signal),
    enabled: q !== null,
  });
}

const EMPTY_QUERY: RevenueQuery = {
  from: '',
  to: '',
  interval: '',
  provider: '',
  plan: '',
  cadence: '',
};
