/**
 * Provider text is untrusted data: an authentic delivery (correctly signed, or decrypting with the
 * configured key) whose text fields hold a NUL — which PostgreSQL cannot store in text or jsonb —
 * is stored with the NUL removed, answered 200 and recorded in the logs; never a 5xx, which the
 * provider would redeliver forever. Other control characters are stored as they came.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Db } from '../db/types';
import { freshDb, resetDb, testDeps } from '../testing/app';
import { signLemonSqueezy } from './lemonsqueezy';
import {
  clickbankNotification,
  encryptedClickbankBody,
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from './deliveries';

const SECRET = 'test-lemonsqueezy-signing-secret';
const KEY = 'SECRETKEY1234567';
const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;

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
  app = createApp(
    testDeps(db, NOW, { lemonSqueezyWebhookSecret: SECRET, clickbankSecretKey: KEY }),
  );
});

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await app.request(path, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function logMessages(): Promise<string[]> {
  const r = await db.query<{ msg: string }>('SELECT msg FROM logs ORDER BY id');
  return r.rows.map((row) => row.msg);
}

describe('LemonSqueezy', () => {
  it('a signed subscription_created with NULs in its text is stored without them and answered 200', async () => {
    const data = lemonSqueezySubscription('9001', {
      user_email: 'nul.buyer@example.com',
      user_name: 'Nul\u0000 Buyer',
      product_name: 'Pro\u0000 Membership',
      variant_name: 'Month\u0000ly',
      status: 'active',
      renews_at: lsTime(new Date(NOW.getTime() + 30 * 24 * HOUR)),
      ends_at: null,
      created_at: lsTime(new Date(NOW.getTime() - 2 * HOUR)),
      updated_at: lsTime(new Date(NOW.getTime() - 2 * HOUR)),
      card_brand: 'vi\u0000sa\u0007',
    });
    const d = signedLemonSqueezyDelivery('subscription_created', data, SECRET, {
      utm_source: 'news\u0000letter',
      'aff\u0000': 'x',
      campaign: '\u0000',
    });
    expect(d.body).toContain('\\u0000');
    const res = await post('/webhooks/lemonsqueezy', d.body, d.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);

    const customer = await db.query<{ name: string }>(
      "SELECT name FROM customers WHERE email = 'nul.buyer@example.com'",
    );
    expect(customer.rows[0]?.name).toBe('Nul Buyer');
    const sub = await db.query<{ plan: string; cadence: string; source: string; card: string }>(
      "SELECT plan, cadence, source, payload -> 'attributes' ->> 'card_brand' AS card FROM subscriptions WHERE provider_id = '9001'",
    );
    expect(sub.rows[0]).toEqual({
      plan: 'Pro',
      cadence: 'monthly',
      source: 'newsletter',
      card: 'visa\u0007',
    });
    expect(await logMessages()).toEqual(['webhook.lemonsqueezy.subscription_created']);

    // The same delivery again is the same event: a duplicate, not a second row.
    const again = await post('/webhooks/lemonsqueezy', d.body, d.headers);
    expect(again.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
  });

  it('a signed order_created with a NUL in user_name, identifier and custom data is an ISR sale', async () => {
    const order = lemonSqueezyOrder('7001', {
      user_email: 'order.buyer@example.com',
      total: 1900,
      at: new Date(NOW.getTime() - HOUR),
    });
    order.attributes.user_name = '\u0000Ada\u0000';
    order.attributes.order_number = null;
    order.attributes.identifier = 'ord\u0000-1';
    const d = signedLemonSqueezyDelivery('order_created', order, SECRET, {
      affiliate: 'top\u0000aff',
      subid: 's\u00001',
    });
    const res = await post('/webhooks/lemonsqueezy', d.body, d.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const isr = await db.query<{ receipt: string; affiliate: string; subid: string }>(
      'SELECT receipt, affiliate, subid FROM isr_events',
    );
    expect(isr.rows).toEqual([{ receipt: 'ord-1', affiliate: 'topaff', subid: 's1' }]);
    const customer = await db.query<{ name: string }>('SELECT name FROM customers');
    expect(customer.rows[0]?.name).toBe('Ada');
    expect(await logMessages()).toEqual(['webhook.lemonsqueezy.order_created']);
  });

  it('a NUL inside user_email is removed before the address is checked', async () => {
    const order = lemonSqueezyOrder('7002', {
      user_email: 'sp\u0000lit@example.com',
      total: 1900,
      at: new Date(NOW.getTime() - HOUR),
    });
    const d = signedLemonSqueezyDelivery('order_created', order, SECRET);
    const res = await post('/webhooks/lemonsqueezy', d.body, d.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = await db.query<{ email: string }>('SELECT email FROM customers');
    expect(r.rows).toEqual([{ email: 'split@example.com' }]);
  });

  it('an unpaired surrogate is stored as U+FFFD; a signed body nested past any payload is acknowledged as invalid, not a 5xx', async () => {
    const order = lemonSqueezyOrder('7003', {
      user_email: 'surrogate@example.com',
      total: 1900,
      at: new Date(NOW.getTime() - HOUR),
    });
    order.attributes.user_name = 'Half \ud800 Pair';
    const d = signedLemonSqueezyDelivery('order_created', order, SECRET, { campaign: '\udc00x' });
    const res = await post('/webhooks/lemonsqueezy', d.body, d.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = await db.query<{ name: string }>('SELECT name FROM customers');
    expect(r.rows).toEqual([{ name: 'Half \ufffd Pair' }]);

    // 40,000 levels of {"a": …}: JSON.parse reads it, but serialising it again overflows the stack.
    const deep = `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`;
    const nested = signedLemonSqueezyDelivery('order_created', order, SECRET);
    const body = nested.body.replace('"meta":{', `"meta":{"custom_data":{"x":${deep}},`);
    const signed = { ...nested.headers, 'X-Signature': signLemonSqueezy(body, SECRET) };
    const refused = await post('/webhooks/lemonsqueezy', body, signed);
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(String(refused.body.invalid)).toContain('nests deeper');
    const inbox = await db.query<{ outcome: string; error: string }>(
      'SELECT outcome, error FROM webhook_deliveries ORDER BY id DESC LIMIT 1',
    );
    expect(inbox.rows[0]?.outcome).toBe('invalid');
    expect(inbox.rows[0]?.error).toContain('nests deeper');
  });
});

describe('ClickBank', () => {
  it('a decryptable SALE with NULs in its names, receipt and vendor variables is stored without them', async () => {
    const n = clickbankNotification({
      type: 'SALE',
      receipt: 'NUL\u00001234',
      email: 'jane.nul@example.com',
      at: new Date(NOW.getTime() - 3 * 24 * HOUR),
      affiliate: 'top\u0000aff',
      trackingCode: 'fb\u0000',
      title: 'Pro Membership\u0000 (Monthly)',
      vendorVariables: { campaign: 'spr\u0000ing', 'v\u00001': 'x' },
    });
    const customer = n.customer as { billing: Record<string, unknown> };
    customer.billing.firstName = 'JA\u0000NE';
    customer.billing.fullName = 'Jane\u0000 Buyer';
    const res = await post('/webhooks/clickbank', encryptedClickbankBody(n, KEY), {
      'Content-Type': 'application/json',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);
    const order = await db.query<{
      receipt: string;
      first_name: string;
      affiliate: string;
      title: string;
    }>('SELECT receipt, first_name, affiliate, title FROM clickbank_orders');
    expect(order.rows).toEqual([
      {
        receipt: 'NUL1234',
        first_name: 'JANE',
        affiliate: 'topaff',
        title: 'Pro Membership (Monthly)',
      },
    ]);
    const customerRow = await db.query<{ name: string }>('SELECT name FROM customers');
    expect(customerRow.rows[0]?.name).toBe('Jane Buyer');
    expect(await logMessages()).toEqual(['webhook.clickbank.SALE']);
  });
});
