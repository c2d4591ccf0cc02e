import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUBSCRIPTIONS_QUERY,
  DEFAULT_USERS_QUERY,
  USER_SORT_KEYS,
  buildSubscriptionsParams,
  buildUsersParams,
  clampPage,
  emptySubscriptionsFilters,
  emptyUsersFilters,
  nextSort,
  subscriptionsQueryFromSearch,
  subscriptionsQueryToSearch,
  usersQueryFromSearch,
  usersQueryToSearch,
  withPageSize,
  withSubscriptionsFilters,
  withUsersFilters,
} from '../../../src/domain/query';
import {
  CADENCES,
  MG_STATUS_FILTERS,
  PROVIDERS,
  PROVIDER_STATUSES,
  SUBSCRIPTIONS_PAGE_SIZES,
  SUBSCRIPTION_SORT_KEYS,
  USERS_PAGE_SIZES,
  type SubscriptionsQuery,
  type UsersQuery,
} from '../../../src/domain/types';

describe('defaults (§9)', () => {
  it('users: page 1, 50 rows, updated_at descending, no filters', () => {
    expect(DEFAULT_USERS_QUERY).toEqual({
      page: 1,
      pageSize: 50,
      sort: { key: 'updated_at', direction: 'desc' },
      filters: emptyUsersFilters(),
    });
    expect(Object.values(emptyUsersFilters()).every((v) => v === '')).toBe(true);
  });

  it('subscriptions: page 1, 50 rows, row_id descending, no filters', () => {
    expect(DEFAULT_SUBSCRIPTIONS_QUERY).toEqual({
      page: 1,
      pageSize: 50,
      sort: { key: 'row_id', direction: 'desc' },
      filters: emptySubscriptionsFilters(),
    });
  });

  it('the defaults are frozen, the empty filters fresh objects', () => {
    expect(Object.isFrozen(DEFAULT_USERS_QUERY.filters)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SUBSCRIPTIONS_QUERY.sort)).toBe(true);
    expect(emptyUsersFilters()).not.toBe(emptyUsersFilters());
  });
});

describe('request parameters (§5, §7)', () => {
  it('users: page, pageSize, sort with "-" for descending, trimmed filters under wire names', () => {
    const q: UsersQuery = {
      page: 3,
      pageSize: 100,
      sort: { key: 'email', direction: 'asc' },
      filters: {
        rowId: ' 17 ',
        email: ' Ada@Example.com ',
        provider: 'lemonsqueezy',
        providerId: '   ',
        providerStatus: 'past_due',
        mgStatus: 'scheduled',
        cadence: 'yearly',
        startFrom: '2026-01-01',
        startTo: '',
        expFrom: '2026-11-01',
        expTo: '2026-11-30',
      },
    };
    expect(buildUsersParams(q)).toEqual({
      page: '3',
      pageSize: '100',
      sort: 'email',
      row_id: '17',
      email: 'Ada@Example.com',
      provider: 'lemonsqueezy',
      provider_status: 'past_due',
      mg_status: 'scheduled',
      cadence: 'yearly',
      start_from: '2026-01-01',
      exp_from: '2026-11-01',
      exp_to: '2026-11-30',
    });
    expect(buildUsersParams(DEFAULT_USERS_QUERY)).toEqual({
      page: '1',
      pageSize: '50',
      sort: '-updated_at',
    });
  });

  it('subscriptions: sortKey/sortDir and every non-empty filter incl. renew/expire/updated ranges', () => {
    const q = withSubscriptionsFilters(DEFAULT_SUBSCRIPTIONS_QUERY, {
      email: ' grace ',
      status: 'active',
      renewFrom: '2026-12-01',
      renewTo: '2026-12-31',
      expireFrom: '2026-11-01',
      expireTo: '2026-11-30',
      updatedFrom: '2026-11-19',
      updatedTo: '2026-11-20',
    });
    expect(buildSubscriptionsParams({ ...q, sort: { key: 'amount', direction: 'asc' } })).toEqual({
      page: '1',
      pageSize: '50',
      sortKey: 'amount',
      sortDir: 'asc',
      email: 'grace',
      provider_status: 'active',
      renew_from: '2026-12-01',
      renew_to: '2026-12-31',
      expire_from: '2026-11-01',
      expire_to: '2026-11-30',
      updated_from: '2026-11-19',
      updated_to: '2026-11-20',
    });
  });

  it('property: no parameter is blank or untrimmed', () => {
    fc.assert(
      fc.property(usersQueryArb, subscriptionsQueryArb, (uq, sq) => {
        for (const params of [buildUsersParams(uq), buildSubscriptionsParams(sq)]) {
          for (const value of Object.values(params)) {
            expect(value).not.toBe('');
            expect(value).toBe(value.trim());
          }
        }
      }),
    );
  });
});

describe('sorting and paging (§2, §4)', () => {
  it('a newly chosen column starts ascending; the same column toggles', () => {
    expect(nextSort({ key: 'updated_at', direction: 'desc' }, 'email')).toEqual({
      key: 'email',
      direction: 'asc',
    });
    expect(nextSort({ key: 'email', direction: 'asc' }, 'email')).toEqual({
      key: 'email',
      direction: 'desc',
    });
    expect(nextSort({ key: 'email', direction: 'desc' }, 'email')).toEqual({
      key: 'email',
      direction: 'asc',
    });
  });

  it('property: clicking the same column twice returns to where it was', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...USER_SORT_KEYS),
        fc.constantFrom('asc' as const, 'desc' as const),
        (key, direction) => {
          const s = { key, direction };
          expect(nextSort(nextSort(s, key), key)).toEqual(s);
        },
      ),
    );
  });

  it.each([
    [0, 5, 1],
    [1, 5, 1],
    [3, 5, 3],
    [9, 5, 5],
    [2, 0, 1],
    [2.7, 5, 2],
    [Number.NaN, 5, 1],
    [4, Number.NaN, 1],
    [-3, -1, 1],
  ])('clampPage(%d, %d) = %d', (page, total, expected) => {
    expect(clampPage(page, total)).toBe(expected);
  });

  it('property: the clamped page is a whole number between 1 and the last page', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (page, total) => {
        const p = clampPage(page, total);
        expect(Number.isInteger(p)).toBe(true);
        expect(p).toBeGreaterThanOrEqual(1);
        expect(p).toBeLessThanOrEqual(Number.isFinite(total) ? Math.max(1, Math.floor(total)) : 1);
      }),
    );
  });

  it('a filter or page-size change returns to page 1 (§4)', () => {
    const onPage4 = { ...DEFAULT_USERS_QUERY, page: 4 };
    expect(withUsersFilters(onPage4, { email: 'a' })).toMatchObject({
      page: 1,
      filters: { email: 'a' },
    });
    expect(withPageSize(onPage4, 200)).toMatchObject({ page: 1, pageSize: 200 });
    expect(
      withSubscriptionsFilters(
        { ...DEFAULT_SUBSCRIPTIONS_QUERY, page: 2 },
        emptySubscriptionsFilters(),
      ).page,
    ).toBe(1);
  });
});

/* --------------------------------------------------------------------------------------- */

const day = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const dayOrEmpty = fc.oneof(fc.constant(''), day);
const choice = <T extends string>(values: readonly T[]) => fc.constantFrom<'' | T>('', ...values);

const usersQueryArb: fc.Arbitrary<UsersQuery> = fc.record({
  page: fc.integer({ min: 1, max: 100_000 }),
  pageSize: fc.constantFrom(...USERS_PAGE_SIZES),
  sort: fc.record({
    key: fc.constantFrom(...USER_SORT_KEYS),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
  }),
  filters: fc.record({
    rowId: fc.string(),
    email: fc.string(),
    provider: choice(PROVIDERS),
    providerId: fc.string(),
    providerStatus: choice(PROVIDER_STATUSES),
    mgStatus: choice(MG_STATUS_FILTERS),
    cadence: choice(CADENCES),
    startFrom: dayOrEmpty,
    startTo: dayOrEmpty,
    expFrom: dayOrEmpty,
    expTo: dayOrEmpty,
  }),
});

const subscriptionsQueryArb: fc.Arbitrary<SubscriptionsQuery> = fc.record({
  page: fc.integer({ min: 1, max: 100_000 }),
  pageSize: fc.constantFrom(...SUBSCRIPTIONS_PAGE_SIZES),
  sort: fc.record({
    key: fc.constantFrom(...SUBSCRIPTION_SORT_KEYS),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
  }),
  filters: fc.record({
    rowId: fc.string(),
    email: fc.string(),
    provider: choice(PROVIDERS),
    providerId: fc.string(),
    status: choice(PROVIDER_STATUSES),
    cadence: choice(CADENCES),
    startFrom: dayOrEmpty,
    startTo: dayOrEmpty,
    renewFrom: dayOrEmpty,
    renewTo: dayOrEmpty,
    expireFrom: dayOrEmpty,
    expireTo: dayOrEmpty,
    updatedFrom: dayOrEmpty,
    updatedTo: dayOrEmpty,
  }),
});

const junkSearch = fc
  .dictionary(
    fc.constantFrom(
      'page',
      'pageSize',
      'sort',
      'sortKey',
      'sortDir',
      'email',
      'provider',
      'mg_status',
      'cadence',
      'start_from',
      'renew_to',
      'provider_status',
      'x',
    ),
    fc.oneof(
      fc.string(),
      fc.constantFrom('-1', '0', '2.5', '1e3', '50', '-email', 'asc', 'clickbank', '2026-13-45'),
    ),
  )
  .map((d) => new URLSearchParams(d));

describe('URL state', () => {
  it('the default query is an empty search', () => {
    expect(usersQueryToSearch(DEFAULT_USERS_QUERY).toString()).toBe('');
    expect(subscriptionsQueryToSearch(DEFAULT_SUBSCRIPTIONS_QUERY).toString()).toBe('');
    expect(usersQueryFromSearch(new URLSearchParams())).toEqual(DEFAULT_USERS_QUERY);
    expect(subscriptionsQueryFromSearch(new URLSearchParams())).toEqual(
      DEFAULT_SUBSCRIPTIONS_QUERY,
    );
  });

  it('writes wire names and reads them back', () => {
    const q = withUsersFilters(
      { ...DEFAULT_USERS_QUERY, sort: { key: 'email', direction: 'asc' } },
      { email: 'ada', mgStatus: 'scheduled' },
    );
    expect(usersQueryToSearch({ ...q, page: 2 }).toString()).toBe(
      'page=2&sort=email&email=ada&mg_status=scheduled',
    );
    expect(
      usersQueryFromSearch(
        new URLSearchParams('sort=-row_id&provider=clickbank&exp_to=2026-12-01'),
      ),
    ).toEqual({
      ...DEFAULT_USERS_QUERY,
      sort: { key: 'row_id', direction: 'desc' },
      filters: { ...emptyUsersFilters(), provider: 'clickbank', expTo: '2026-12-01' },
    });
  });

  it('junk falls back to the defaults', () => {
    const q = usersQueryFromSearch(
      new URLSearchParams(
        'page=-2&pageSize=7&sort=-password&provider=paypal&mg_status=gone&start_from=yesterday',
      ),
    );
    expect(q).toEqual(DEFAULT_USERS_QUERY);
    const s = subscriptionsQueryFromSearch(
      new URLSearchParams('page=abc&pageSize=500&sortKey=mg_status&sortDir=up&provider_status=x'),
    );
    expect(s).toEqual(DEFAULT_SUBSCRIPTIONS_QUERY);
    expect(
      subscriptionsQueryFromSearch(new URLSearchParams('sortKey=amount&sortDir=sideways')).sort,
    ).toEqual({
      key: 'amount',
      direction: 'desc',
    });
  });

  it('property: fromSearch(toSearch(q)) equals q for every valid users query', () => {
    fc.assert(
      fc.property(usersQueryArb, (q) => {
        const search = new URLSearchParams(usersQueryToSearch(q).toString());
        expect(usersQueryFromSearch(search)).toEqual(q);
      }),
      { numRuns: 300 },
    );
  });

  it('property: fromSearch(toSearch(q)) equals q for every valid subscriptions query', () => {
    fc.assert(
      fc.property(subscriptionsQueryArb, (q) => {
        const search = new URLSearchParams(subscriptionsQueryToSearch(q).toString());
        expect(subscriptionsQueryFromSearch(search)).toEqual(q);
      }),
      { numRuns: 300 },
    );
  });

  it('property: any search gives a valid query that survives its own round trip', () => {
    fc.assert(
      fc.property(junkSearch, (search) => {
        const u = usersQueryFromSearch(search);
        expect(Number.isInteger(u.page) && u.page >= 1).toBe(true);
        expect(USERS_PAGE_SIZES).toContain(u.pageSize);
        expect(USER_SORT_KEYS).toContain(u.sort.key);
        expect(usersQueryFromSearch(usersQueryToSearch(u))).toEqual(u);
        const s = subscriptionsQueryFromSearch(search);
        expect(SUBSCRIPTIONS_PAGE_SIZES).toContain(s.pageSize);
        expect(subscriptionsQueryFromSearch(subscriptionsQueryToSearch(s))).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });
});
