/**
 * The webhook inbox and the deliveries the server used to refuse: every documented LemonSqueezy
 * event (lemonsqueezy.js `Events`, the developer guide's list) and ClickBank transaction type (the
 * INS article: sale, rebill, refund, chargeback, cancel and un-cancel rebill, subscription change,
 * cart abandonment, tests) is answered 2xx and recorded; forged deliveries are kept by size only;
 * redeliveries and replays are duplicates; retention keeps the table bounded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { AppDeps } from '../context';
import type { Db, Tx } from '../db/types';
import { testNotification } from '../clickbank/ins';
import { countRows, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { webhookDeliveriesRoutes } from '../routes/webhookDeliveries';
import { clearVariantCache, cadenceFromPeriod } from './cadence';
import {
  clickbankNotification,
  encryptedClickbankBody,
  lemonSqueezyInvoice,
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
  type SignedDelivery,
} from './deliveries';
import { signLemonSqueezy, type LemonSqueezyEvent } from './lemonsqueezy';
import { pruneWebhookDeliveries, safeHeaders } from './inbox';

const SECRET = 'test-lemonsqueezy-signing-secret';
const KEY = 'SECRETKEY1234567';
const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

let db: Db;
let deps: AppDeps;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await resetDb(db);
  clearVariantCache();
  deps = testDeps(db, NOW, { lemonSqueezyWebhookSecret: SECRET, clickbankSecretKey: KEY });
  app = createApp(deps);
});

interface InboxRow {
  id: number;
  provider: string;
  event: string | null;
  outcome: string;
  http_status: number;
  error: string | null;
  email: string | null;
  subscription_id: string | null;
  body: string | null;
  body_size: number;
  headers: Record<string, string>;
  effects: string[];
  replay_outcome: string | null;
}

async function inbox(): Promise<InboxRow[]> {
  const r = await db.query<InboxRow>('SELECT * FROM webhook_deliveries ORDER BY id');
  return r.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

async function postLs(d: SignedDelivery, target: Hono = app) {
  const res = await target.request('/webhooks/lemonsqueezy', {
    method: 'POST',
    headers: d.headers,
    body: d.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function postCb(n: Record<string, unknown>) {
  const res = await app.request('/webhooks/clickbank', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': 'ClickBank-INS' },
    body: encryptedClickbankBody(n, KEY),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A signed delivery of any event name (the builder's type only lists the handled ones). */
function signed(event: string, data: unknown): SignedDelivery {
  return signedLemonSqueezyDelivery(event as LemonSqueezyEvent, data, SECRET);
}

function subscription(id: string, attrs: Record<string, unknown> = {}) {
  return lemonSqueezySubscription(id, {
    user_email: 'buyer@example.com',
    user_name: 'Buyer',
    product_name: 'Pro Membership',
    variant_name: 'Default',
    status: 'active',
    renews_at: lsTime(new Date(NOW.getTime() + 20 * DAY)),
    ends_at: null,
    created_at: lsTime(ago(2)),
    updated_at: lsTime(ago(2)),
    ...attrs,
  });
}

/** The rows every delivery may change, besides the inbox. */
async function dataCounts() {
  const out: Record<string, number> = {};
  for (const t of ['customers', 'subscriptions', 'members', 'isr_events', 'forum_outbox']) {
    out[t] = await countRows(db, t);
  }
  return out;
}

describe('LemonSqueezy: every documented event is answered 2xx and recorded', () => {
  const licenseKey = {
    type: 'license-keys',
    id: '77',
    attributes: {
      store_id: 1,
      customer_id: 1,
      order_id: 1,
      user_email: 'buyer@example.com',
      key: '80e15db5-c796-436b-850c-8f9c98a48abe',
      status: 'active',
      created_at: lsTime(ago(1)),
      updated_at: lsTime(ago(1)),
    },
  };
  const invoice = lemonSqueezyInvoice('501', {
    subscription_id: '9001',
    user_email: 'buyer@example.com',
    billing_reason: 'renewal',
    total: 1900,
    at: ago(1),
  });
  const order = lemonSqueezyOrder('601', {
    user_email: 'buyer@example.com',
    total: 1900,
    at: ago(2),
  });
  // The developer guide's event list, with the data object each one carries.
  const cases: Array<[string, unknown, 'applied' | 'ignored']> = [
    ['order_created', order, 'applied'],
    [
      'order_refunded',
      { ...order, attributes: { ...order.attributes, refunded: true } },
      'applied',
    ],
    ['subscription_created', subscription('9001'), 'applied'],
    ['subscription_updated', subscription('9001', { updated_at: lsTime(ago(1.9)) }), 'applied'],
    [
      'subscription_cancelled',
      subscription('9001', {
        status: 'cancelled',
        ends_at: lsTime(new Date(NOW.getTime() + DAY)),
        updated_at: lsTime(ago(1.8)),
      }),
      'applied',
    ],
    ['subscription_resumed', subscription('9001', { updated_at: lsTime(ago(1.7)) }), 'applied'],
    [
      'subscription_paused',
      subscription('9001', { status: 'paused', updated_at: lsTime(ago(1.6)) }),
      'applied',
    ],
    ['subscription_unpaused', subscription('9001', { updated_at: lsTime(ago(1.5)) }), 'applied'],
    [
      'subscription_expired',
      subscription('9001', { status: 'expired', updated_at: lsTime(ago(1.4)) }),
      'applied',
    ],
    ['subscription_payment_success', invoice, 'applied'],
    ['subscription_payment_failed', { ...invoice, id: '502' }, 'applied'],
    ['subscription_payment_recovered', { ...invoice, id: '503' }, 'applied'],
    ['subscription_payment_refunded', { ...invoice, id: '504' }, 'ignored'],
    [
      'subscription_plan_changed',
      subscription('9001', { updated_at: lsTime(ago(1.3)) }),
      'ignored',
    ],
    ['license_key_created', licenseKey, 'ignored'],
    ['license_key_updated', licenseKey, 'ignored'],
    ['affiliate_activated', { type: 'affiliates', id: '3', attributes: {} }, 'ignored'],
    ['store_deleted', { type: 'stores', id: '1', attributes: {} }, 'ignored'],
  ];

  it('applies the handled events and acknowledges the others as ignored, with the reason', async () => {
    for (const [event, data, outcome] of cases) {
      const res = await postLs(signed(event, data));
      expect(res.status, event).toBe(200);
      expect(res.body, event).toMatchObject({ ok: true, event });
      if (outcome === 'ignored') expect(typeof res.body.ignored, event).toBe('string');
    }
    const rows = await inbox();
    expect(rows.map((r) => [r.event, r.outcome, r.http_status])).toEqual(
      cases.map(([event, , outcome]) => [event, outcome, 200]),
    );
    const reasons = Object.fromEntries(rows.map((r) => [r.event, r.error]));
    expect(reasons.license_key_created).toMatch(/license keys/);
    expect(reasons.subscription_plan_changed).toMatch(/subscription_updated/);
    expect(reasons.store_deleted).toMatch(/not one this server acts on/);
    // Ignored deliveries keep the verified body and what they name.
    const refunded = rows.find((r) => r.event === 'subscription_payment_refunded');
    expect(refunded).toMatchObject({ email: 'buyer@example.com', subscription_id: '9001' });
    expect(JSON.parse(refunded?.body ?? '{}')).toMatchObject({ data: { id: '504' } });
  });

  it('an ignored event changes nothing but its inbox row', async () => {
    const res = await postLs(signed('license_key_created', licenseKey));
    expect(res.status).toBe(200);
    expect(await dataCounts()).toEqual({
      customers: 0,
      subscriptions: 0,
      members: 0,
      isr_events: 0,
      forum_outbox: 0,
    });
    expect(await countRows(db, 'webhook_deliveries')).toBe(1);
  });

  it('an older invoice without user_email takes the email of the subscription it names', async () => {
    await postLs(signed('subscription_created', subscription('9001')));
    const old = lemonSqueezyInvoice('505', {
      subscription_id: 9001,
      user_email: 'x@example.com',
      billing_reason: 'renewal',
      total: 1900,
      at: ago(1),
    });
    delete old.attributes.user_email;
    const res = await postLs(signed('subscription_payment_success', old));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ duplicate: false, effects: ['event.renewal', 'isr.rebill'] });
    const isr = await db.query<{ customer_email: string }>('SELECT customer_email FROM isr_events');
    expect(isr.rows).toEqual([{ customer_email: 'buyer@example.com' }]);
    const last = (await inbox()).at(-1);
    expect(last).toMatchObject({ outcome: 'applied', email: 'buyer@example.com' });
    // An unknown subscription leaves nothing to act on: acknowledged and recorded.
    const orphan = { ...old, id: '506', attributes: { ...old.attributes, subscription_id: 4242 } };
    const again = await postLs(signed('subscription_payment_success', orphan));
    expect(again.status).toBe(200);
    expect((await inbox()).at(-1)).toMatchObject({
      outcome: 'ignored',
      error: expect.stringMatching(/subscription 4242 is not known/) as unknown,
    });
  });
});

describe('the inbox records every delivery', () => {
  it('keeps a forged delivery as refused_signature with its size only, and no secret header', async () => {
    const d = signed('subscription_created', subscription('9001'));
    const forged = {
      ...d,
      headers: { ...d.headers, 'X-Signature': signLemonSqueezy(d.body, 'x') },
    };
    const res = await postLs(forged);
    expect(res.status).toBe(401);
    const [row] = await inbox();
    expect(row).toMatchObject({
      provider: 'lemonsqueezy',
      outcome: 'refused_signature',
      http_status: 401,
      body: null,
      body_size: Buffer.byteLength(d.body),
      event: null,
      email: null,
    });
    expect(row?.headers['x-event-name']).toBe('subscription_created');
    expect(Object.keys(row?.headers ?? {}).some((h) => /signature/.test(h))).toBe(false);
    expect(await dataCounts()).toMatchObject({ customers: 0, subscriptions: 0 });
  });

  it('keeps an undecryptable ClickBank delivery by size, and its redelivery as duplicate', async () => {
    const wrong = await app.request('/webhooks/clickbank', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: encryptedClickbankBody(testNotification(NOW), 'SOMEOTHERKEY0000'),
    });
    expect(wrong.status).toBe(401);
    const sale = clickbankNotification({
      type: 'SALE',
      receipt: 'R1',
      email: 'Jane@Example.com',
      at: ago(1),
    });
    expect((await postCb(sale)).status).toBe(200);
    expect((await postCb({ ...sale, attemptCount: 2 })).status).toBe(200);
    const rows = await inbox();
    expect(rows.map((r) => [r.outcome, r.http_status, r.body === null])).toEqual([
      ['refused_signature', 401, true],
      ['applied', 200, false],
      ['duplicate', 200, false],
    ]);
    expect(rows[1]).toMatchObject({
      event: 'SALE',
      email: 'jane@example.com',
      subscription_id: 'R1',
    });
    expect(rows[1]?.effects).toContain('access.grant');
    expect(JSON.parse(rows[1]?.body ?? '{}')).toMatchObject({
      receipt: 'R1',
      transactionType: 'SALE',
    });
    expect(rows[1]?.headers['user-agent']).toBe('ClickBank-INS');
  });

  it('keeps a delivery whose transaction failed as failed (500) with its body, and a replay applies it once', async () => {
    const failingDb: Db = Object.create(db) as Db;
    failingDb.transaction = <T>(fn: (tx: Tx) => Promise<T>) =>
      db.transaction(async (tx) => {
        await fn(tx);
        throw new Error('disk full');
      });
    const failing: AppDeps = { ...deps, db: failingDb };
    const d = signed('subscription_created', subscription('9001'));
    const res = await postLs(d, createApp(failing));
    expect(res.status).toBe(500);
    const [row] = await inbox();
    expect(row).toMatchObject({ outcome: 'failed', http_status: 500, email: 'buyer@example.com' });
    expect(row?.error).toMatch(/disk full/);
    expect(row?.body).toBe(d.body);
    expect(await countRows(db, 'subscriptions')).toBe(0);

    const admin = inboxApi('admin');
    const first = await admin.request(`/webhook-deliveries/${row?.id}/replay`, { method: 'POST' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ outcome: 'applied' });
    expect(await countRows(db, 'subscriptions')).toBe(1);
    const second = await admin.request(`/webhook-deliveries/${row?.id}/replay`, { method: 'POST' });
    expect(await second.json()).toMatchObject({ outcome: 'duplicate', effects: [] });
    expect(await countRows(db, 'subscriptions')).toBe(1);
    expect(await countRows(db, 'forum_outbox')).toBe(1);
    // The provider's own redelivery is a duplicate too.
    expect((await postLs(d)).body).toMatchObject({ duplicate: true });
    const audit = await db.query<{
      action: string;
      target: string;
      outcome: string;
      detail: unknown;
    }>('SELECT action, target, outcome, detail FROM audit_log ORDER BY id');
    expect(audit.rows).toEqual([
      {
        action: 'webhook.replay',
        target: 'buyer@example.com',
        outcome: 'ok',
        detail: {
          delivery_id: row?.id,
          provider: 'lemonsqueezy',
          event: 'subscription_created',
          result: 'applied',
        },
      },
      {
        action: 'webhook.replay',
        target: 'buyer@example.com',
        outcome: 'ok',
        detail: {
          delivery_id: row?.id,
          provider: 'lemonsqueezy',
          event: 'subscription_created',
          result: 'duplicate',
        },
      },
    ]);
  });

  it('replays an applied delivery as a duplicate even after its dedup row was pruned', async () => {
    const sale = clickbankNotification({
      type: 'SALE',
      receipt: 'R9',
      email: 'a@example.com',
      at: ago(1),
    });
    await postCb(sale);
    await db.query('DELETE FROM webhook_dedup');
    const [row] = await inbox();
    const res = await inboxApi('owner').request(`/webhook-deliveries/${row?.id}/replay`, {
      method: 'POST',
    });
    expect(await res.json()).toMatchObject({ outcome: 'duplicate' });
    expect(await countRows(db, 'isr_events')).toBe(1);
  });

  it('refuses a replay below admin (403), of a delivery kept by size only (409), of none (404)', async () => {
    const d = signed('subscription_created', subscription('9001'));
    await postLs({ ...d, headers: { ...d.headers, 'X-Signature': '0'.repeat(64) } });
    const [row] = await inbox();
    const support = await inboxApi('support').request(`/webhook-deliveries/${row?.id}/replay`, {
      method: 'POST',
    });
    expect(support.status).toBe(403);
    const admin = inboxApi('admin');
    expect(
      (await admin.request(`/webhook-deliveries/${row?.id}/replay`, { method: 'POST' })).status,
    ).toBe(409);
    expect((await admin.request('/webhook-deliveries/999/replay', { method: 'POST' })).status).toBe(
      404,
    );
    expect((await admin.request('/webhook-deliveries/abc', {})).status).toBe(400);
  });

  it('lists with filters and paging, and shows one delivery with its headers and body', async () => {
    await postLs(signed('subscription_created', subscription('9001')));
    await postLs(signed('license_key_created', { type: 'license-keys', id: '1', attributes: {} }));
    await postCb(
      clickbankNotification({ type: 'SALE', receipt: 'R1', email: 'j@example.com', at: ago(1) }),
    );
    await postCb({ ...testNotification(NOW) });
    const api = inboxApi('viewer');
    const get = async (q: string) => {
      const res = await api.request(`/webhook-deliveries${q}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const all = await get('');
    expect(all.body).toMatchObject({
      total: 4,
      page: 1,
      pageSize: 50,
      totalPages: 1,
      totalCapped: false,
    });
    expect((all.body.rows as Array<{ event: string }>).map((r) => r.event)).toEqual([
      'TEST',
      'SALE',
      'license_key_created',
      'subscription_created',
    ]);
    expect((await get('?provider=clickbank')).body.total).toBe(2);
    expect((await get('?outcome=ignored_test')).body.total).toBe(1);
    expect((await get('?event=sale')).body.total).toBe(1);
    expect((await get('?event=LICENSE_KEY_CREATED')).body.total).toBe(1);
    expect((await get('?email=J@example.com')).body.total).toBe(1);
    expect((await get('?from=2026-11-20&to=2026-11-20')).body.total).toBe(4);
    expect((await get('?to=2026-11-19')).body.total).toBe(0);
    expect((await get('?pageSize=3&page=2')).body).toMatchObject({ totalPages: 2 });
    // The total is the same whether a page tells it (not full) or the count does (full, or past
    // the end).
    for (const q of [
      '?pageSize=2&page=1',
      '?pageSize=2&page=2',
      '?pageSize=3&page=2',
      '?pageSize=2&page=9',
    ]) {
      expect((await get(q)).body, q).toMatchObject({ total: 4, totalCapped: false });
    }
    expect(((await get('?pageSize=2&page=9')).body.rows as unknown[]).length).toBe(0);
    expect((await get('?outcome=nope')).status).toBe(400);
    expect((await get('?pageSize=500')).status).toBe(400);
    expect((await get('?from=2026-11-21&to=2026-11-20')).status).toBe(400);

    // Past WEBHOOK_COUNT_CAP matches the total stops at the cap, by the count or by a page.
    await db.query(
      `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, body_size)
       SELECT $1::timestamptz - i * interval '1 second', 'clickbank', 'BILL', 'applied', 200, 10
         FROM generate_series(1, 1005) AS s(i)`,
      [new Date(NOW.getTime() - 3 * DAY)],
    );
    for (const q of ['?provider=clickbank', '?provider=clickbank&pageSize=200&page=5']) {
      expect((await get(q)).body, q).toMatchObject({ total: 1000, totalCapped: true });
    }
    expect((await get('?outcome=ignored_test')).body).toMatchObject({
      total: 1,
      totalCapped: false,
    });

    const first = (all.body.rows as Array<{ id: number }>)[3];
    const detail = await api.request(`/webhook-deliveries/${first?.id}`);
    const body = (await detail.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      provider: 'lemonsqueezy',
      outcome: 'applied',
      has_body: true,
      body: { meta: { event_name: 'subscription_created' }, data: { id: '9001' } },
      headers: { 'x-event-name': 'subscription_created' },
    });
    expect((await api.request('/webhook-deliveries/12345')).status).toBe(404);
  });
});

describe('ClickBank: every documented transaction type is answered 2xx and recorded', () => {
  const base = { receipt: 'CB1', email: 'jane@example.com' };
  it('applies the handled types, ignores the others with the reason, and TEST names as tests', async () => {
    const cases: Array<[string, string, string]> = [
      ['SALE', 'CB1', 'applied'],
      ['BILL', 'CB1-B1', 'applied'],
      ['INSF', 'CB1-B2', 'applied'],
      ['CANCEL-REBILL', 'CB1', 'applied'],
      ['UNCANCEL-REBILL', 'CB1', 'applied'],
      ['RFND', 'CB1', 'applied'],
      ['CGBK', 'CB1-B1', 'applied'],
      ['CANCEL-TEST-REBILL', 'CB2', 'ignored'],
      ['UNCANCEL-TEST-REBILL', 'CB2', 'ignored'],
      ['ABANDONED_ORDER', 'CB3', 'ignored'],
      ['SUBSCRIPTION-CHG', 'CB1', 'ignored'],
      ['SOMETHING_NEW', 'CB4', 'ignored'],
      ['TEST', '********', 'ignored_test'],
      ['TEST_SALE', 'CB5', 'ignored_test'],
      ['TEST_BILL', 'CB5', 'ignored_test'],
      ['TEST_RFND', 'CB5', 'ignored_test'],
    ];
    let hour = 0;
    for (const [type, receipt, outcome] of cases) {
      hour++;
      const n = clickbankNotification({
        ...base,
        type,
        receipt,
        at: new Date(ago(3).getTime() + hour * 3_600_000),
      });
      const res = await postCb(n);
      expect(res.status, type).toBe(200);
      if (outcome === 'ignored') expect(typeof res.body.ignored, type).toBe('string');
    }
    const rows = await inbox();
    expect(rows.map((r) => [r.event, r.outcome])).toEqual(cases.map(([t, , o]) => [t, o]));
    const reasons = Object.fromEntries(rows.map((r) => [r.event, r.error]));
    expect(reasons['CANCEL-TEST-REBILL']).toMatch(/test purchase/);
    expect(reasons.ABANDONED_ORDER).toMatch(/abandoned/);
    expect(reasons['SUBSCRIPTION-CHG']).toMatch(/product change/);
  });

  it('acknowledges an AFFILIATE-role notification, which carries no customer email', async () => {
    const n = clickbankNotification({ ...base, type: 'SALE', at: ago(1), affiliate: 'topaff' });
    delete (n as { customer?: unknown }).customer;
    const res = await postCb({ ...n, role: 'AFFILIATE' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, event: 'SALE' });
    const [row] = await inbox();
    expect(row).toMatchObject({ outcome: 'ignored', email: null, subscription_id: 'CB1' });
    expect(row?.error).toMatch(/AFFILIATE role/);
    expect(await countRows(db, 'customers')).toBe(0);
  });
});

describe('LemonSqueezy cadence', () => {
  let api: Server;
  let apiUrl: string;
  const variants: Record<string, string> = { '11': 'year', '12': 'month' };
  beforeAll(async () => {
    api = createServer((req, res) => {
      const id = /\/v1\/variants\/(\d+)$/.exec(req.url ?? '')?.[1] ?? '';
      const interval = variants[id];
      res.setHeader('Content-Type', 'application/vnd.api+json');
      if (!interval || req.headers.authorization !== 'Bearer ls-key') {
        res.statusCode = 404;
        res.end(JSON.stringify({ errors: [{ status: '404', title: 'Not Found' }] }));
        return;
      }
      // The shape of the API reference's "Retrieve a variant" example.
      res.end(
        JSON.stringify({
          jsonapi: { version: '1.0' },
          data: {
            type: 'variants',
            id,
            attributes: {
              product_id: 1,
              name: 'Default',
              is_subscription: true,
              interval,
              interval_count: 1,
            },
          },
        }),
      );
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => api.close(resolve));
  });

  async function cadenceOf(id: string): Promise<string | undefined> {
    const r = await db.query<{ cadence: string }>(
      'SELECT cadence FROM subscriptions WHERE provider_id = $1',
      [id],
    );
    return r.rows[0]?.cadence;
  }

  it('keeps a monthly subscription older than 200 days monthly', async () => {
    // Created 250 days ago, renewing on the same day of the month: not a whole year.
    const created = new Date('2026-03-15T10:00:00Z');
    const renews = new Date('2026-12-15T10:00:00Z');
    await postLs(
      signed(
        'subscription_created',
        subscription('1', {
          created_at: lsTime(created),
          renews_at: lsTime(renews),
        }),
      ),
    );
    expect(await cadenceOf('1')).toBe('monthly');
    expect(cadenceFromPeriod(new Date('2025-12-15T10:00:00Z'), renews)).toBe('yearly');
  });

  it("takes the variant's interval from the API when it is configured", async () => {
    const withApi = createApp(
      testDeps(db, NOW, {
        lemonSqueezyWebhookSecret: SECRET,
        lemonSqueezyApiKey: 'ls-key',
        lemonSqueezyApiUrl: apiUrl,
      }),
    );
    await postLs(signed('subscription_created', subscription('2', { variant_id: 11 })), withApi);
    await postLs(signed('subscription_created', subscription('3', { variant_id: 12 })), withApi);
    // An unknown variant falls back to the history and the first period.
    await postLs(signed('subscription_created', subscription('4', { variant_id: 99 })), withApi);
    expect([await cadenceOf('2'), await cadenceOf('3'), await cadenceOf('4')]).toEqual([
      'yearly',
      'monthly',
      'monthly',
    ]);
  });

  it('learns a yearly cadence from the invoice history', async () => {
    const created = ago(400);
    await postLs(
      signed(
        'subscription_created',
        subscription('5', {
          created_at: lsTime(created),
          updated_at: lsTime(created),
          renews_at: lsTime(new Date(created.getTime() + 365 * DAY)),
        }),
      ),
    );
    const renewal = lemonSqueezyInvoice('900', {
      subscription_id: '5',
      user_email: 'buyer@example.com',
      billing_reason: 'renewal',
      total: 19900,
      at: ago(35),
    });
    await postLs(signed('subscription_payment_success', renewal));
    await postLs(
      signed(
        'subscription_updated',
        subscription('5', {
          created_at: lsTime(created),
          updated_at: lsTime(ago(35)),
          renews_at: lsTime(new Date(ago(35).getTime() + 300 * DAY)),
        }),
      ),
    );
    expect(await cadenceOf('5')).toBe('yearly');
  });
});

describe('retention', () => {
  it('deletes rows past WEBHOOK_RETENTION_DAYS, then the oldest beyond the row cap', async () => {
    for (const [i, days] of [100, 50, 3, 2, 1].entries()) {
      await db.query(
        `INSERT INTO webhook_deliveries (received_at, provider, outcome, http_status, body_size)
         VALUES ($1, 'clickbank', 'applied', 200, $2)`,
        [ago(days), i],
      );
    }
    const r = await pruneWebhookDeliveries(db, NOW, 90, 3);
    expect(r).toEqual({ expired: 1, overCap: 1 });
    const left = await db.query<{ body_size: number }>(
      'SELECT body_size FROM webhook_deliveries ORDER BY received_at',
    );
    expect(left.rows.map((x) => x.body_size)).toEqual([2, 3, 4]);
  });

  it('keeps no header that proves or carries a secret', () => {
    const h = new Headers({
      'X-Signature': 'abc',
      Authorization: 'Bearer x',
      Cookie: 'a=b',
      'X-Api-Key': 'k',
      'X-Event-Name': 'order_created',
      'Content-Type': 'application/json',
    });
    expect(safeHeaders(h)).toEqual({
      'x-event-name': 'order_created',
      'content-type': 'application/json',
    });
  });
});

/** The inbox routes behind a signed-in operator of `role` (what the session middleware sets). */
function inboxApi(role: 'viewer' | 'support' | 'admin' | 'owner'): Hono {
  const outer = new Hono();
  outer.use('*', async (c, next) => {
    c.set('admin' as never, { role, operatorId: null, email: 'admin@example.com' } as never);
    await next();
  });
  outer.route('/', testApp(deps, [webhookDeliveriesRoutes]));
  return outer;
}
