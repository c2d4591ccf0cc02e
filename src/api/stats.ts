/**
 * Dashboard stats (§2 Dashboard, §3 Stats; GET /stats) and the maintenance area's admin stats
 * (§3 Admin stats; GET /status).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { normaliseAdminStats, normaliseStats, type AdminStats } from '../domain/stats';
import type { DashboardStats } from '../domain/types';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import { wireObject } from './wire';

/**
 * GET /stats → DashboardStats, normalised by normaliseStats (§3, §5 alias spellings and the
 * cents rule). Rejects with ApiError; an answer that is not a JSON object rejects with
 * MalformedResponseError (message '', so the screen shows 'Failed to load stats').
 */
export async function fetchStats(signal?: AbortSignal): Promise<DashboardStats> {
  return normaliseStats(await apiRequest('/stats', { schema: wireObject, signal }));
}

/** Query: the dashboard stats. */
export function statsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.stats(),
    queryFn: ({ signal }) => fetchStats(signal),
  });
}

/**
 * GET /status → AdminStats (§3 Admin stats; mrr/arr in cents per docs/api.md). Rejects with
 * ApiError / MalformedResponseError (not a JSON object).
 */
export async function fetchAdminStatus(signal?: AbortSignal): Promise<AdminStats> {
  return normaliseAdminStats(await apiRequest('/status', { schema: wireObject, signal }));
}

/** Query: the admin stats of the maintenance area. */
export function adminStatusQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.status(),
    queryFn: ({ signal }) => fetchAdminStatus(signal),
  });
}

/** Hook: the admin stats as a query. */
export function useAdminStatus() {
  return useQuery(adminStatusQueryOptions());
}
