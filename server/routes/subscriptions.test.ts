import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, countRows, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { startFakeDiscourse, type FakeDiscourse } from '../testing/fakeDiscourse';
import {
  insertEvent,
  insertOrder,
  insertSubscription,
  lemonSqueezyObject,
} from '../testing/fixtures';
import { expectBroadEmailRead, expectTransactionSettings } from '../testing/planner';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import { clickbankRoutes } from './clickbank';
import {
  SUBSCRIPTION_SORT_KEYS,
  subscriptionsRoutes,
  type SubscriptionRowJson,
} from './subscriptions';

let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
  app = testApp(testDeps(db, NOW), [(d) => subscriptionsRoutes(d), clickbankRoutes]);
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  await seedScenario(db);
});

const ids = (body: { rows: SubscriptionRowJson[] }) => body.rows.map((r) => r.row_id);

async function list(qs: string) {
  const res = await call(app, 'GET', `/subscriptions${qs ? `?${qs}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { rows: SubscriptionRowJson[]; total: number; page: number; pageSize: number };
}

describe('GET /subscriptions', () => {
  it('answers rows by row_id descending with the docs/api.md shape', async () => {
    const body = await list('');
    expect(ids(body)).toEqual([4, 3, 2, 1]);
    expect(body.total).toBe(4);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(Object.keys(body)).toEqual(['rows', 'total', 'page', 'pageSize']);
    expect(body.rows[1]).toEqual({
      row_id: 3,
      email: 'carol@sample.org',
      name: 'Carol C',
      provider: 'lemonsqueezy',
      provider_id: 'ls-3',
      status: 'on_trial',
      cadence: 'monthly',
      start_date: '2026-11-01T08:00:00.000Z',
      current_period_end: '2026-11-15T08:00:00.000Z',
      expires_at: '2026-11-15T08:00:00.000Z',
      amount: null,
      currency: 'USD',
      updated_at: '2026-11-02T08:00:00.000Z',
    });
    expect(body.rows[0]).toMatchObject({
      row_id: 4,
      amount: 9900,
      currency: 'EUR',
      expires_at: null,
    });
    expect(body.rows[2]).toMatchObject({ row_id: 2, name: null, provider: 'clickbank' });
  });

  it.each([
    ['row_id=2', [2]],
    ['email=SAMPLE', [3]],
    ['email=example.com', [4, 2, 1]],
    ['provider=lemonsqueezy', [4, 3, 1]],
    ['provider_id=CBREC1', [2]],
    ['provider_id=cbrec1', []],
    ['provider_status=trialing', [3]],
    ['provider_status=active', [2, 1]],
    ['cadence=monthly', [3, 1]],
    ['start_from=2026-01-01', [3, 1]],
    ['start_to=2025-06-01', [4, 2]],
    ['renew_from=2026-12-01&renew_to=2027-06-01', [2, 1]],
    ['expire_from=2026-11-15', [3]],
    ['expire_to=2026-11-14', []],
    ['updated_from=2026-11-01', [3, 1]],
    ['updated_to=2026-06-01', [4, 2]],
    ['updated_from=2026-06-01%2000:00:01&updated_to=2026-11-05%2010:00:00', [3, 1]],
    ['provider=lemonsqueezy&cadence=yearly', [4]],
  ])('filters %s', async (qs, expected) => {
    const body = await list(qs);
    expect(ids(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  const FIELD: Record<string, keyof SubscriptionRowJson> = { provider_status: 'status' };
  /** Oracle: nulls sort as the largest value, ties broken by row_id in the same direction. */
  function expectedOrder(rows: SubscriptionRowJson[], key: string, dir: 'asc' | 'desc'): number[] {
    const field = FIELD[key] ?? (key as keyof SubscriptionRowJson);
    const sign = dir === 'asc' ? 1 : -1;
    return [...rows]
      .sort((a, b) => {
        const va = a[field];
        const vb = b[field];
        let c = 0;
        if (va === null && vb !== null) c = 1;
        else if (va !== null && vb === null) c = -1;
        else if (va !== null && vb !== null) c = va < vb ? -1 : va > vb ? 1 : 0;
        return sign * (c !== 0 ? c : a.row_id - b.row_id);
      })
      .map((r) => r.row_id);
  }

  it.each(SUBSCRIPTION_SORT_KEYS.flatMap((k) => [[k, 'asc'] as const, [k, 'desc'] as const]))(
    'sorts by %s %s',
    async (key, dir) => {
      const all = (await list('')).rows;
      const expected = expectedOrder(all, key, dir);
      // '' reads the sort index; 'email=e' (matches every row) takes the filtered path.
      for (const filter of ['', '&email=e']) {
        const q = `sortKey=${key}&sortDir=${dir}${filter}`;
        expect(ids(await list(q)), filter).toEqual(expected);
        const p1 = await list(`${q}&pageSize=3&page=1`);
        const p2 = await list(`${q}&pageSize=3&page=2`);
        expect([...ids(p1), ...ids(p2)], `${filter}, paged`).toEqual(expected);
        expect([p1.total, p2.total]).toEqual([4, 4]);
      }
    },
  );

  it('sorts as the scenario says (spot checks of the oracle)', async () => {
    expect(ids(await list('sortKey=amount&sortDir=asc'))).toEqual([1, 2, 4, 3]);
    expect(ids(await list('sortKey=amount&sortDir=desc'))).toEqual([3, 4, 2, 1]);
    expect(ids(await list('sortKey=expires_at&sortDir=asc'))).toEqual([3, 1, 2, 4]);
    expect(ids(await list('sortKey=email'))).toEqual([4, 3, 2, 1]);
    expect(ids(await list('sortKey=email&sortDir=asc'))).toEqual([1, 2, 3, 4]);
  });

  it('reads an email fragment through its trigram index when the planner expects few matches', async () => {
    // 60 more subscriptions, so that one match is a small share of the rows and the planner's
    // estimates follow statistics.
    await db.exec(`
      INSERT INTO customers (email) SELECT 'bulk' || g || '@bulk.test' FROM generate_series(1, 60) g;
      INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, amount_cents,
          currency, start_date, payload, created_at, updated_at)
        SELECT id, 'lemonsqueezy', 'bulk-' || id, 'active', 'monthly', 'pro', 1000, 'USD', '2026-01-01',
               '{}', '2026-01-01', '2026-01-01'
          FROM customers WHERE email LIKE 'bulk%';
      ANALYZE subscriptions;
    `);
    const steered = ['{"enable_indexonlyscan":"off"}'];
    await expectTransactionSettings(db, NOW, [(d) => subscriptionsRoutes(d)], '/subscriptions', [
      ['email=SAMPLE&pageSize=3', 1, [3], steered], // one row of 64
      ['email=nobody&sortKey=email&pageSize=3', 0, [], steered],
      ['email=bulk.test&pageSize=3', 60, [], []], // 60 of 64: every entry of the email index is tested
      // Across the address's punctuation: 'e0c' is a trigram of the index (migration 047).
      ['email=e.c&pageSize=3', 3, [4, 2, 1], steered],
      ['email=e.&pageSize=3', 4, [4, 3, 2], []], // 'e0': no trigram inside a word, the index would return every row
      ['provider=clickbank&pageSize=3', 1, [2], []],
    ]);
  });

  it('counts a fragment in most rows off the email index and reads its page in sort order', async () => {
    await db.exec(`
      INSERT INTO customers (email) SELECT 'bulk' || g || '@bulk.test' FROM generate_series(1, 60) g;
      INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, amount_cents,
          currency, start_date, current_period_end, payload, created_at, updated_at)
        SELECT id, 'lemonsqueezy', 'bulk-' || id, 'active', 'monthly', 'pro', 1000, 'USD', '2026-01-01',
               '2026-12-01'::timestamptz + id * interval '1 hour', '{}', '2026-01-01', '2026-01-01'
          FROM customers WHERE email LIKE 'bulk%';
      ANALYZE subscriptions;
    `);
    // 'k.t' runs across a '.', where the joined trigram index (migration 047) would read it, but
    // it is in 60 of the 64 subscriptions: no index narrows it, so the list counts it off the
    // email sort index as one LIKE (Where.range) and reads its page in sort order.
    for (const [qs, order, offset] of [
      ['email=k.t&sortKey=email&sortDir=asc&pageSize=3&page=2', 's.email, s.id', 3],
      ['email=K.T&pageSize=3', 's.id DESC', 0],
      [
        'email=k.t&sortKey=current_period_end&sortDir=desc&pageSize=3&page=4',
        's.current_period_end DESC NULLS FIRST, s.id DESC',
        9,
      ],
    ] as const) {
      await expectBroadEmailRead(
        db,
        NOW,
        [(d) => subscriptionsRoutes(d)],
        `/subscriptions?${qs}`,
        60,
        {
          sql: `SELECT s.id FROM subscriptions s WHERE s.email LIKE '%k.t%' ORDER BY ${order} LIMIT 3 OFFSET $1`,
          params: [offset],
        },
      );
    }
  });

  it('pages with total', async () => {
    const p1 = await list('pageSize=3&page=1');
    const p2 = await list('pageSize=3&page=2');
    expect(ids(p1)).toEqual([4, 3, 2]);
    expect(ids(p2)).toEqual([1]);
    expect([p1.total, p2.total, p2.page, p2.pageSize]).toEqual([4, 4, 2, 3]);
    expect((await list('pageSize=200')).rows).toHaveLength(4);
    const past = await list('email=example&pageSize=2&page=3');
    expect([ids(past), past.total]).toEqual([[], 3]);
    expect((await list('email=nobody')).total).toBe(0);
  });

  it.each([
    [
      'sortKey=mg_status',
      /sortKey must be one of row_id, email, provider, provider_id, provider_status, cadence, start_date, current_period_end, expires_at, amount, updated_at/,
    ],
    ['sortDir=up', /sortDir must be one of asc, desc/],
    ['pageSize=201', /pageSize must be a whole number from 1 to 200/],
    ['pageSize=10000', /pageSize must be a whole number from 1 to 200/],
    ['page=0', /page must be a whole number from 1/],
    ['renew_from=2026-1-1', /renew_from must be a UTC date/],
    ['expire_to=2026-11-31', /expire_to must be a UTC date/],
    ['updated_from=2026-11-02&updated_to=2026-11-01', /updated_from .* is after updated_to/],
    ['provider=stripe', /provider must be one of lemonsqueezy, clickbank/],
    ['cadence=daily', /cadence must be one of monthly, yearly/],
    ['row_id=-3', /row_id must be a positive whole number/],
  ])('refuses %s with a 400 JSON error', async (qs, message) => {
    const res = await call(app, 'GET', `/subscriptions?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request' });
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /subscriptions/detail', () => {
  it('builds a LemonSqueezy detail from the stored subscription object', async () => {
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'new',
      occurredAt: '2026-01-05T10:00:00Z',
      amountCents: 1000,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'renewal',
      occurredAt: '2026-02-05T10:00:00Z',
      amountCents: 1000,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'renewal',
      occurredAt: '2026-03-05T10:00:00Z',
      amountCents: 800,
      currency: 'EUR',
    });
    await insertEvent(db, {
      subscriptionId: 1,
      type: 'cancellation',
      occurredAt: '2026-03-06T10:00:00Z',
    });
    await insertEvent(db, {
      subscriptionId: 4,
      type: 'new',
      occurredAt: '2024-03-01T00:00:00Z',
      amountCents: 9900,
      currency: 'EUR',
    });
    const res = await call(
      app,
      'GET',
      '/subscriptions/detail?enrich=1&provider=lemonsqueezy&provider_id=ls-1',
    );
    expect(res.status).toBe(200);
    const stored = await db.query<{ payload: unknown }>(
      'SELECT payload FROM subscriptions WHERE id = 1',
    );
    expect(res.body).toEqual({
      email: 'ada@example.com',
      name: 'Ada L.',
      address: { city: null, state: null, postal_code: null, country: null },
      provider: 'lemonsqueezy',
      provider_id: 'ls-1',
      status: 'active',
      status_formatted: 'Active',
      cadence: 'monthly',
      start_date: '2026-01-05T10:00:00.000Z',
      renews_at: '2022-11-12T00:00:00.000Z',
      current_period_end: '2026-12-05T10:00:00.000Z',
      ends_at: null,
      expires_at: null,
      amount: 1000,
      currency: 'USD',
      store_id: 1,
      status_marketing: null,
      city: null,
      region: null,
      country: null,
      total_revenue_currency: 2000,
      payment_processor: 'stripe',
      card_brand: 'visa',
      card_last_four: '4242',
      cancelled: false,
      trial_ends_at: null,
      billing_anchor: 12,
      first_subscription_item: {
        id: 1,
        subscription_id: 1,
        price_id: 1,
        quantity: 5,
        created_at: '2021-08-11T13:47:28.000000Z',
        updated_at: '2021-08-11T13:47:28.000000Z',
      },
      pause: null,
      urls: {
        update_payment_method:
          'https://my-store.lemonsqueezy.com/subscription/1/payment-details?expires=1666869343&signature=9985',
        customer_portal:
          'https://my-store.lemonsqueezy.com/billing?expires=1666869343&signature=82ae',
      },
      created_at: '2021-08-11T13:47:27.000Z',
      updated_at: '2021-08-11T13:54:19.000Z',
      test_mode: false,
      provider_detail: stored.rows[0]?.payload,
    });
  });

  it('takes marketing status and location from an included LemonSqueezy customer object', async () => {
    const payload = {
      ...lemonSqueezyObject('ls-3', {
        status: 'on_trial',
        status_formatted: 'On Trial',
        trial_ends_at: '2026-11-15T08:00:00.000000Z',
      }),
      included: [
        {
          type: 'customers',
          id: '9',
          attributes: { status: 'subscribed', city: 'Lyon', region: 'ARA', country: 'FR' },
        },
      ],
    };
    await db.query('UPDATE subscriptions SET payload = $1 WHERE id = 3', [JSON.stringify(payload)]);
    const res = await call(app, 'GET', '/subscriptions/detail?enrich=1&email=Carol@Sample.org');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider_id: 'ls-3',
      status: 'on_trial',
      status_formatted: 'On Trial',
      trial_ends_at: '2026-11-15T08:00:00.000Z',
      status_marketing: 'subscribed',
      city: 'Lyon',
      region: 'ARA',
      country: 'FR',
      address: { city: 'Lyon', state: 'ARA', postal_code: null, country: 'FR' },
      expires_at: '2026-11-15T08:00:00.000Z',
      amount: null,
      total_revenue_currency: 0,
    });
  });

  it('by email picks the customer’s most recent subscription', async () => {
    const ada = 1;
    await insertSubscription(db, {
      customerId: ada,
      provider: 'clickbank',
      providerId: 'OLD1',
      startDate: '2020-01-01T00:00:00Z',
    });
    expect(
      (await call(app, 'GET', '/subscriptions/detail?email=ada@example.com')).body.provider_id,
    ).toBe('ls-1');
    await insertSubscription(db, {
      customerId: ada,
      provider: 'clickbank',
      providerId: 'NEW1',
      startDate: '2026-11-19T00:00:00Z',
    });
    expect(
      (await call(app, 'GET', '/subscriptions/detail?email=ada@example.com')).body.provider_id,
    ).toBe('NEW1');
  });

  it('builds a ClickBank detail from its orders (latest order first)', async () => {
    await insertOrder(db, {
      subscriptionId: 2,
      email: 'bob@example.com',
      receipt: 'CBREC1',
      createdAtProvider: '2025-06-01T00:00:00Z',
      customerDisplayName: 'Bobby B',
      amountCents: 4900,
      currency: 'USD',
      rawJson: { transactionType: 'SALE', receipt: 'CBREC1' },
    });
    await insertOrder(db, {
      subscriptionId: 2,
      email: 'bob@example.com',
      receipt: 'CBREC1R2',
      createdAtProvider: '2026-06-01T00:00:00Z',
      firstName: 'Bob',
      lastName: 'Builder',
      country: 'US',
      state: 'CA',
      postalCode: '94105',
      currency: 'USD',
      amountCents: 5200,
      rebillAmountCents: 4900,
      nextPaymentAt: '2027-06-01T00:00:00Z',
      rawJson: { transactionType: 'BILL', paymentMethod: 'VISA', receipt: 'CBREC1R2' },
    });
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'new',
      occurredAt: '2025-06-01T00:00:00Z',
      amountCents: 4900,
      currency: 'USD',
    });
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'renewal',
      occurredAt: '2026-06-01T00:00:00Z',
      amountCents: 4900,
    });
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'refund',
      occurredAt: '2026-06-02T00:00:00Z',
      amountCents: 1000,
      currency: 'USD',
    });
    const res = await call(
      app,
      'GET',
      '/subscriptions/detail?enrich=1&provider=clickbank&provider_id=CBREC1',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email: 'bob@example.com',
      name: 'Bob Builder',
      address: { city: null, state: 'CA', postal_code: '94105', country: 'US' },
      provider: 'clickbank',
      provider_id: 'CBREC1',
      status: 'active',
      status_formatted: 'Active',
      cadence: 'yearly',
      start_date: '2025-06-01T00:00:00.000Z',
      renews_at: '2027-06-01T00:00:00.000Z',
      current_period_end: '2027-06-01T00:00:00.000Z',
      ends_at: null,
      expires_at: null,
      amount: 4900,
      currency: 'USD',
      store_id: null,
      status_marketing: null,
      city: null,
      region: 'CA',
      country: 'US',
      total_revenue_currency: 8800,
      payment_processor: 'clickbank',
      card_brand: 'VISA',
      card_last_four: null,
      cancelled: false,
      trial_ends_at: null,
      billing_anchor: null,
      first_subscription_item: null,
      pause: null,
      urls: {},
      created_at: '2025-06-01T00:00:00.000Z',
      updated_at: '2026-06-01T00:00:00.000Z',
      test_mode: false,
      provider_detail: { transactionType: 'BILL', paymentMethod: 'VISA', receipt: 'CBREC1R2' },
    });
  });

  it('a ClickBank subscription without orders keeps the row values', async () => {
    const res = await call(
      app,
      'GET',
      '/subscriptions/detail?provider=clickbank&provider_id=CBREC1',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: null,
      amount: 4900,
      renews_at: '2027-06-01T00:00:00.000Z',
      provider_detail: {},
    });
  });

  it.each([
    ['', 400, /Give provider and provider_id, or email/],
    ['enrich=1', 400, /Give provider and provider_id, or email/],
    ['provider=lemonsqueezy', 400, /provider and provider_id must be given together/],
    ['provider_id=ls-1', 400, /provider and provider_id must be given together/],
    ['provider=paddle&provider_id=1', 400, /provider must be one of/],
    ['email=not-an-email', 400, /email must be an email address/],
    ['provider=lemonsqueezy&provider_id=nope', 404, /No lemonsqueezy subscription with id nope/],
    ['email=erin@example.com', 404, /No subscription for erin@example.com/],
  ])('detail?%s → %i', async (qs, status, message) => {
    const res = await call(app, 'GET', `/subscriptions/detail?${qs}`);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /clickbank/orders', () => {
  it('lists the order records of an email, newest first, with every §3 key', async () => {
    await insertOrder(db, {
      subscriptionId: 2,
      email: 'bob@example.com',
      receipt: 'A1',
      createdAtProvider: '2025-06-01T00:00:00Z',
      amountCents: 4900,
    });
    await insertOrder(db, {
      subscriptionId: null,
      email: 'bob@example.com',
      receipt: 'A3',
      createdAtProvider: '2026-07-01T00:00:00Z',
      sku: 'sku-9',
      status: 'BILL',
      title: 'Pro',
      site: 'vendor1',
      affiliate: 'aff7',
      country: 'US',
      state: 'NY',
      postalCode: '10001',
      firstName: 'Bob',
      lastName: 'B',
      customerDisplayName: 'Bob B',
      customerRefundableState: 'REFUNDABLE',
      currency: 'USD',
      amountCents: 5000,
      rebillAmountCents: 4900,
      accountAmountCents: 4100,
      nextPaymentAt: '2027-07-01T00:00:00Z',
      rawJson: { receipt: 'A3' },
    });
    await insertOrder(db, {
      subscriptionId: 2,
      email: 'bob@example.com',
      receipt: 'A2',
      createdAtProvider: '2026-01-01T00:00:00Z',
    });
    await insertOrder(db, {
      subscriptionId: null,
      email: 'ada@example.com',
      receipt: 'Z9',
      createdAtProvider: '2026-08-01T00:00:00Z',
    });
    const res = await call(app, 'GET', '/clickbank/orders?email=Bob@Example.com');
    expect(res.status).toBe(200);
    const list = res.body.local.clickbank_details as Record<string, unknown>[];
    expect(list.map((o) => o.receipt)).toEqual(['A3', 'A2', 'A1']);
    expect(list[0]).toEqual({
      receipt: 'A3',
      sku: 'sku-9',
      status: 'BILL',
      title: 'Pro',
      site: 'vendor1',
      affiliate: 'aff7',
      country: 'US',
      state: 'NY',
      postal_code: '10001',
      first_name: 'Bob',
      last_name: 'B',
      customer_display_name: 'Bob B',
      customer_refundable_state: 'REFUNDABLE',
      currency: 'USD',
      amount_cents: 5000,
      rebill_amount_cents: 4900,
      account_amount_cents: 4100,
      next_payment_at: '2027-07-01T00:00:00.000Z',
      created_at_provider: '2026-07-01T00:00:00.000Z',
      raw_json: { receipt: 'A3' },
    });
  });

  it('answers an empty list for an email without orders', async () => {
    const res = await call(app, 'GET', '/clickbank/orders?email=nobody@example.com');
    expect(res).toEqual({ status: 200, body: { local: { clickbank_details: [] } } });
  });

  it.each([
    ['', /email is required/],
    ['email=%20', /email is required/],
    ['email=bob', /email must be an email address/],
  ])('refuses ?%s with 400', async (qs, message) => {
    const res = await call(app, 'GET', `/clickbank/orders?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('POST /subscriptions/{grant,revoke-now,revoke-deferred,revoke-on-date}', () => {
  it.each([
    ['grant', { email: 'carol@sample.org' }, 'carol@sample.org', 'active', null, null],
    [
      'revoke-now',
      { email: 'ada@example.com' },
      'ada@example.com',
      'cancelled',
      NOW.toISOString(),
      null,
    ],
    [
      'revoke-deferred',
      { email: 'ada@example.com' },
      'ada@example.com',
      'active',
      '2026-12-05T10:00:00.000Z',
      '2026-12-05T10:00:00.000Z',
    ],
    [
      'revoke-on-date',
      { email: 'bob@example.com', date: '2026-12-24 18:30:00' },
      'bob@example.com',
      'active',
      '2026-12-24T18:30:00.000Z',
      '2026-12-24T18:30:00.000Z',
    ],
  ])(
    '%s answers like the Users action and changes the member',
    async (path, body, email, mg, expires, scheduled) => {
      const res = await call(app, 'POST', `/subscriptions/${path}`, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ok: true,
        email,
        mg_status: mg,
        expires_at: expires,
        scheduled_expires_at: scheduled,
        discourse: { skipped: true, reason: 'Discourse not configured' },
      });
      const m = await db.query<{ mg_status: string; expires_at: Date | null }>(
        'SELECT m.mg_status, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1',
        [email],
      );
      expect(m.rows[0]?.mg_status).toBe(mg);
      expect(m.rows[0]?.expires_at?.toISOString() ?? null).toBe(expires);
      expect(await countRows(db, 'logs')).toBe(1);
    },
  );

  it('refuses bad bodies with nothing written', async () => {
    const before = await snapshot(db);
    expect(
      (await call(app, 'POST', '/subscriptions/revoke-on-date', { email: 'bob@example.com' }))
        .status,
    ).toBe(400);
    expect(
      (await call(app, 'POST', '/subscriptions/grant', { email: 'ghost@example.com' })).status,
    ).toBe(404);
    expect(
      (await call(app, 'POST', '/subscriptions/revoke-now', { mail: 'bob@example.com' })).status,
    ).toBe(400);
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('POST /subscriptions/refresh', () => {
  let fake: FakeDiscourse | null = null;
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });

  it('answers ok:false without provider keys and writes nothing', async () => {
    const before = await snapshot(db);
    const res = await call(app, 'POST', '/subscriptions/refresh');
    expect(res).toEqual({
      status: 200,
      body: { ok: false, refreshed: 0, message: 'Providers not configured: nothing to refresh' },
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('says ClickBank is not refreshed when only ClickBank keys are set', async () => {
    const cbApp = testApp(testDeps(db, NOW, { clickbankClerkKey: 'clerk' }), [
      (d) => subscriptionsRoutes(d),
    ]);
    const res = await call(cbApp, 'POST', '/subscriptions/refresh');
    expect(res.body).toMatchObject({ ok: false, refreshed: 0 });
    expect(res.body.message).toMatch(/ClickBank orders arrive by Instant Notification/);
  });

  it('re-reads LemonSqueezy subscriptions page by page and updates the stored ones', async () => {
    const ls1 = lemonSqueezyObject('ls-1', {
      status: 'cancelled',
      renews_at: '2026-12-05T10:00:00.000000Z',
      ends_at: '2026-12-05T10:00:00.000000Z',
      cancelled: true,
    });
    const ls3 = lemonSqueezyObject('ls-3', {
      status: 'active',
      renews_at: '2026-12-15T08:00:00.000000Z',
      ends_at: null,
    });
    const unknown = lemonSqueezyObject('ls-999');
    fake = await startFakeDiscourse((req) => {
      const page = new URL(req.path, 'http://x').searchParams.get('page[number]');
      return page === '1'
        ? {
            status: 200,
            body: { meta: { page: { currentPage: 1, lastPage: 2 } }, data: [ls1, unknown] },
          }
        : { status: 200, body: { meta: { page: { currentPage: 2, lastPage: 2 } }, data: [ls3] } };
    });
    const lsApp = testApp(testDeps(db, NOW, { lemonSqueezyApiKey: 'ls-key' }), [
      (d) => subscriptionsRoutes(d, { lemonSqueezyBaseUrl: fake!.url }),
    ]);
    const res = await call(lsApp, 'POST', '/subscriptions/refresh');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      refreshed: 2,
      skipped: 1,
      message: 'Refreshed 2 LemonSqueezy subscriptions (1 not stored here, skipped)',
    });
    expect(
      fake.requests.map((r) => [r.method, decodeURIComponent(r.path), r.headers.authorization]),
    ).toEqual([
      ['GET', '/v1/subscriptions?page[number]=1&page[size]=100', 'Bearer ls-key'],
      ['GET', '/v1/subscriptions?page[number]=2&page[size]=100', 'Bearer ls-key'],
    ]);
    const rows = await db.query<{
      id: number;
      status: string;
      current_period_end: Date;
      ends_at: Date | null;
      payload: unknown;
      updated_at: Date;
    }>(
      'SELECT id, status, current_period_end, ends_at, payload, updated_at FROM subscriptions WHERE id IN (1, 3) ORDER BY id',
    );
    expect(
      rows.rows.map((r) => [
        r.id,
        r.status,
        r.current_period_end.toISOString(),
        r.ends_at?.toISOString() ?? null,
        r.updated_at.toISOString(),
      ]),
    ).toEqual([
      [1, 'cancelled', '2026-12-05T10:00:00.000Z', '2026-12-05T10:00:00.000Z', NOW.toISOString()],
      [3, 'active', '2026-12-15T08:00:00.000Z', null, NOW.toISOString()],
    ]);
    expect(rows.rows[0]?.payload).toEqual(ls1);
    const log = await db.query<{ msg: string; context: unknown }>('SELECT msg, context FROM logs');
    expect(log.rows).toEqual([
      {
        msg: 'subscriptions.refresh',
        context: { provider: 'lemonsqueezy', fetched: 3, refreshed: 2 },
      },
    ]);
  });

  it('writes nothing when LemonSqueezy refuses', async () => {
    fake = await startFakeDiscourse(() => ({
      status: 401,
      body: { errors: [{ detail: 'Unauthenticated.' }] },
    }));
    const lsApp = testApp(testDeps(db, NOW, { lemonSqueezyApiKey: 'bad' }), [
      (d) => subscriptionsRoutes(d, { lemonSqueezyBaseUrl: fake!.url }),
    ]);
    const before = await snapshot(db);
    const res = await call(lsApp, 'POST', '/subscriptions/refresh');
    expect(res).toEqual({
      status: 200,
      body: {
        ok: false,
        refreshed: 0,
        message: 'LemonSqueezy answered HTTP 401; nothing was changed',
      },
    });
    expect(await snapshot(db)).toEqual(before);
  });
});
