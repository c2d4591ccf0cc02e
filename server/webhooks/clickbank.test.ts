import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { encryptIns, testNotification } from '../clickbank/ins';
import type { Db } from '../db/types';
import { countRows, freshDb, resetDb, testDeps } from '../testing/app';
import { clickbankDedupKey, initialReceiptOf, parseClickbankTime } from './clickbank';
import { clickbankNotification, clickbankTestVector, encryptedClickbankBody } from './deliveries';

const KEY = 'SECRETKEY1234567';
const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const at = (daysBeforeNow: number) => new Date(NOW.getTime() - daysBeforeNow * DAY);

let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
}, 60_000);
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await resetDb(db);
  app = createApp(testDeps(db, NOW, { clickbankSecretKey: KEY }));
});

async function post(body: string, target: Hono = app) {
  const res = await target.request('/webhooks/clickbank', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const send = (n: Record<string, unknown>) => post(encryptedClickbankBody(n, KEY));

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of [
    'customers',
    'subscriptions',
    'members',
    'subscription_events',
    'clickbank_orders',
    'isr_events',
    'live_events',
    'forum_outbox',
    'webhook_dedup',
    'logs',
  ]) {
    out[t] = await countRows(db, t);
  }
  return out;
}
const nothing = async () => Object.values(await counts()).every((n) => n === 0);

async function liveTypes(): Promise<string[]> {
  const r = await db.query<{ type: string }>('SELECT type FROM live_events ORDER BY id');
  return r.rows.map((row) => row.type);
}
async function member(email: string) {
  const r = await db.query<{ mg_status: string; expires_at: Date | null }>(
    `SELECT m.mg_status, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1`,
    [email],
  );
  return r.rows[0] ?? null;
}

const EMAIL = 'jane.buyer@example.com';
const sale = (extra: Partial<Parameters<typeof clickbankNotification>[0]> = {}) =>
  clickbankNotification({
    type: 'SALE',
    receipt: 'ABCD1234',
    email: 'Jane.Buyer@Example.com',
    at: at(3),
    amount: 19,
    affiliate: 'topaff',
    trackingCode: 'fb_ads_1',
    nextPaymentAt: new Date(at(3).getTime() + 30 * DAY),
    vendorVariables: { campaign: 'spring', v1: 'x' },
    ...extra,
  });
const bill = (
  n: number,
  daysAgo: number,
  extra: Partial<Parameters<typeof clickbankNotification>[0]> = {},
) =>
  clickbankNotification({
    type: 'BILL',
    receipt: `ABCD1234-B${n}`,
    email: EMAIL,
    at: at(daysAgo),
    amount: 19,
    basicTime: true,
    nextPaymentAt: new Date(at(daysAgo).getTime() + 30 * DAY),
    ...extra,
  });

describe('ClickBank helpers', () => {
  it('reads both transactionTime formats', () => {
    expect(parseClickbankTime('2023-07-28T02:07:57+00:00')?.toISOString()).toBe(
      '2023-07-28T02:07:57.000Z',
    );
    expect(parseClickbankTime('20220810T162015-0700')?.toISOString()).toBe(
      '2022-08-10T23:20:15.000Z',
    );
    expect(parseClickbankTime('20220810T162015')?.toISOString()).toBe('2022-08-10T16:20:15.000Z');
    expect(parseClickbankTime('yesterday')).toBeNull();
    expect(parseClickbankTime('20221310T162015-0700')).toBeNull();
  });
  it('links a rebill to its initial receipt', () => {
    expect(initialReceiptOf({ receipt: 'ABCD1234-B3' })).toBe('ABCD1234');
    expect(initialReceiptOf({ receipt: 'ZZZZ9999', parentReceipt: 'ABCD1234' })).toBe('ABCD1234');
    expect(initialReceiptOf({ receipt: 'ABCD1234' })).toBe('ABCD1234');
  });
  it('keys deliveries by receipt, type and instant (the retry counter does not matter)', () => {
    const k = (time: string) =>
      clickbankDedupKey({ n: { receipt: 'R1' }, type: 'SALE', at: parseClickbankTime(time)! });
    expect(k('2023-07-28T02:07:57+00:00')).toBe(k('20230727T190757-0700'));
  });
});

describe('POST /webhooks/clickbank', () => {
  it('applies the clickbankgo test vector through the route', async () => {
    const v = clickbankTestVector();
    const vectorApp = createApp(testDeps(db, NOW, { clickbankSecretKey: v.secretKey }));
    const res = await post(JSON.stringify({ notification: v.notification, iv: v.iv }), vectorApp);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, event: 'SALE', duplicate: false });
    const order = await db.query<Record<string, unknown>>(
      'SELECT receipt, email, status, title, sku, amount_cents, account_amount_cents, currency, created_at_provider, raw_json, customer_display_name FROM clickbank_orders',
    );
    expect(order.rows).toEqual([
      {
        receipt: '********',
        email: 'testuser@somesite.com',
        status: 'SALE',
        title: 'A passed in title',
        sku: '1',
        amount_cents: 100,
        account_amount_cents: 100,
        currency: 'USD',
        created_at_provider: new Date('2023-07-28T02:07:57Z'),
        raw_json: v.expectedJson,
        customer_display_name: 'Test User',
      },
    ]);
    const sub = await db.query('SELECT provider, provider_id, status FROM subscriptions');
    expect(sub.rows).toEqual([
      { provider: 'clickbank', provider_id: '********', status: 'active' },
    ]);
    const isr = await db.query('SELECT source, kind, amount_cents, receipt FROM isr_events');
    expect(isr.rows).toEqual([
      { source: 'clickbank', kind: 'sale', amount_cents: 100, receipt: '********' },
    ]);
    expect(await liveTypes()).toEqual(['subscription.new', 'access.granted', 'isr.event']);
  });

  it('refuses a wrong key and a tampered ciphertext with 401, and a bad envelope with 400, keeping each as refused_signature by size', async () => {
    const wrongKey = encryptedClickbankBody(sale(), 'SOMEOTHERKEY0000');
    expect((await post(wrongKey)).status).toBe(401);
    const env = encryptIns(JSON.stringify(sale()), KEY);
    const bytes = Buffer.from(env.notification, 'base64');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    expect(
      (await post(JSON.stringify({ ...env, notification: bytes.toString('base64') }))).status,
    ).toBe(401);
    expect((await post(JSON.stringify({ ...env, iv: 'AAAA' }))).status).toBe(401);
    // Decrypts, but not to JSON.
    expect((await post(JSON.stringify(encryptIns('hello', KEY)))).status).toBe(401);
    for (const bad of [
      '{"notification":"x"}',
      '{oops',
      '[1]',
      JSON.stringify({ notification: 5, iv: 'x' }),
    ]) {
      const res = await post(bad);
      expect(res.status, bad).toBe(400);
    }
    expect(await nothing()).toBe(true);
    // Nothing in them could be verified: each is a refusal, kept by its size only.
    const inbox = await db.query<{ outcome: string; http_status: number; body: string | null }>(
      'SELECT outcome, http_status, body FROM webhook_deliveries ORDER BY id',
    );
    expect(inbox.rows.map((r) => [r.outcome, r.http_status, r.body])).toEqual([
      ...[401, 401, 401, 401].map((st) => ['refused_signature', st, null]),
      ...[400, 400, 400, 400].map((st) => ['refused_signature', st, null]),
    ]);
  });

  it('acknowledges malformed notifications 200 as invalid (no email, bad time, no receipt), writing nothing but their inbox row', async () => {
    const noEmail = sale();
    delete (noEmail as { customer?: unknown }).customer;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [noEmail, /customer\.billing\.email/],
      [{ ...sale(), transactionTime: 'last tuesday' }, /transactionTime/],
      [{ ...sale(), receipt: undefined }, /receipt/],
    ];
    for (const [n, reason] of cases) {
      const res = await send(n);
      // Decrypted, so authentic: acknowledged, or ClickBank would retry and in the end disable
      // the endpoint over a notification no retry can fix.
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, event: 'SALE', duplicate: false, effects: [] });
      expect(String(res.body.invalid)).toMatch(reason);
    }
    expect(await nothing()).toBe(true);
    const inbox = await db.query<{
      outcome: string;
      http_status: number;
      error: string;
      event: string;
      body: string | null;
    }>('SELECT outcome, http_status, error, event, body FROM webhook_deliveries ORDER BY id');
    expect(inbox.rows.map((r) => [r.outcome, r.http_status, r.event])).toEqual(
      cases.map(() => ['invalid', 200, 'SALE']),
    );
    inbox.rows.forEach((r, i) => expect(r.error).toMatch(cases[i]![1]));
    // The notification is kept for a replay once the server accepts it.
    expect(inbox.rows.every((r) => r.body?.includes('"transactionType":"SALE"'))).toBe(true);
  });

  it('acknowledges TEST notifications with a log row and nothing else', async () => {
    for (const n of [testNotification(NOW), { ...sale(), transactionType: 'TEST_SALE' }]) {
      const res = await send(n);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, effects: ['test'] });
    }
    const c = await counts();
    expect(c.logs).toBe(2);
    expect({ ...c, logs: 0 }).toEqual(Object.fromEntries(Object.keys(c).map((k) => [k, 0])));
  });

  it('records a SALE with its affiliate, TID and vendor variables, then a BILL as a renewal', async () => {
    expect((await send(sale())).status).toBe(200);
    expect(await member(EMAIL)).toEqual({ mg_status: 'active', expires_at: null });
    const renewal = await send(bill(1, 1));
    expect(renewal.status).toBe(200);

    const sub = await db.query<{
      provider_id: string;
      status: string;
      cadence: string;
      plan: string;
      amount_cents: number;
      source: string;
      current_period_end: Date;
    }>(
      'SELECT provider_id, status, cadence, plan, amount_cents, source, current_period_end FROM subscriptions',
    );
    expect(sub.rows).toEqual([
      {
        provider_id: 'ABCD1234',
        status: 'active',
        cadence: 'monthly',
        plan: 'Pro',
        amount_cents: 1900,
        source: 'topaff',
        current_period_end: new Date(at(1).getTime() + 30 * DAY),
      },
    ]);
    const orders = await db.query('SELECT receipt, status FROM clickbank_orders ORDER BY id');
    expect(orders.rows).toEqual([
      { receipt: 'ABCD1234', status: 'SALE' },
      { receipt: 'ABCD1234-B1', status: 'BILL' },
    ]);
    const events = await db.query('SELECT type, amount_cents FROM subscription_events ORDER BY id');
    expect(events.rows).toEqual([
      { type: 'new', amount_cents: 1900 },
      { type: 'renewal', amount_cents: 1900 },
    ]);
    const isr = await db.query<{
      kind: string;
      affiliate: string | null;
      subid: string | null;
      campaign: string | null;
      raw: { vendorVariables: unknown };
    }>('SELECT kind, affiliate, subid, campaign, raw FROM isr_events ORDER BY id');
    expect(isr.rows[0]).toMatchObject({
      kind: 'sale',
      affiliate: 'topaff',
      subid: 'fb_ads_1',
      campaign: 'spring',
    });
    expect(isr.rows[0]?.raw.vendorVariables).toEqual({ campaign: 'spring', v1: 'x' });
    expect(isr.rows[1]).toMatchObject({ kind: 'rebill' });
    expect(await liveTypes()).toEqual([
      'subscription.new',
      'access.granted',
      'isr.event',
      'subscription.renewal',
      'isr.event',
    ]);
    const jobs = await db.query('SELECT action FROM forum_outbox');
    expect(jobs.rows).toEqual([{ action: 'grant' }]);
  });

  it('answers a redelivery (a retry with a higher attemptCount) 200 duplicate, changing nothing', async () => {
    await send(sale());
    const before = await counts();
    const res = await send({ ...sale(), attemptCount: 2 });
    expect(res.body).toMatchObject({ ok: true, duplicate: true });
    expect(await counts()).toEqual(before);
  });

  it('converges when a BILL arrives before its SALE', async () => {
    await send(bill(1, 1));
    await send(sale());
    const sub = await db.query<{ provider_id: string; start_date: Date; status: string }>(
      'SELECT provider_id, start_date, status FROM subscriptions',
    );
    expect(sub.rows).toEqual([{ provider_id: 'ABCD1234', start_date: at(3), status: 'active' }]);
    const events = await db.query(
      'SELECT type, occurred_at, amount_cents FROM subscription_events ORDER BY type',
    );
    expect(events.rows).toEqual([
      { type: 'new', occurred_at: at(3), amount_cents: 1900 },
      { type: 'renewal', occurred_at: at(1), amount_cents: 1900 },
    ]);
    expect(await countRows(db, 'clickbank_orders')).toBe(2);
    expect(await countRows(db, 'isr_events')).toBe(2);
  });

  it('converges when a CANCEL-REBILL arrives before its SALE', async () => {
    const periodEnd = new Date(NOW.getTime() + 5 * DAY);
    const cancel = clickbankNotification({
      type: 'CANCEL-REBILL',
      receipt: 'ABCD1234',
      email: EMAIL,
      at: at(1),
      amount: 0,
      nextPaymentAt: periodEnd,
    });
    expect((await send(cancel)).status).toBe(200);
    const late = await send(sale());
    expect(late.body.effects).toContain('stale');
    expect((await db.query('SELECT status, start_date, source FROM subscriptions')).rows).toEqual([
      { status: 'cancelled', start_date: at(3), source: 'topaff' },
    ]);
    expect(
      (await db.query('SELECT status, amount_cents, created_at_provider FROM clickbank_orders'))
        .rows,
    ).toEqual([{ status: 'CANCEL-REBILL', amount_cents: 1900, created_at_provider: at(3) }]);
    expect(
      (
        await db.query(
          'SELECT type, occurred_at, amount_cents FROM subscription_events ORDER BY type',
        )
      ).rows,
    ).toEqual([
      { type: 'cancellation', occurred_at: at(1), amount_cents: null },
      { type: 'new', occurred_at: at(3), amount_cents: 1900 },
    ]);
    expect(await member(EMAIL)).toEqual({ mg_status: 'active', expires_at: periodEnd });
    expect(await countRows(db, 'isr_events')).toBe(1);
  });

  it('schedules the revocation at the paid period end on CANCEL-REBILL, and an UNCANCEL clears it', async () => {
    await send(sale());
    const periodEnd = new Date(NOW.getTime() + 5 * DAY);
    const cancel = clickbankNotification({
      type: 'CANCEL-REBILL',
      receipt: 'ABCD1234',
      email: EMAIL,
      at: at(1),
      nextPaymentAt: periodEnd,
    });
    expect((await send(cancel)).status).toBe(200);
    expect(await member(EMAIL)).toEqual({ mg_status: 'active', expires_at: periodEnd });
    const sub = await db.query('SELECT status, ends_at FROM subscriptions');
    expect(sub.rows).toEqual([{ status: 'cancelled', ends_at: periodEnd }]);
    const order = await db.query('SELECT status, amount_cents FROM clickbank_orders');
    expect(order.rows).toEqual([{ status: 'CANCEL-REBILL', amount_cents: 1900 }]);
    expect(await liveTypes()).toContain('subscription.cancelled');

    const uncancel = clickbankNotification({
      type: 'UNCANCEL-REBILL',
      receipt: 'ABCD1234',
      email: EMAIL,
      at: at(0.5),
      nextPaymentAt: periodEnd,
    });
    expect((await send(uncancel)).status).toBe(200);
    expect(await member(EMAIL)).toEqual({ mg_status: 'active', expires_at: null });
    expect((await db.query('SELECT status, ends_at FROM subscriptions')).rows).toEqual([
      { status: 'active', ends_at: null },
    ]);
  });

  it('revokes now on a refund and records it as negative ISR revenue; an older BILL after it does not re-grant', async () => {
    await send(sale());
    const refund = clickbankNotification({
      type: 'RFND',
      receipt: 'ABCD1234',
      email: EMAIL,
      at: at(1),
    });
    expect((await send(refund)).status).toBe(200);
    expect((await member(EMAIL))?.mg_status).toBe('cancelled');
    const order = await db.query(
      'SELECT status, customer_refundable_state, amount_cents FROM clickbank_orders',
    );
    expect(order.rows).toEqual([
      { status: 'RFND', customer_refundable_state: 'REFUNDED', amount_cents: 1900 },
    ]);
    const isr = await db.query('SELECT kind, amount_cents FROM isr_events ORDER BY id');
    expect(isr.rows).toEqual([
      { kind: 'sale', amount_cents: 1900 },
      { kind: 'refund', amount_cents: -1900 },
    ]);
    const jobs = await db.query('SELECT action FROM forum_outbox ORDER BY id');
    expect(jobs.rows).toEqual([{ action: 'grant' }, { action: 'revoke' }]);

    // A BILL from before the refund, delivered late: money recorded, access untouched.
    const late = await send(bill(1, 2));
    expect(late.body.effects).toContain('stale');
    expect((await member(EMAIL))?.mg_status).toBe('cancelled');
    expect((await db.query('SELECT status FROM subscriptions')).rows).toEqual([
      { status: 'cancelled' },
    ]);
  });

  it('works with the generated key when CLICKBANK_SECRET_KEY is unset', async () => {
    const generated = createApp(
      testDeps(db, NOW, {
        clickbankSecretKey: null,
        clickbankGeneratedSecretKey: 'GENERATED0KEY123',
      }),
    );
    expect((await post(encryptedClickbankBody(sale(), 'GENERATED0KEY123'), generated)).status).toBe(
      200,
    );
    expect(
      (await post(encryptedClickbankBody(sale({ receipt: 'OTHER001' }), KEY), generated)).status,
    ).toBe(401);
  });
});
