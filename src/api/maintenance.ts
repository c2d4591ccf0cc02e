/**
 * Maintenance calls (§2 Maintenance, §7, CONTRACT.md candidate paths): expiration preview/run,
 * diagnostics, pings to the forum and both providers, enforce-now, reconciliation. Candidate paths are tried in
 * order, moving on only on 404 (apiRequestFirstFound).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  normaliseMaintenanceResult,
  type MaintenanceResult,
  type PingSummary,
} from '../domain/maintenance';
import {
  normaliseReconcileResult,
  type ReconcileProvider,
  type ReconcileResult,
} from '../domain/reconcile';
import { apiRequest, apiRequestFirstFound } from './client';
import { queryKeys } from './queryKeys';
import { asObject, wireObject, type WireObject } from './wire';

/** §7 expiration run candidates, in order. */
export const EXPIRATION_PATHS = [
  'maintenance/run-expiration',
  'run-expiration',
  'jobs/run-expiration',
] as const;
/** §7 forum (Discourse) ping candidates, in order. */
export const DISCOURSE_PING_PATHS = [
  'maintenance/ping-discourse',
  'maintenance/ping',
  'ping-discourse',
  'ping',
] as const;
/** §7 marketplace (ClickBank) ping candidates, in order. */
export const CLICKBANK_PING_PATHS = [
  'maintenance/ping-clickbank',
  'ping-clickbank',
  'clickbank/ping',
] as const;

/** The marketplace ping's optional variant (§2, §7 which=secret|developer). */
export type ClickbankPingVariant = 'secret' | 'developer';

/**
 * GET {expiration candidate}?dryRun=true → MaintenanceResult preview (§2 Dry run). Rejects with
 * ApiError (all 404 → 404 'Not Found – none of the candidate paths responded…').
 */
export async function previewExpiration(signal?: AbortSignal): Promise<MaintenanceResult> {
  const raw = await apiRequestFirstFound(EXPIRATION_PATHS, {
    query: { dryRun: 'true' },
    schema: wireObject,
    signal,
  });
  return normaliseMaintenanceResult(raw);
}

/**
 * POST {expiration candidate} {dryRun:false} → MaintenanceResult (§2 Run now, after the
 * 'Run expiration now?' confirmation). Rejects with ApiError.
 */
export async function runExpiration(signal?: AbortSignal): Promise<MaintenanceResult> {
  const raw = await apiRequestFirstFound(EXPIRATION_PATHS, {
    method: 'POST',
    body: { dryRun: false },
    schema: wireObject,
    signal,
  });
  return normaliseMaintenanceResult(raw);
}

/** GET /maintenance/diag → the free-form diagnostics object (CONTRACT.md). Rejects with ApiError. */
export async function fetchDiag(signal?: AbortSignal): Promise<WireObject> {
  return apiRequest('/maintenance/diag', { schema: wireObject, signal });
}

/** Query: diagnostics (run on demand: enabled false by default in the screen). */
export function diagQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.maintenance.diag(),
    queryFn: ({ signal }) => fetchDiag(signal),
  });
}

/** Hook: diagnostics as a query. */
export function useDiag(enabled = true) {
  return useQuery({ ...diagQueryOptions(), enabled });
}

function toPing(raw: unknown): PingSummary {
  return asObject(raw) ?? { message: typeof raw === 'string' ? raw : null };
}

/**
 * GET the forum ping (candidates DISCOURSE_PING_PATHS) → PingSummary. All 404 → ApiError 404
 * with the §8 not-found text; other failures reject with ApiError (show pingFailureLine).
 */
export async function pingDiscourse(signal?: AbortSignal): Promise<PingSummary> {
  return toPing(await apiRequestFirstFound(DISCOURSE_PING_PATHS, { signal }));
}

/** GET /maintenance/ping-lemonsqueezy → PingSummary. Rejects with ApiError. */
export async function pingLemonSqueezy(signal?: AbortSignal): Promise<PingSummary> {
  return toPing(await apiRequest('/maintenance/ping-lemonsqueezy', { signal }));
}

/**
 * GET the marketplace ping (candidates CLICKBANK_PING_PATHS), with which=secret|developer when
 * given → PingSummary. Rejects with ApiError.
 */
export async function pingClickbank(
  which?: ClickbankPingVariant | null,
  signal?: AbortSignal,
): Promise<PingSummary> {
  return toPing(
    await apiRequestFirstFound(CLICKBANK_PING_PATHS, { query: { which: which ?? null }, signal }),
  );
}

/** POST /maintenance/enforce-now {email} (§7) → the answer as sent. Rejects with ApiError. */
export async function enforceNow(email: string, signal?: AbortSignal): Promise<unknown> {
  return apiRequest('/maintenance/enforce-now', { method: 'POST', body: { email }, signal });
}

/**
 * POST /maintenance/reconcile {provider, dryRun} → ReconcileResult (docs/api.md
 * "Reconciliation"). Rejects with ApiError: 409 `not_configured` or `conflict`, 424
 * `provider_unavailable`, 403 below the admin role.
 */
export async function reconcile(
  provider: ReconcileProvider,
  dryRun: boolean,
  signal?: AbortSignal,
): Promise<ReconcileResult> {
  const raw = await apiRequest('/maintenance/reconcile', {
    method: 'POST',
    body: { provider, dryRun },
    schema: wireObject,
    signal,
  });
  return normaliseReconcileResult(raw, provider);
}
