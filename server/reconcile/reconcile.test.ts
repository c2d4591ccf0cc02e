/**
 * Reconciliation against loopback fakes of the LemonSqueezy API and the ClickBank Orders API: a
 * missed webhook is recovered, a second apply changes nothing, a cancellation at the provider is
 * fixed, a dry run writes nothing, paging, 429 with Retry-After and 5xx back-off, the route's
 * validation, roles and refusals, the run lock, and the schedule.
 */
import { Hono } from 'hono';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/types';
import type { AppDeps, ServerConfig } from '../context';
import { tryExclusive } from '../db/lock';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { NOW } from '../testing/scenario';
import { startFakeLemonSqueezyApi, type FakeLemonSqueezyApi } from '../testing/fakeLemonSqueezyApi';
import {
  clickbankOrder,
  startFakeClickbankApi,
  type FakeClickbankApi,
} from '../testing/fakeClickbankApi';
import {
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../webhooks/deliveries';
import { handleLemonSqueezyDelivery } from '../webhooks/lemonsqueezy';
import { maintenanceRoutes } from '../routes/maintenance';
import { SYSTEM_ACTOR } from '../audit/audit';
import { RECONCILE_RUN_LOCKS, runReconcile } from './job';
import { startReconcileScheduler } from './scheduler';

const DAY = 86_400_000;
const SECRET = 'whsec-reconcile-test-0123456789';
let db: Db;
let ls: FakeLemonSqueezyApi;
let cb: FakeClickbankApi;
let config: Partial<ServerConfig>;
let deps: AppDeps;

/** A router that signs the request in as an operator of `role`, then the maintenance routes. */
const asRole =
  (role: string) =>
  (d: AppDeps): Hono => {
    const r = new Hono();
    r.use('*', async (c, next) => {
      (c as unknown as { set: (k: string, v: unknown) => void }).set('admin', {
        operatorId: 7,
        email: 'ops@example.com',
        name: 'Ops',
        role,
        totpEnabled: false,
      });
      await next();
    });
    r.route('/', maintenanceRoutes(d));
    return r;
  };

beforeAll(async () => {
  db = await freshDb();
  ls = await startFakeLemonSqueezyApi('ls-key');
  cb = await startFakeClickbankApi('DEV-KEY:API-CLERK');
  config = {
    lemonSqueezyApiKey: 'ls-key',
    lemonSqueezyStoreId: '1',
    lemonSqueezyApiUrl: ls.url,
    lemonSqueezyWebhookSecret: SECRET,
    clickbankDeveloperKey: 'DEV-KEY',
    clickbankClerkKey: 'API-CLERK',
    clickbankApiUrl: cb.url,
  };
  deps = testDeps(db, NOW, config);
}, 120_000);
afterAll(async () => {
  await ls?.close();
  await cb?.close();
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  ls.subscriptions.length = 0;
  ls.script.length = 0;
  ls.requests.length = 0;
  ls.variants = {};
  ls.includeVariants = true;
  cb.orders.length = 0;
  cb.script.length = 0;
  cb.requests.length = 0;
});
afterEach(() => {
  expect(ls.script).toEqual([]);
});

/** Row counts of everything a fix writes (audit rows are append-only, so counted, not reset). */
async function counts() {
  const n = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]?.n ?? 0;
  return {
    customers: await n('SELECT count(*)::int AS n FROM customers'),
    subscriptions: await n('SELECT count(*)::int AS n FROM subscriptions'),
    members: await n('SELECT count(*)::int AS n FROM members'),
    events: await n('SELECT count(*)::int AS n FROM subscription_events'),
    outbox: await n('SELECT count(*)::int AS n FROM forum_outbox'),
    live: await n('SELECT count(*)::int AS n FROM live_events'),
    isr: await n('SELECT count(*)::int AS n FROM isr_events'),
    orders: await n('SELECT count(*)::int AS n FROM clickbank_orders'),
    audit: await n("SELECT count(*)::int AS n FROM audit_log WHERE action = 'reconcile.apply'"),
    fixLogs: await n(
      "SELECT count(*)::int AS n FROM logs WHERE msg LIKE 'reconcile.%' AND msg NOT LIKE '%.run' AND msg NOT LIKE '%.failed'",
    ),
  };
}

const lsSub = (id: string, attrs: Record<string, unknown>) =>
  lemonSqueezySubscription(id, {
    store_id: 1,
    created_at: lsTime(new Date(NOW.getTime() - 10 * DAY)),
    updated_at: lsTime(new Date(NOW.getTime() - DAY)),
    renews_at: lsTime(new Date(NOW.getTime() + 20 * DAY)),
    ends_at: null,
    ...attrs,
  });

/** Delivers `data` as a signed subscription webhook (what the server stores today). */
async function deliver(event: 'subscription_created', data: unknown) {
  const d = signedLemonSqueezyDelivery(event, data, SECRET);
  await handleLemonSqueezyDelivery(deps, Buffer.from(d.body), d.headers['X-Signature']);
}

describe('LemonSqueezy cadence and subscriptions the store no longer lists', () => {
  const cadences = async () =>
    (
      await db.query<{ provider_id: string; cadence: string }>(
        "SELECT provider_id, cadence FROM subscriptions WHERE provider = 'lemonsqueezy' ORDER BY provider_id",
      )
    ).rows;
  const variantRequests = () => ls.requests.filter((q) => q.path.startsWith('/v1/variants/'));

  it("takes the cadence from the variants the list includes, not from the subscription's age", async () => {
    ls.variants = { '11': { interval: 'year' }, '12': { interval: 'month' } };
    // A monthly subscription 400 days old and a yearly one 10 days old; neither name says.
    ls.subscriptions.push(
      lsSub('301', {
        user_email: 'old.monthly@example.com',
        status: 'active',
        variant_id: 12,
        created_at: lsTime(new Date(NOW.getTime() - 400 * DAY)),
        renews_at: lsTime(new Date(NOW.getTime() + 250 * DAY)),
      }),
      lsSub('302', { user_email: 'new.yearly@example.com', status: 'active', variant_id: 11 }),
    );
    const r = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: false,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(r.applied).toBe(2);
    expect(await cadences()).toEqual([
      { provider_id: '301', cadence: 'monthly' },
      { provider_id: '302', cadence: 'yearly' },
    ]);
    expect(variantRequests()).toEqual([]);
  });

  it('looks a variant up with GET /v1/variants/:id when the list does not include it, once per run', async () => {
    ls.includeVariants = false;
    ls.variants = { '11': { interval: 'year' } };
    ls.subscriptions.push(
      lsSub('311', { user_email: 'y1@example.com', status: 'active', variant_id: 11 }),
      lsSub('312', { user_email: 'y2@example.com', status: 'on_trial', variant_id: 11 }),
      // Unknown to the API (404): the webhook's fallbacks decide (here the first period: monthly).
      lsSub('313', { user_email: 'm1@example.com', status: 'active', variant_id: 99 }),
    );
    const dry = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(dry.missing).toHaveLength(3);
    // A dry run applies nothing, so it looks nothing up.
    expect(variantRequests()).toEqual([]);
    const r = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: false,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(r.applied).toBe(3);
    expect(await cadences()).toEqual([
      { provider_id: '311', cadence: 'yearly' },
      { provider_id: '312', cadence: 'yearly' },
      { provider_id: '313', cadence: 'monthly' },
    ]);
    expect(variantRequests().map((q) => q.path)).toEqual(['/v1/variants/11', '/v1/variants/99']);
    expect(variantRequests()[0]?.headers.authorization).toBe('Bearer ls-key');
  });

  it('reports stored subscriptions of the store that the provider does not list, and changes none of them', async () => {
    ls.subscriptions.push(lsSub('401', { user_email: 'kept@example.com', status: 'active' }));
    await deliver(
      'subscription_created',
      lsSub('401', { user_email: 'kept@example.com', status: 'active' }),
    );
    await deliver(
      'subscription_created',
      lsSub('402', { user_email: 'gone@example.com', status: 'active' }),
    );
    // Another store's subscription is not this list's business.
    await deliver(
      'subscription_created',
      lsSub('403', { user_email: 'other.store@example.com', status: 'active', store_id: 2 }),
    );
    const before = await counts();
    const snapshot = async () =>
      (
        await db.query(
          "SELECT provider_id, status, ends_at FROM subscriptions WHERE provider = 'lemonsqueezy' ORDER BY provider_id",
        )
      ).rows;
    const rowsBefore = await snapshot();

    const dry = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(dry).toMatchObject({
      checked: 1,
      missing: [],
      mismatched: [],
      not_at_provider: [{ email: 'gone@example.com', subscription_id: '402', status: 'active' }],
      not_at_provider_total: 1,
    });
    const applied = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: false,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(applied).toMatchObject({ applied: 0, not_at_provider_total: 1 });
    expect(await snapshot()).toEqual(rowsBefore);
    expect({ ...(await counts()), audit: 0 }).toEqual({ ...before, audit: 0 });

    // ClickBank orders are read for a window: an absence there means nothing.
    const cbRun = await runReconcile(deps, {
      provider: 'clickbank',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(cbRun).toMatchObject({ not_at_provider: [], not_at_provider_total: 0 });
  });
});

describe('POST /maintenance/reconcile with LemonSqueezy', () => {
  it('recovers a missed webhook: missing in a dry run that writes nothing, present after apply, then nothing to do', async () => {
    const app = testApp(deps, [asRole('admin')]);
    ls.subscriptions.push(lsSub('101', { user_email: 'New.Buyer@example.com', status: 'active' }));
    const before = await counts();

    const dry = await call(app, 'POST', '/maintenance/reconcile', { provider: 'lemonsqueezy' });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      provider: 'lemonsqueezy',
      dryRun: true,
      checked: 1,
      missing: [
        { email: 'new.buyer@example.com', subscription_id: '101', provider_status: 'active' },
      ],
      mismatched: [],
      applied: 0,
      failed: [],
    });
    expect(await counts()).toEqual(before);
    expect(ls.requests[0]?.path).toBe(
      '/v1/subscriptions?filter%5Bstore_id%5D=1&page%5Bnumber%5D=1&page%5Bsize%5D=100&include=variant',
    );
    expect(ls.requests[0]?.headers.accept).toBe('application/vnd.api+json');

    const run = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'lemonsqueezy',
      dryRun: false,
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      dryRun: false,
      applied: 1,
      missing: [{ subscription_id: '101' }],
    });
    const sub = await db.query<{ status: string; email: string; mg_status: string }>(
      `SELECT s.status, c.email, m.mg_status FROM subscriptions s JOIN customers c ON c.id = s.customer_id
         JOIN members m ON m.customer_id = c.id WHERE s.provider = 'lemonsqueezy' AND s.provider_id = '101'`,
    );
    expect(sub.rows).toEqual([
      { status: 'active', email: 'new.buyer@example.com', mg_status: 'active' },
    ]);
    const jobs = await db.query('SELECT email, action, reason FROM forum_outbox');
    expect(jobs.rows).toEqual([
      { email: 'new.buyer@example.com', action: 'grant', reason: 'reconcile.lemonsqueezy' },
    ]);
    // The live events a webhook of the same subscription would have sent.
    const live = await db.query<{ type: string }>('SELECT type FROM live_events ORDER BY id');
    expect(live.rows.map((r) => r.type).sort()).toEqual(['access.granted', 'subscription.new']);
    const audit = await db.query(
      `SELECT operator_id::int AS operator_id, target, outcome, detail ->> 'subscription_id' AS sid
         FROM audit_log WHERE action = 'reconcile.apply' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows).toEqual([
      { operator_id: 7, target: 'new.buyer@example.com', outcome: 'ok', sid: '101' },
    ]);
    const log = await db.query(
      "SELECT level, context ->> 'email' AS email FROM logs WHERE msg = 'reconcile.lemonsqueezy'",
    );
    expect(log.rows).toEqual([{ level: 'info', email: 'new.buyer@example.com' }]);
    const afterFirst = await counts();

    const again = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'lemonsqueezy',
      dryRun: false,
    });
    expect(again.body).toMatchObject({ checked: 1, missing: [], mismatched: [], applied: 0 });
    expect(await counts()).toEqual(afterFirst);
  });

  it('fixes a subscription cancelled at the provider that is active here', async () => {
    const app = testApp(deps, [asRole('owner')]);
    await deliver(
      'subscription_created',
      lsSub('202', { user_email: 'gone@example.com', status: 'active' }),
    );
    const endsAt = new Date(NOW.getTime() - DAY);
    ls.subscriptions.push(
      lsSub('202', {
        user_email: 'gone@example.com',
        status: 'cancelled',
        cancelled: true,
        ends_at: lsTime(endsAt),
        updated_at: lsTime(new Date(NOW.getTime() - DAY / 2)),
      }),
    );
    const dry = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'lemonsqueezy',
      dryRun: true,
    });
    expect(dry.body.missing).toEqual([]);
    expect(dry.body.mismatched).toEqual([
      {
        email: 'gone@example.com',
        subscription_id: '202',
        field: 'status',
        ours: 'active',
        theirs: 'cancelled',
      },
      {
        email: 'gone@example.com',
        subscription_id: '202',
        field: 'current_period_end',
        ours: new Date(NOW.getTime() + 20 * DAY).toISOString(),
        theirs: endsAt.toISOString(),
      },
      {
        email: 'gone@example.com',
        subscription_id: '202',
        field: 'ends_at',
        ours: null,
        theirs: endsAt.toISOString(),
      },
      {
        email: 'gone@example.com',
        subscription_id: '202',
        field: 'access',
        ours: 'active',
        theirs: 'cancelled',
      },
    ]);

    const run = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'lemonsqueezy',
      dryRun: false,
    });
    expect(run.body.applied).toBe(1);
    const state = await db.query(
      `SELECT s.status, m.mg_status FROM subscriptions s JOIN members m ON m.customer_id = s.customer_id
        WHERE s.provider_id = '202'`,
    );
    expect(state.rows).toEqual([{ status: 'cancelled', mg_status: 'cancelled' }]);
    const jobs = await db.query(
      "SELECT action, reason FROM forum_outbox WHERE email = 'gone@example.com' ORDER BY id",
    );
    expect(jobs.rows.at(-1)).toEqual({ action: 'revoke', reason: 'reconcile.lemonsqueezy' });
    const again = await call(app, 'POST', '/maintenance/reconcile', { provider: 'lemonsqueezy' });
    expect(again.body).toMatchObject({ missing: [], mismatched: [] });
  });

  it('leaves alone an object older than the stored one (a newer webhook already applied)', async () => {
    await deliver(
      'subscription_created',
      lsSub('303', { user_email: 'fresh@example.com', status: 'active', updated_at: lsTime(NOW) }),
    );
    ls.subscriptions.push(
      lsSub('303', {
        user_email: 'fresh@example.com',
        status: 'past_due',
        updated_at: lsTime(new Date(NOW.getTime() - DAY)),
      }),
    );
    const r = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
    });
    expect(r).toMatchObject({ checked: 1, missing: [], mismatched: [] });
  });

  it('follows meta.page.lastPage, waits Retry-After on a 429 and backs off on a 5xx', async () => {
    for (let i = 1; i <= 250; i++) {
      ls.subscriptions.push(
        lsSub(String(i), { user_email: `p${i}@example.com`, status: 'active' }),
      );
    }
    ls.subscriptions.push(
      lsSub('999', { user_email: 'other@example.com', status: 'active', store_id: 2 }),
    );
    ls.script.push({ status: 429, retryAfter: '2' }, { status: 503 });
    const waits: number[] = [];
    let t = 0;
    const r = await runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
      http: {
        clock: () => t,
        sleep: async (ms) => {
          waits.push(ms);
          t += ms;
        },
        backoffMs: 1000,
      },
    });
    expect(r.checked).toBe(250);
    expect(r.missing).toHaveLength(250);
    expect(waits).toEqual([2000, 1000]);
    expect(
      ls.requests.map((q) => new URL(q.path, ls.url).searchParams.get('page[number]')),
    ).toEqual(['1', '1', '1', '2', '3']);
  });

  it('answers 424 when the provider keeps failing or refuses the key, and changes nothing but a warn row', async () => {
    const before = await counts();
    const bad = testApp(testDeps(db, NOW, { ...config, lemonSqueezyApiKey: 'wrong' }), [
      asRole('admin'),
    ]);
    const refused = await call(bad, 'POST', '/maintenance/reconcile', {
      provider: 'lemonsqueezy',
      dryRun: false,
    });
    expect(refused.status).toBe(424);
    expect(refused.body).toMatchObject({
      error: 'provider_unavailable',
      message: 'LemonSqueezy refused the credentials (HTTP 401)',
      provider_status: 401,
    });
    const r = runReconcile(deps, {
      provider: 'lemonsqueezy',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
      http: { sleep: async () => {}, maxAttempts: 2 },
    });
    ls.script.push({ status: 502 }, { status: 502 });
    await expect(r).rejects.toMatchObject({
      status: 424,
      message: 'LemonSqueezy answered HTTP 502 2 times',
    });
    expect(await counts()).toEqual(before);
    const failure = await db.query(
      "SELECT level, context ->> 'error' AS error FROM logs WHERE msg = 'reconcile.lemonsqueezy.failed'",
    );
    expect(failure.rows).toEqual([
      { level: 'warn', error: 'LemonSqueezy refused the credentials (HTTP 401)' },
    ]);
  });

  it('validates the body, needs the admin role and a configured provider, and refuses a second real run', async () => {
    const app = testApp(deps, [asRole('admin')]);
    expect((await call(app, 'POST', '/maintenance/reconcile', {})).body.message).toBe(
      'provider is required: lemonsqueezy or clickbank',
    );
    const wrong = await call(app, 'POST', '/maintenance/reconcile', { provider: 'stripe' });
    expect(wrong.status).toBe(400);
    expect(
      (await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank', dryRun: 'no' }))
        .status,
    ).toBe(400);
    const support = testApp(deps, [asRole('support')]);
    expect(
      (await call(support, 'POST', '/maintenance/reconcile', { provider: 'clickbank' })).status,
    ).toBe(403);
    const bare = testApp(testDeps(db, NOW), [asRole('admin')]);
    const off = await call(bare, 'POST', '/maintenance/reconcile', { provider: 'lemonsqueezy' });
    expect(off.status).toBe(409);
    expect(off.body).toMatchObject({
      error: 'not_configured',
      message: 'LemonSqueezy is not configured: set LEMONSQUEEZY_API_KEY and LEMONSQUEEZY_STORE_ID',
    });
    await tryExclusive(db, RECONCILE_RUN_LOCKS.lemonsqueezy, async () => {
      const busy = await call(app, 'POST', '/maintenance/reconcile', {
        provider: 'lemonsqueezy',
        dryRun: false,
      });
      expect(busy.status).toBe(409);
      expect(busy.body.error).toBe('conflict');
      // A dry run writes nothing and needs no lock.
      expect(
        (await call(app, 'POST', '/maintenance/reconcile', { provider: 'lemonsqueezy' })).status,
      ).toBe(200);
    });
  });
});

describe('POST /maintenance/reconcile with ClickBank', () => {
  const sale = (
    receipt: string,
    email: string,
    at: Date,
    extra: Partial<Parameters<typeof clickbankOrder>[0]> = {},
  ) =>
    clickbankOrder({
      receipt,
      type: 'SALE',
      email,
      at,
      nextPaymentAt: new Date(at.getTime() + 30 * DAY),
      ...extra,
    });

  it('recovers a missed sale and its rebill from the Orders API, once', async () => {
    const app = testApp(deps, [asRole('admin')]);
    const at = new Date(NOW.getTime() - 40 * DAY);
    cb.orders.push(
      sale('CBRCPT01', 'cb.buyer@example.com', new Date(NOW.getTime() - 10 * DAY)),
      // Outside the 30-day window: not asked for.
      sale('OLDRCPT1', 'old@example.com', at),
    );
    const before = await counts();
    const dry = await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank' });
    expect(dry.body).toMatchObject({
      provider: 'clickbank',
      dryRun: true,
      checked: 1,
      missing: [
        { email: 'cb.buyer@example.com', subscription_id: 'CBRCPT01', provider_status: 'active' },
      ],
      mismatched: [],
    });
    expect(await counts()).toEqual(before);
    const q = new URL(cb.requests[0]?.path ?? '', cb.url).searchParams;
    expect([q.get('startDate'), q.get('endDate')]).toEqual(['2026-10-21', '2026-11-20']);
    expect(cb.requests[0]?.headers.authorization).toBe('DEV-KEY:API-CLERK');
    expect(cb.requests[0]?.headers.page).toBe('1');

    const run = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'clickbank',
      dryRun: false,
    });
    expect(run.body.applied).toBe(1);
    const rows = await db.query(
      `SELECT s.status, m.mg_status, (SELECT count(*)::int FROM isr_events) AS isr,
              (SELECT count(*)::int FROM clickbank_orders) AS orders
         FROM subscriptions s JOIN members m ON m.customer_id = s.customer_id WHERE s.provider_id = 'CBRCPT01'`,
    );
    expect(rows.rows).toEqual([{ status: 'active', mg_status: 'active', isr: 1, orders: 1 }]);
    expect((await db.query('SELECT action, reason FROM forum_outbox')).rows).toEqual([
      { action: 'grant', reason: 'reconcile.clickbank' },
    ]);

    // The rebill the server also missed is a mismatched order; applying it counts it once.
    cb.orders.push(
      clickbankOrder({
        receipt: 'CBRCPT01-B1',
        type: 'BILL',
        email: 'cb.buyer@example.com',
        at: new Date(NOW.getTime() - DAY),
        nextPaymentAt: new Date(NOW.getTime() + 29 * DAY),
      }),
    );
    const dry2 = await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank' });
    expect(dry2.body.mismatched).toEqual([
      {
        email: 'cb.buyer@example.com',
        subscription_id: 'CBRCPT01',
        field: 'order',
        ours: null,
        theirs: `CBRCPT01-B1 BILL ${new Date(NOW.getTime() - DAY).toISOString()}`,
      },
    ]);
    await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank', dryRun: false });
    const settled = await counts();
    expect(settled.isr).toBe(2);
    const again = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'clickbank',
      dryRun: false,
    });
    expect(again.body).toMatchObject({ checked: 1, missing: [], mismatched: [], applied: 0 });
    expect(await counts()).toEqual(settled);
  });

  it('fixes a cancellation and a refund the webhooks missed', async () => {
    const app = testApp(deps, [asRole('admin')]);
    const at = new Date(NOW.getTime() - 5 * DAY);
    cb.orders.push(
      sale('CANCEL01', 'stops@example.com', at),
      sale('REFUND01', 'refund@example.com', at),
    );
    await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank', dryRun: false });

    // At the provider: the first is cancelled (its line item), the second refunded.
    const line = (cb.orders[0]?.lineItemData as Array<Record<string, unknown>>)[0] ?? {};
    line.status = 'CANCELED';
    cb.orders.push(
      clickbankOrder({
        receipt: 'REFUND01',
        type: 'RFND',
        email: 'refund@example.com',
        at: new Date(NOW.getTime() - DAY),
      }),
    );
    const dry = await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank' });
    const fields = dry.body.mismatched.map(
      (m: { subscription_id: string; field: string }) => `${m.subscription_id}:${m.field}`,
    );
    expect(fields).toEqual([
      'CANCEL01:status',
      'CANCEL01:access',
      'REFUND01:order',
      'REFUND01:status',
      'REFUND01:access',
    ]);

    const run = await call(app, 'POST', '/maintenance/reconcile', {
      provider: 'clickbank',
      dryRun: false,
    });
    expect(run.body).toMatchObject({ applied: 2, failed: [] });
    const state = await db.query(
      `SELECT s.provider_id, s.status, m.mg_status, m.expires_at FROM subscriptions s
         JOIN members m ON m.customer_id = s.customer_id ORDER BY s.provider_id`,
    );
    expect(state.rows).toEqual([
      {
        provider_id: 'CANCEL01',
        status: 'cancelled',
        mg_status: 'active',
        expires_at: new Date(at.getTime() + 30 * DAY),
      },
      { provider_id: 'REFUND01', status: 'cancelled', mg_status: 'cancelled', expires_at: NOW },
    ]);
    const refunds = await db.query(
      "SELECT count(*)::int AS n FROM isr_events WHERE kind = 'refund'",
    );
    expect(refunds.rows[0]).toEqual({ n: 1 });
    const again = await call(app, 'POST', '/maintenance/reconcile', { provider: 'clickbank' });
    expect(again.body).toMatchObject({ missing: [], mismatched: [] });
  });

  it('reads every page (206 while more follow, the Page header) and single-element lists', async () => {
    for (let i = 0; i < 150; i++) {
      cb.orders.push(
        sale(
          `PAGE${String(i).padStart(4, '0')}`,
          `pg${i}@example.com`,
          new Date(NOW.getTime() - DAY),
        ),
      );
    }
    cb.script.push({ status: 429, retryAfter: '1' });
    const waits: number[] = [];
    let t = 0;
    const r = await runReconcile(deps, {
      provider: 'clickbank',
      dryRun: true,
      trigger: 'console',
      actor: SYSTEM_ACTOR,
      http: {
        clock: () => t,
        sleep: async (ms) => {
          waits.push(ms);
          t += ms;
        },
      },
    });
    expect(r.checked).toBe(150);
    expect(waits).toEqual([1000]);
    expect(cb.requests.map((q) => q.headers.page)).toEqual(['1', '1', '2']);
  });
});

describe('the reconciliation schedule', () => {
  it('applies each configured provider as the system and skips one that is not configured, with the reason logged', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const d: AppDeps = {
      ...testDeps(db, NOW, { ...config, clickbankClerkKey: null }),
      log: pino(
        { level: 'info' },
        { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
      ),
    };
    ls.subscriptions.push(lsSub('501', { user_email: 'sched@example.com', status: 'on_trial' }));
    const scheduler = startReconcileScheduler(d, 0);
    const out = await scheduler.tick();
    await scheduler.stop();
    expect(out.clickbank).toEqual({
      skipped:
        'ClickBank is not configured: set CLICKBANK_CLERK_KEY (and CLICKBANK_DEVELOPER_KEY for a key pair)',
    });
    expect(lines.filter((l) => l.msg === 'scheduled reconciliation skipped')).toEqual([
      expect.objectContaining({
        provider: 'clickbank',
        reason: expect.stringMatching(/^ClickBank is not configured: set CLICKBANK_CLERK_KEY/),
      }),
    ]);
    expect(out.lemonsqueezy).toMatchObject({
      applied: 1,
      missing: [{ provider_status: 'trialing' }],
    });
    const audit = await db.query(
      `SELECT operator_id, detail ->> 'trigger' AS trigger FROM audit_log
        WHERE action = 'reconcile.apply' AND target = 'sched@example.com'`,
    );
    expect(audit.rows).toEqual([{ operator_id: null, trigger: 'scheduler' }]);
    const diagLast = await db.query(
      "SELECT value FROM meta WHERE key = 'reconcile_last_run:lemonsqueezy'",
    );
    expect(JSON.parse(String(diagLast.rows[0]?.value))).toMatchObject({
      trigger: 'scheduler',
      ok: true,
      checked: 1,
      missing: 1,
      applied: 1,
    });
  });
});

describe('the request budget', () => {
  it('spaces requests past the budget by the window, on the clock it is given', async () => {
    const { providerGet } = await import('./http');
    let t = 1_000_000;
    const waits: number[] = [];
    const opts = {
      clock: () => t,
      sleep: async (ms: number) => {
        waits.push(ms);
        t += ms;
      },
      fetchImpl: (async () => new Response('{}', { status: 200 })) as typeof fetch,
    };
    for (let i = 0; i < 5; i++) {
      await providerGet(
        'X',
        'http://x.invalid/',
        {},
        'budget-test',
        { max: 2, windowMs: 1000 },
        opts,
      );
    }
    expect(waits).toEqual([1000, 1000]);
  });

  it("holds a request started during another's 429 until that Retry-After has passed", async () => {
    const { providerGet } = await import('./http');
    let t = 5_000_000;
    const waits: number[] = [];
    const fetchedAt: Array<[string, number]> = [];
    let calls = 0;
    let second: Promise<unknown> | null = null;
    let started = false;
    const opts = {
      clock: () => t,
      sleep: async (ms: number) => {
        waits.push(ms);
        // A second page read starts while the first waits out its 429.
        if (!started) {
          started = true;
          second = providerGet('X', 'http://x.invalid/b', {}, 'pause-test', budget, opts);
          // Let it run as far as it may before this wait's time passes.
          await new Promise((resolve) => setImmediate(resolve));
        }
        t += ms;
      },
      fetchImpl: (async (url: string) => {
        fetchedAt.push([new URL(url).pathname, t]);
        return ++calls === 1
          ? new Response('{}', { status: 429, headers: { 'Retry-After': '5' } })
          : new Response('{}', { status: 200 });
      }) as unknown as typeof fetch,
    };
    const budget = { max: 100, windowMs: 1000 };
    await providerGet('X', 'http://x.invalid/a', {}, 'pause-test', budget, opts);
    await second;
    expect(fetchedAt[0]).toEqual(['/a', 5_000_000]);
    // Neither the retry nor the other request went out before the pause ended.
    expect(
      fetchedAt
        .slice(1)
        .map(([path]) => path)
        .sort(),
    ).toEqual(['/a', '/b']);
    expect(fetchedAt.slice(1).every(([, at]) => at >= 5_005_000)).toBe(true);
  });
});
