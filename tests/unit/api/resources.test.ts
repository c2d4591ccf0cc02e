import { QueryClient, keepPreviousData } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { MalformedResponseError } from '../../../src/api/client';
import { queryKeys } from '../../../src/api/queryKeys';
import { fetchAdminStatus, fetchStats, statsQueryOptions } from '../../../src/api/stats';
import {
  fetchUsers,
  runAccessAction,
  usersErrorMessage,
  usersQueryOptions,
} from '../../../src/api/users';
import { describeActionResult } from '../../../src/domain/actions';
import { errorMessageOr, MESSAGES } from '../../../src/domain/messages';
import { DEFAULT_USERS_QUERY, withUsersFilters } from '../../../src/domain/query';
import type { AccessAction } from '../../../src/domain/types';
import { STATS_WIRE, USER_ROWS } from '../../msw/fixtures';
import {
  actionHandlers,
  api,
  statsHandlers,
  statusHandlers,
  usersHandlers,
} from '../../msw/handlers';
import { outboxActionHandlers } from '../../msw/handlers-outbox';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

describe('stats (§2 Dashboard, GET /stats)', () => {
  it('normalises the reference answer', async () => {
    server.use(statsHandlers.ok());
    expect(await fetchStats()).toEqual({
      currency: 'USD',
      mrrCents: 1234500,
      arrCents: 14814000,
      activeTotal: 812,
      activeMonthly: 640,
      activeYearly: 172,
      scheduledCancellations: 37,
      avgDaysRemaining: 41.7,
      newToday: 3,
      renewalsToday: 11,
      cancellationsToday: 1,
      totalSubscribers: 3000,
      totalRevenueCents: 98765400,
    });
  });

  it('a non-object answer is malformed and the screen falls back to "Failed to load stats"', async () => {
    server.use(statsHandlers.malformed());
    const error = await fetchStats().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(errorMessageOr(error, MESSAGES.stats)).toBe('Failed to load stats');
  });

  it('a failing answer carries its message', async () => {
    server.use(statsHandlers.error(503, 'Database unavailable'));
    const error = await fetchStats().catch((e: unknown) => e);
    expect(errorMessageOr(error, MESSAGES.stats)).toBe('Database unavailable');
  });

  it('works through a QueryClient with statsQueryOptions', async () => {
    server.use(statsHandlers.ok({ ...STATS_WIRE, currency: 'eur' }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const stats = await client.fetchQuery(statsQueryOptions());
    expect(stats.currency).toBe('EUR');
    expect(client.getQueryData(queryKeys.stats())).toEqual(stats);
  });

  it('reads the admin stats of GET /status', async () => {
    server.use(statusHandlers.ok());
    expect(await fetchAdminStatus()).toEqual({
      dbOk: true,
      activeTotal: 812,
      activeMonthly: 640,
      activeYearly: 172,
      scheduledCancellations: 37,
      avgDaysRemaining: 41.7,
      mrrCents: 1234500,
      arrCents: 14814000,
      pendingExpire: 4,
      webhookDedupRows: 1289,
    });
  });
});

describe('users (§7 GET /users)', () => {
  it('sends page, pageSize, sort and only the trimmed non-blank filters', async () => {
    server.use(usersHandlers.list());
    const q = withUsersFilters(DEFAULT_USERS_QUERY, {
      email: '  ADA ',
      providerId: '   ',
      cadence: 'monthly',
    });
    await fetchUsers(q);
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      page: '1',
      pageSize: '50',
      sort: '-updated_at',
      email: 'ADA',
      cadence: 'monthly',
    });
  });

  it('normalises the rows to UserRow', async () => {
    server.use(usersHandlers.list());
    const page = await fetchUsers(DEFAULT_USERS_QUERY);
    expect(page.total).toBe(USER_ROWS.length);
    expect(page.totalPages).toBe(1);
    expect(page.rows[0]).toEqual({
      rowId: 17,
      email: 'ada@example.com',
      provider: 'lemonsqueezy',
      providerId: '1',
      providerStatus: 'active',
      mgStatus: 'active',
      mgStatusLabel: null,
      cadence: 'monthly',
      startDate: '2026-03-12T09:00:00.000Z',
      expiresAt: null,
      currentPeriodEnd: '2026-12-12T09:00:00.000Z',
      updatedAt: '2026-11-20T11:30:00.000Z',
    });
  });

  it('pages the 500-row fixture', async () => {
    server.use(usersHandlers.many());
    const page = await fetchUsers({ ...DEFAULT_USERS_QUERY, page: 3, pageSize: 200 });
    expect(page.total).toBe(500);
    expect(page.totalPages).toBe(3);
    expect(page.rows).toHaveLength(100);
  });

  it('accepts numeric strings and computes missing totals', async () => {
    server.use(
      http.get(api('/users'), () =>
        HttpResponse.json({
          rows: [{ row_id: '7', email: 'x@example.com', provider_id: 99 }],
          total: '120',
        }),
      ),
    );
    const page = await fetchUsers({ ...DEFAULT_USERS_QUERY, pageSize: 50 });
    expect(page).toMatchObject({ total: 120, totalPages: 3 });
    expect(page.rows[0]).toMatchObject({ rowId: 7, providerId: '99', mgStatus: null });
  });

  it('rejects a row without an email as malformed ("Failed to load users")', async () => {
    server.use(
      http.get(api('/users'), () => HttpResponse.json({ rows: [{ row_id: 1 }], total: 1 })),
    );
    const error = await fetchUsers(DEFAULT_USERS_QUERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(usersErrorMessage(error)).toBe('Failed to load users');
  });

  it('usersErrorMessage shows the message when there is one', async () => {
    server.use(usersHandlers.error(500, 'Users query failed'));
    expect(usersErrorMessage(await fetchUsers(DEFAULT_USERS_QUERY).catch((e: unknown) => e))).toBe(
      'Users query failed',
    );
  });

  it('usersQueryOptions keys by the request parameters and keeps the previous page', () => {
    const options = usersQueryOptions(withUsersFilters(DEFAULT_USERS_QUERY, { email: ' ada ' }));
    expect(options.queryKey).toEqual([
      'admin',
      'users',
      'list',
      { page: '1', pageSize: '50', sort: '-updated_at', email: 'ada' },
    ]);
    expect(options.placeholderData).toBe(keepPreviousData);
  });
});

describe('access actions (§7 POST /users/actions/*)', () => {
  const cases: [AccessAction, string, Record<string, string>][] = [
    [{ kind: 'grant' }, 'grant', { email: 'ada@example.com' }],
    [
      { kind: 'grant_on_date', until: '2026-11-21 09:00:00' },
      'grant_on_date',
      { email: 'ada@example.com', until: '2026-11-21 09:00:00' },
    ],
    [{ kind: 'revoke_now' }, 'revoke_now', { email: 'ada@example.com' }],
    [{ kind: 'revoke_deferred' }, 'revoke_deferred', { email: 'ada@example.com' }],
    [
      { kind: 'revoke_on_date', date: '2026-12-01 09:00:00' },
      'revoke_on_date',
      { email: 'ada@example.com', date: '2026-12-01 09:00:00' },
    ],
  ];
  it.each(cases)('%o posts to /users/actions/%s with its body', async (action, path, body) => {
    server.use(actionHandlers.plain());
    await runAccessAction('ada@example.com', action);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url.pathname).toBe(`/api/admin/users/actions/${path}`);
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(await seen[0]!.body)).toEqual(body);
  });

  it.each([
    ['plain', actionHandlers.plain(), 'success', 'OK'],
    ['scheduled', actionHandlers.scheduled(), 'success', 'OK (scheduled for 2026-12-12 09:00 UTC)'],
    ['invited', actionHandlers.invited(42), 'success', 'OK (Discourse invite sent to group 42)'],
    ['updated', actionHandlers.updated(), 'success', 'OK (Discourse updated)'],
    [
      'skipped',
      actionHandlers.skipped(),
      'success',
      'OK (Discourse skipped: Discourse not configured)',
    ],
    [
      'queued',
      outboxActionHandlers.queued(),
      'success',
      'OK (Discourse update queued: the forum is updated in the background)',
    ],
    [
      'discourse error',
      actionHandlers.discourseError(),
      'warning',
      'Done, but Discourse error (422): Unprocessable Entity — Username is invalid; Email has already been taken',
    ],
  ] as const)('the %s answer becomes its §8 alert', async (_name, handler, tone, message) => {
    server.use(handler);
    const result = await runAccessAction('ada@example.com', { kind: 'grant' });
    expect(describeActionResult(result)).toEqual({ tone, message });
  });

  it('a failed action rejects with the message to alert', async () => {
    server.use(actionHandlers.failure(409, 'User not found'));
    await expect(runAccessAction('x@example.com', { kind: 'revoke_now' })).rejects.toMatchObject({
      status: 409,
      message: 'User not found',
    });
  });
});
