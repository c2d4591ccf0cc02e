/**
 * Users list and forum-access actions (§2 Users, §3 User row / Users list / Action response,
 * §7 GET /users and POST /users/actions/*).
 */
import {
  keepPreviousData,
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from './zod';
import { errorMessageOr, MESSAGES } from '../domain/messages';
import { totalPages } from '../domain/paging';
import { buildUsersParams } from '../domain/query';
import type {
  AccessAction,
  ActionResult,
  DiscourseOutcome,
  UserRow,
  UsersPage,
  UsersQuery,
} from '../domain/types';
import { apiRequest } from './client';
import { queryKeys } from './queryKeys';
import {
  asObject,
  readBool,
  readInt,
  readString,
  wireId,
  wireInt,
  wireObject,
  wireString,
} from './wire';

/** One wire user row (snake_case, docs/api.md) → UserRow. row_id and email are required. */
export const userRowSchema = z.pipe(
  z.object({
    row_id: wireId,
    email: z.string(),
    provider: wireString,
    provider_id: wireString,
    provider_status: wireString,
    mg_status: wireString,
    mg_status_label: wireString,
    cadence: wireString,
    start_date: wireString,
    expires_at: wireString,
    current_period_end: wireString,
    updated_at: wireString,
  }),
  z.transform((r): UserRow => ({
    rowId: r.row_id,
    email: r.email,
    provider: r.provider,
    providerId: r.provider_id,
    providerStatus: r.provider_status,
    mgStatus: r.mg_status,
    mgStatusLabel: r.mg_status_label,
    cadence: r.cadence,
    startDate: r.start_date,
    expiresAt: r.expires_at,
    currentPeriodEnd: r.current_period_end,
    updatedAt: r.updated_at,
  })),
);

/** GET /users answer {rows, total, totalPages} (total_pages accepted) before paging fallbacks. */
export const usersPageSchema = z.object({
  rows: z.array(userRowSchema),
  total: wireInt,
  totalPages: wireInt,
  total_pages: wireInt,
});

/**
 * GET /users with the §7 parameters of `q` (buildUsersParams: trimmed, blanks dropped, sort
 * '-updated_at') → UsersPage. A missing total counts the rows; missing totalPages is computed
 * with totalPages(total, pageSize) (at least 1). Rejects with ApiError / MalformedResponseError.
 */
export async function fetchUsers(q: UsersQuery, signal?: AbortSignal): Promise<UsersPage> {
  const answer = await apiRequest('/users', {
    query: buildUsersParams(q),
    schema: usersPageSchema,
    signal,
  });
  const total = answer.total ?? answer.rows.length;
  return {
    rows: answer.rows,
    total,
    totalPages: answer.totalPages ?? answer.total_pages ?? totalPages(total, q.pageSize),
  };
}

/**
 * Query: one users page. Keeps the previous page on screen while the next loads
 * (placeholderData: keepPreviousData), so paging and filtering do not flash a spinner.
 */
export function usersQueryOptions(q: UsersQuery) {
  return queryOptions({
    queryKey: queryKeys.users.list(buildUsersParams(q)),
    queryFn: ({ signal }) => fetchUsers(q, signal),
    placeholderData: keepPreviousData,
    // §4 lists reload on a change of page, size, sort or filters, a return to a page seen moments
    // ago included: the cached page shows while it is asked for again.
    staleTime: 0,
  });
}

/** Hook: one users page as a query. */
export function useUsers(q: UsersQuery) {
  return useQuery(usersQueryOptions(q));
}

/** §8 users load failure text: the error's message, or 'Failed to load users'. */
export function usersErrorMessage(error: unknown): string {
  return errorMessageOr(error, MESSAGES.users);
}

/* ------------------------------------------------------------------------------------------ */
/* Actions                                                                                      */
/* ------------------------------------------------------------------------------------------ */

function errorText(value: unknown): string | null {
  const text = readString(value);
  if (text) return text;
  const bag = asObject(value);
  if (bag) return readString(bag.message) ?? JSON.stringify(bag);
  return null;
}

function toErrorList(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value
      .map((e) => (typeof e === 'string' ? e : errorText(e)))
      .filter((e): e is string => !!e && !!e.trim());
  }
  const single = errorText(value);
  return single ? [single] : [];
}

/**
 * The `discourse` object of an action answer (§3) → DiscourseOutcome, or null when absent or
 * not an object. errors come from payload.errors (or errors); groupId from groupId or group_id.
 */
export function normaliseDiscourse(raw: unknown): DiscourseOutcome | null {
  const d = asObject(raw);
  if (!d) return null;
  const payload = asObject(d.payload);
  const out: DiscourseOutcome = {};
  const ok = readBool(d.ok);
  if (ok !== null) out.ok = ok;
  const error = errorText(d.error);
  if (error) out.error = error;
  const status = readInt(d.status);
  if (status !== null) out.status = status;
  const errors = toErrorList(payload?.errors ?? d.errors);
  if (errors.length) out.errors = errors;
  if (readBool(d.invited) !== null) out.invited = readBool(d.invited) === true;
  const groupId = d.groupId ?? d.group_id;
  if (typeof groupId === 'number' || typeof groupId === 'string') out.groupId = groupId;
  if (readBool(d.skipped) !== null) out.skipped = readBool(d.skipped) === true;
  const reason = readString(d.reason);
  if (reason) out.reason = reason;
  if (readBool(d.queued) !== null) out.queued = readBool(d.queued) === true;
  return out;
}

/** An action answer (§3 Action response, any JSON object) → ActionResult. */
export const actionResultSchema = z.pipe(
  wireObject,
  z.transform((a): ActionResult => ({
    discourse: normaliseDiscourse(a.discourse),
    scheduledExpiresAt: readString(a.scheduled_expires_at ?? a.scheduledExpiresAt),
  })),
);

/** The wire body of an access action (§7): {email}, {email, until} or {email, date}. */
export function accessActionBody(email: string, action: AccessAction): Record<string, string> {
  switch (action.kind) {
    case 'grant_on_date':
      return { email, until: action.until };
    case 'revoke_on_date':
      return { email, date: action.date };
    default:
      return { email };
  }
}

/**
 * POST /users/actions/{grant|grant_on_date|revoke_now|revoke_deferred|revoke_on_date} (§7) with
 * {email} / {email, until} / {email, date} (dates already 'YYYY-MM-DD HH:MM:SS' UTC) →
 * ActionResult; show it with describeActionResult. Rejects with ApiError (show
 * describeActionError).
 */
export async function runAccessAction(
  email: string,
  action: AccessAction,
  signal?: AbortSignal,
): Promise<ActionResult> {
  return apiRequest(`/users/actions/${action.kind}`, {
    method: 'POST',
    body: accessActionBody(email, action),
    schema: actionResultSchema,
    signal,
  });
}

/** Variables of the access-action mutation. */
export interface AccessActionVariables {
  email: string;
  action: AccessAction;
}

/**
 * Mutation: run an access action, then mark what it changes as stale (users, subscriptions,
 * stats, admin status) without waiting for the refetch, so the alert shows at once.
 */
export function accessActionMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationKey: [...queryKeys.users.all(), 'action'],
    mutationFn: ({ email, action }: AccessActionVariables) => runAccessAction(email, action),
    onSuccess: () => {
      void invalidateAccessData(queryClient);
    },
  });
}

/** Marks every list and figure an access change can move as stale. */
export async function invalidateAccessData(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.users.all() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions.all() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.stats() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.status() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.customers.all() }),
  ]);
}

/** Hook: the access-action mutation (mutateAsync({email, action}) → ActionResult). */
export function useAccessAction() {
  const queryClient = useQueryClient();
  return useMutation(accessActionMutationOptions(queryClient));
}
