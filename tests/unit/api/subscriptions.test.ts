import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, MalformedResponseError } from '../../../src/api/client';
import {
  fetchClickbankOrders,
  fetchSubscriptionDetail,
  fetchSubscriptions,
  refreshSubscriptions,
  runSubscriptionAction,
  subscriptionsErrorMessage,
} from '../../../src/api/subscriptions';
import {
  displayName,
  marketplaceLocation,
  pageAmountTotal,
  safeExternalLinks,
  splitOrders,
} from '../../../src/domain/detail';
import { DEFAULT_SUBSCRIPTIONS_QUERY, withSubscriptionsFilters } from '../../../src/domain/query';
import {
  CLICKBANK_ORDERS_WIRE,
  LEMONSQUEEZY_SUBSCRIPTION,
  SUBSCRIPTION_ROWS,
} from '../../msw/fixtures';
import {
  api,
  clickbankOrdersHandlers,
  detailHandlers,
  subscriptionsHandlers,
} from '../../msw/handlers';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

describe('subscriptions list (§7 GET /subscriptions)', () => {
  it('sends page, pageSize, sortKey, sortDir and the non-empty filters', async () => {
    server.use(subscriptionsHandlers.list());
    const q = withSubscriptionsFilters(DEFAULT_SUBSCRIPTIONS_QUERY, {
      status: 'active',
      renewFrom: '2026-12-01',
      email: '  ',
    });
    await fetchSubscriptions(q);
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      page: '1',
      pageSize: '50',
      sortKey: 'row_id',
      sortDir: 'desc',
      provider_status: 'active',
      renew_from: '2026-12-01',
    });
  });

  it('normalises rows (amount in cents, missing amount null)', async () => {
    server.use(subscriptionsHandlers.list());
    const page = await fetchSubscriptions(DEFAULT_SUBSCRIPTIONS_QUERY);
    expect(page.total).toBe(SUBSCRIPTION_ROWS.length);
    expect(page.rows[0]).toMatchObject({
      rowId: 106,
      amountCents: 999,
      currency: 'USD',
      name: 'John Doe',
    });
    expect(page.rows.find((r) => r.rowId === 102)).toMatchObject({
      amountCents: null,
      currency: null,
    });
    expect(pageAmountTotal(page.rows)).toEqual({
      kind: 'single',
      amountCents: 999 + 4700 + 9900 + 999 + 999,
      currency: 'USD',
    });
  });

  it('the mixed-currency page totals to mixed', async () => {
    server.use(subscriptionsHandlers.mixedCurrency());
    expect(pageAmountTotal((await fetchSubscriptions(DEFAULT_SUBSCRIPTIONS_QUERY)).rows)).toEqual({
      kind: 'mixed',
    });
  });

  it('empty', async () => {
    server.use(subscriptionsHandlers.empty());
    expect(await fetchSubscriptions(DEFAULT_SUBSCRIPTIONS_QUERY)).toEqual({ rows: [], total: 0 });
  });

  it("failure text is '{status} {message}', else the message, else the default", async () => {
    server.use(subscriptionsHandlers.error(500, 'Subscriptions query failed'));
    const httpError = await fetchSubscriptions(DEFAULT_SUBSCRIPTIONS_QUERY).catch(
      (e: unknown) => e,
    );
    expect(subscriptionsErrorMessage(httpError)).toBe('500 Subscriptions query failed');
    expect(subscriptionsErrorMessage(new ApiError(0, 'Network error'))).toBe('Network error');
    expect(subscriptionsErrorMessage(new MalformedResponseError(200, null, []))).toBe(
      'Failed to load subscriptions',
    );
    expect(subscriptionsErrorMessage(undefined)).toBe('Failed to load subscriptions');
  });

  it('refresh posts without a body', async () => {
    server.use(subscriptionsHandlers.refresh(6));
    expect(await refreshSubscriptions()).toEqual({
      ok: true,
      refreshed: 6,
      message: 'Refreshed 6 subscriptions',
    });
    expect(seen[0]!.method).toBe('POST');
    expect(await seen[0]!.body).toBe('');
  });

  it.each([
    [{ kind: 'grant' } as const, '/api/admin/subscriptions/grant', { email: 'a@x.io' }],
    [{ kind: 'revoke_now' } as const, '/api/admin/subscriptions/revoke-now', { email: 'a@x.io' }],
    [
      { kind: 'revoke_deferred' } as const,
      '/api/admin/subscriptions/revoke-deferred',
      { email: 'a@x.io' },
    ],
    [
      { kind: 'revoke_on_date', date: '2026-12-01 09:00:00' } as const,
      '/api/admin/subscriptions/revoke-on-date',
      { email: 'a@x.io', date: '2026-12-01 09:00:00' },
    ],
  ])('the subscriptions twin %o posts to %s', async (action, path, body) => {
    server.use(
      http.post(api('/subscriptions/:action'), () =>
        HttpResponse.json({ ok: true, scheduled_expires_at: null }),
      ),
    );
    expect(await runSubscriptionAction('a@x.io', action)).toEqual({
      discourse: null,
      scheduledExpiresAt: null,
    });
    expect(seen[0]!.url.pathname).toBe(path);
    expect(JSON.parse(await seen[0]!.body)).toEqual(body);
  });
});

describe('subscription detail (§7 GET /subscriptions/detail)', () => {
  it('asks with enrich=1 plus provider and provider_id, or email', async () => {
    server.use(detailHandlers.byKey());
    await fetchSubscriptionDetail({ provider: 'lemonsqueezy', providerId: '1' });
    await fetchSubscriptionDetail({ email: 'grace@example.com' });
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      enrich: '1',
      provider: 'lemonsqueezy',
      provider_id: '1',
    });
    expect(Object.fromEntries(seen[1]!.url.searchParams)).toEqual({
      enrich: '1',
      email: 'grace@example.com',
    });
  });

  it('normalises the LemonSqueezy detail', async () => {
    server.use(detailHandlers.lemonsqueezy());
    const detail = await fetchSubscriptionDetail({ provider: 'lemonsqueezy', providerId: '1' });
    expect(detail).toMatchObject({
      email: 'johndoe@example.com',
      name: 'John Doe',
      address: { city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      provider: 'lemonsqueezy',
      providerId: '1',
      status: 'active',
      statusFormatted: 'Active',
      amountCents: 999,
      storeId: '1',
      totalRevenueCents: 3996,
      paymentProcessor: 'stripe',
      cardBrand: 'visa',
      cardLastFour: '4242',
      cancelled: false,
      billingAnchor: 12,
      pause: null,
      testMode: false,
    });
    expect(detail.providerDetail).toEqual(LEMONSQUEEZY_SUBSCRIPTION);
    expect(safeExternalLinks(detail.urls).map((l) => l.name)).toEqual([
      'update_payment_method',
      'customer_portal',
      'customer_portal_update_subscription',
    ]);
  });

  it('fills missing LemonSqueezy fields from the attributes in provider_detail', async () => {
    server.use(
      detailHandlers.lemonsqueezy({
        provider: 'lemonsqueezy',
        provider_id: '1',
        provider_detail: LEMONSQUEEZY_SUBSCRIPTION,
      }),
    );
    const detail = await fetchSubscriptionDetail({ provider: 'lemonsqueezy', providerId: '1' });
    expect(detail).toMatchObject({
      email: 'johndoe@example.com',
      name: 'John Doe',
      renewsAt: '2022-11-12T00:00:00.000000Z',
      cardBrand: 'visa',
      billingAnchor: 12,
      amountCents: null,
      address: null,
    });
    expect(Object.keys(detail.urls)).toHaveLength(3);
  });

  it('a detail failure rejects (screen: "Failed to load details")', async () => {
    server.use(detailHandlers.error(404, 'Subscription not found'));
    await expect(fetchSubscriptionDetail({ email: 'nobody@example.com' })).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe('marketplace orders (§7 GET /api/admin/clickbank/orders)', () => {
  it('reads local.clickbank_details, newest first, with the §2 name and location', async () => {
    const shuffled = [
      CLICKBANK_ORDERS_WIRE[2]!,
      CLICKBANK_ORDERS_WIRE[0]!,
      CLICKBANK_ORDERS_WIRE[1]!,
    ];
    server.use(clickbankOrdersHandlers.list(shuffled), detailHandlers.clickbank());
    const orders = await fetchClickbankOrders('grace@example.com');
    expect(seen[0]!.url.pathname).toBe('/api/admin/clickbank/orders');
    expect(seen[0]!.url.searchParams.get('email')).toBe('grace@example.com');
    expect(orders.map((o) => o.createdAtProvider)).toEqual([
      '2026-11-18T14:05:00.000Z',
      '2026-10-18T14:05:00.000Z',
      '2026-09-18T14:05:00.000Z',
    ]);
    const { latest, previous } = splitOrders(orders);
    expect(previous).toHaveLength(2);
    expect(latest).toMatchObject({
      amountCents: 4700,
      rebillAmountCents: 4700,
      accountAmountCents: 4230,
    });
    const detail = await fetchSubscriptionDetail({ provider: 'clickbank', providerId: 'Q7XK2M9P' });
    expect(displayName(detail, latest)).toBe('Grace Hopper');
    expect(marketplaceLocation(latest)).toBe('CA, US, 94103');
  });

  it('none → []', async () => {
    server.use(clickbankOrdersHandlers.none());
    expect(await fetchClickbankOrders('x@example.com')).toEqual([]);
  });

  it('tolerates a missing local block', async () => {
    server.use(http.get(api('/clickbank/orders'), () => HttpResponse.json({})));
    expect(await fetchClickbankOrders('x@example.com')).toEqual([]);
  });

  it("a non-OK answer rejects with 'ClickBank orders fetch failed ({status})'", async () => {
    server.use(clickbankOrdersHandlers.failure(502));
    const error = await fetchClickbankOrders('x@example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, message: 'ClickBank orders fetch failed (502)' });
  });

  it('parses a raw_json string into an object', async () => {
    server.use(
      clickbankOrdersHandlers.list([
        { ...CLICKBANK_ORDERS_WIRE[0]!, raw_json: '{"receipt":"R1"}' },
      ]),
    );
    expect((await fetchClickbankOrders('x@example.com'))[0]!.rawJson).toEqual({ receipt: 'R1' });
  });
});
