import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { LEMONSQUEEZY_WEBHOOK_SECRET_FILE, loadConfig } from '../config';
import type { AppDeps } from '../context';
import type { Db, Tx } from '../db/types';
import { computeAdminStatus, computeDashboardStats } from '../stats';
import { countRows, freshDb, resetDb, testDeps } from '../testing/app';
import {
  lemonSqueezyInvoice,
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lemonSqueezySubscriptionFixture,
  lsTime,
  signedLemonSqueezyDelivery,
  type SignedDelivery,
} from './deliveries';
import { signLemonSqueezy, verifyLemonSqueezySignature } from './lemonsqueezy';
import { WEBHOOK_MAX_BODY_BYTES } from './common';
import { badRequest } from '../errors';

const SECRET = 'test-lemonsqueezy-signing-secret';
const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const at = (hoursBeforeNow: number) => new Date(NOW.getTime() - hoursBeforeNow * HOUR);

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
  deps = testDeps(db, NOW, { lemonSqueezyWebhookSecret: SECRET });
  app = createApp(deps);
});

async function post(
  d: SignedDelivery,
  target: Hono = app,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await target.request('/webhooks/lemonsqueezy', {
    method: 'POST',
    headers: d.headers,
    body: d.body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Row counts of every table a delivery may write. */
async function counts(): Promise<Record<string, number>> {
  const tables = [
    'customers',
    'subscriptions',
    'members',
    'subscription_events',
    'isr_events',
    'live_events',
    'forum_outbox',
    'webhook_dedup',
    'logs',
  ];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await countRows(db, t);
  return out;
}

const EMPTY = {
  customers: 0,
  subscriptions: 0,
  members: 0,
  subscription_events: 0,
  isr_events: 0,
  live_events: 0,
  forum_outbox: 0,
  webhook_dedup: 0,
  logs: 0,
};

function subscription(
  id: string,
  attrs: Record<string, unknown> & { createdHoursAgo?: number; updatedHoursAgo?: number },
) {
  const { createdHoursAgo = 2, updatedHoursAgo = 2, ...rest } = attrs;
  return lemonSqueezySubscription(id, {
    user_email: 'New.Buyer@Example.com',
    user_name: 'New Buyer',
    product_name: 'Pro Membership',
    variant_name: 'Monthly',
    status: 'active',
    renews_at: lsTime(new Date(NOW.getTime() + 30 * 24 * HOUR)),
    ends_at: null,
    created_at: lsTime(at(createdHoursAgo)),
    updated_at: lsTime(at(updatedHoursAgo)),
    ...rest,
  });
}

const created = (id = '9001', extra: Record<string, unknown> = {}) =>
  signedLemonSqueezyDelivery('subscription_created', subscription(id, extra), SECRET);

async function liveTypes(): Promise<string[]> {
  const r = await db.query<{ type: string }>('SELECT type FROM live_events ORDER BY id');
  return r.rows.map((row) => row.type);
}

async function member(email: string) {
  const r = await db.query<{ mg_status: string; expires_at: Date | null }>(
    `SELECT m.mg_status, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id
      WHERE c.email = $1`,
    [email],
  );
  return r.rows[0] ?? null;
}

describe('signature', () => {
  it('is the lowercase hex HMAC-SHA256 of the raw body, checked in constant time', () => {
    const body = Buffer.from('{"a":1}');
    const sig = signLemonSqueezy(body, SECRET);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyLemonSqueezySignature(body, sig, SECRET)).toBe(true);
    expect(verifyLemonSqueezySignature(body, sig.toUpperCase(), SECRET)).toBe(true);
    expect(verifyLemonSqueezySignature(Buffer.from('{"a":2}'), sig, SECRET)).toBe(false);
    expect(verifyLemonSqueezySignature(body, sig, 'other')).toBe(false);
    expect(verifyLemonSqueezySignature(body, undefined, SECRET)).toBe(false);
    expect(verifyLemonSqueezySignature(body, 'abc', SECRET)).toBe(false);
  });
});

describe('POST /webhooks/lemonsqueezy', () => {
  it('applies a signed subscription_created from the provider fixture in one go, without a session', async () => {
    const res = await post(created());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, duplicate: false, event: 'subscription_created' });

    const sub = await db.query<{
      provider: string;
      provider_id: string;
      status: string;
      cadence: string;
      plan: string;
      payload: { type: string; id: string; attributes: Record<string, unknown> };
      current_period_end: Date;
    }>('SELECT * FROM subscriptions');
    expect(sub.rows).toHaveLength(1);
    const row = sub.rows[0]!;
    expect(row).toMatchObject({
      provider: 'lemonsqueezy',
      provider_id: '9001',
      status: 'active',
      cadence: 'monthly',
      plan: 'Pro',
    });
    // The provider's object as sent, including fields the server does not read.
    const fixture = lemonSqueezySubscriptionFixture();
    expect(row.payload.type).toBe('subscriptions');
    expect(row.payload.attributes.card_last_four).toBe(fixture.attributes.card_last_four);
    expect(row.payload.attributes.urls).toEqual(fixture.attributes.urls);
    expect(row.current_period_end.toISOString()).toBe('2026-12-20T12:00:00.000Z');

    expect(await member('new.buyer@example.com')).toEqual({
      mg_status: 'active',
      expires_at: null,
    });
    const jobs = await db.query('SELECT email, action, reason, state FROM forum_outbox');
    expect(jobs.rows).toEqual([
      {
        email: 'new.buyer@example.com',
        action: 'grant',
        reason: 'webhook.lemonsqueezy.subscription_created',
        state: 'pending',
      },
    ]);
    expect(await liveTypes()).toEqual(['subscription.new', 'access.granted']);
    const live = await db.query<{ payload: Record<string, unknown> }>(
      "SELECT payload FROM live_events WHERE type = 'subscription.new'",
    );
    expect(live.rows[0]?.payload).toMatchObject({
      email: 'new.buyer@example.com',
      provider: 'lemonsqueezy',
    });
    const logs = await db.query<{ msg: string; context: Record<string, unknown> }>(
      'SELECT msg, context FROM logs',
    );
    expect(logs.rows).toHaveLength(1);
    expect(logs.rows[0]?.msg).toBe('webhook.lemonsqueezy.subscription_created');
    expect(await countRows(db, 'webhook_dedup')).toBe(1);
  });

  it('answers a redelivery 200 duplicate and changes nothing', async () => {
    const d = created();
    expect((await post(d)).status).toBe(200);
    const before = await counts();
    const again = await post(d);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ ok: true, duplicate: true });
    expect(await counts()).toEqual(before);
  });

  it('refuses a tampered body, a wrong secret and a missing signature with 401, writing nothing', async () => {
    const d = created();
    const tampered = { ...d, body: d.body.replace('New.Buyer@Example.com', 'evil@example.com') };
    const wrong = signedLemonSqueezyDelivery(
      'subscription_created',
      subscription('9001', {}),
      'not-the-secret',
    );
    const unsigned = { body: d.body, headers: { 'Content-Type': 'application/json' } };
    const garbage = { body: d.body, headers: { ...d.headers, 'X-Signature': 'zz' } };
    for (const bad of [tampered, wrong, unsigned, garbage]) {
      const res = await post(bad);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'unauthorized' });
    }
    expect(await counts()).toEqual(EMPTY);
  });

  it('acknowledges malformed but correctly signed deliveries 200 as invalid, writing nothing but their inbox row', async () => {
    const sign = (body: string): SignedDelivery => ({
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Signature': signLemonSqueezy(body, SECRET),
      },
    });
    const noEmail = subscription('1', {});
    delete noEmail.attributes.user_email;
    const cases: Array<[SignedDelivery, RegExp]> = [
      [sign('{not json'), /not valid JSON/],
      [sign('[]'), /JSON object/],
      [sign(JSON.stringify({ meta: {}, data: subscription('1', {}) })), /event_name/],
      [signedLemonSqueezyDelivery('subscription_created', noEmail, SECRET), /user_email/],
      [
        signedLemonSqueezyDelivery(
          'subscription_created',
          subscription('1', { status: 'weird' }),
          SECRET,
        ),
        /status/,
      ],
      [
        signedLemonSqueezyDelivery(
          'subscription_created',
          subscription('1', { updated_at: 'yesterday' }),
          SECRET,
        ),
        /updated_at/,
      ],
      [
        signedLemonSqueezyDelivery('subscription_payment_success', subscription('1', {}), SECRET),
        /subscription-invoices/,
      ],
    ];
    for (const [d, message] of cases) {
      const res = await post(d);
      // Authentic: acknowledged so the store stops retrying what a retry cannot fix.
      expect(res.status, d.body.slice(0, 80)).toBe(200);
      expect(res.body).toMatchObject({ ok: true, duplicate: false, effects: [] });
      expect(String(res.body.invalid)).toMatch(message);
    }
    expect(await counts()).toEqual(EMPTY);
    const inbox = await db.query<{
      outcome: string;
      http_status: number;
      error: string;
      body: string | null;
    }>('SELECT outcome, http_status, error, body FROM webhook_deliveries ORDER BY id');
    expect(inbox.rows).toHaveLength(cases.length);
    inbox.rows.forEach((row, i) => {
      const [d, message] = cases[i]!;
      expect(row).toMatchObject({ outcome: 'invalid', http_status: 200, body: d.body });
      expect(row.error).toMatch(message);
    });
    // The event and email as sent are kept, so the row can be found by them.
    const named = await db.query<{ event: string | null; email: string | null }>(
      'SELECT event, email FROM webhook_deliveries ORDER BY id',
    );
    expect(named.rows[4]).toEqual({
      event: 'subscription_created',
      email: 'new.buyer@example.com',
    });
  });

  it('an authentic delivery refused inside its transaction rolls back every write and is acknowledged as invalid', async () => {
    const refusing: Db = Object.create(db) as Db;
    refusing.transaction = <T>(fn: (tx: Tx) => Promise<T>) =>
      db.transaction((tx) => {
        const wrapped: Tx = Object.create(tx) as Tx;
        wrapped.query = ((sql: string, params?: unknown[]) => {
          if (sql.includes('INSERT INTO forum_outbox')) throw badRequest('simulated refusal');
          return tx.query(sql, params);
        }) as Tx['query'];
        return fn(wrapped);
      });
    const d = created();
    const res = await post(d, createApp({ ...deps, db: refusing }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, effects: [], invalid: 'simulated refusal' });
    // The customer, subscription, dedup row and log row written before the refusal rolled back.
    expect(await counts()).toEqual(EMPTY);
    const inbox = await db.query('SELECT outcome, http_status, error FROM webhook_deliveries');
    expect(inbox.rows).toEqual([
      { outcome: 'invalid', http_status: 200, error: 'simulated refusal' },
    ]);
    // Nothing was claimed: the same delivery applies once the server accepts it.
    expect((await post(d)).body).toMatchObject({ ok: true, duplicate: false });
    expect(await countRows(db, 'forum_outbox')).toBe(1);
  });

  it('prunes dedup rows older than the retention as deliveries arrive', async () => {
    await db.query(
      "INSERT INTO webhook_dedup (id, provider, received_at) VALUES ('old', 'lemonsqueezy', $1), ('recent', 'clickbank', $2)",
      [new Date(NOW.getTime() - 31 * 24 * HOUR), new Date(NOW.getTime() - 29 * 24 * HOUR)],
    );
    await post(created());
    const ids = await db.query<{ id: string }>('SELECT id FROM webhook_dedup ORDER BY id');
    expect(ids.rows.map((r) => r.id)).toEqual([
      'lemonsqueezy:subscription_created:subscriptions:9001:2026-11-20T10:00:00.000Z',
      'recent',
    ]);
  });

  it('applies concurrent redeliveries of one event exactly once, counted in /status webhook_dedup_rows', async () => {
    const d = created();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(d)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(await countRows(db, 'subscriptions')).toBe(1);
    expect(await countRows(db, 'forum_outbox')).toBe(1);
    const status = await computeAdminStatus(db, deps.config, NOW, deps.log);
    expect(status.webhook_dedup_rows).toBe(1);
  });

  it('keeps forum access while another subscription of the customer still grants it', async () => {
    await db.query(
      "INSERT INTO customers (email, name) VALUES ('new.buyer@example.com', 'New Buyer')",
    );
    await db.query(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, start_date)
       SELECT id, 'clickbank', 'CBACTIVE', 'active', 'monthly', 'Pro', $1 FROM customers`,
      [at(100)],
    );
    await post(created('55', { updatedHoursAgo: 3 }));
    await post(
      signedLemonSqueezyDelivery(
        'subscription_expired',
        subscription('55', { status: 'expired', updatedHoursAgo: 1 }),
        SECRET,
      ),
    );
    expect(await member('new.buyer@example.com')).toEqual({
      mg_status: 'active',
      expires_at: null,
    });
    const jobs = await db.query('SELECT action FROM forum_outbox');
    expect(jobs.rows).toEqual([{ action: 'grant' }]);
  });

  it('answers a body over the limit 413', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(WEBHOOK_MAX_BODY_BYTES) });
    const res = await post({
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Signature': signLemonSqueezy(body, SECRET),
      },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'payload_too_large' });
    expect(await counts()).toEqual(EMPTY);
    // Never read, so never verified: kept by size only, as a refusal.
    const inbox = await db.query('SELECT outcome, http_status, body FROM webhook_deliveries');
    expect(inbox.rows).toEqual([{ outcome: 'refused_signature', http_status: 413, body: null }]);
  });

  it('writes nothing at all when the transaction fails mid-way, and the redelivery then applies', async () => {
    const failing: Db = Object.create(db) as Db;
    failing.transaction = <T>(fn: (tx: Tx) => Promise<T>) =>
      db.transaction((tx) => {
        const wrapped: Tx = Object.create(tx) as Tx;
        wrapped.query = ((sql: string, params?: unknown[]) => {
          if (sql.includes('INSERT INTO forum_outbox')) throw new Error('simulated failure');
          return tx.query(sql, params);
        }) as Tx['query'];
        return fn(wrapped);
      });
    const broken = createApp({ ...deps, db: failing });
    const d = created();
    const res = await post(d, broken);
    expect(res.status).toBe(500);
    await new Promise((r) => setTimeout(r, 50)); // the 500's own error log row is written after the answer
    const after = await counts();
    expect({ ...after, logs: 0 }).toEqual(EMPTY);
    const webhookLogs = await db.query("SELECT 1 FROM logs WHERE msg LIKE 'webhook.%'");
    expect(webhookLogs.rows).toHaveLength(0);

    const retry = await post(d);
    expect(retry.body).toMatchObject({ ok: true, duplicate: false });
    expect(await countRows(db, 'forum_outbox')).toBe(1);
  });

  it('converges when the cancel arrives before its create', async () => {
    const endsAt = new Date(NOW.getTime() + 10 * 24 * HOUR);
    const cancelled = signedLemonSqueezyDelivery(
      'subscription_cancelled',
      subscription('77', {
        status: 'cancelled',
        cancelled: true,
        ends_at: lsTime(endsAt),
        createdHoursAgo: 5,
        updatedHoursAgo: 1,
      }),
      SECRET,
    );
    const createdFirst = created('77', { createdHoursAgo: 5, updatedHoursAgo: 5 });
    expect((await post(cancelled)).status).toBe(200);
    const late = await post(createdFirst);
    expect(late.status).toBe(200);
    expect(late.body.effects).toContain('stale');

    const sub = await db.query<{ status: string; ends_at: Date }>(
      'SELECT status, ends_at FROM subscriptions',
    );
    expect(sub.rows).toEqual([{ status: 'cancelled', ends_at: endsAt }]);
    expect(await member('new.buyer@example.com')).toEqual({
      mg_status: 'active',
      expires_at: endsAt,
    });
    const events = await db.query<{ type: string; occurred_at: Date }>(
      'SELECT type, occurred_at FROM subscription_events ORDER BY type',
    );
    expect(events.rows.map((e) => e.type)).toEqual(['cancellation', 'new']);
    expect(events.rows[1]?.occurred_at).toEqual(at(5));
    // Access until ends_at: granted on the forum now, revoked by the scheduler at ends_at.
    const jobs = await db.query('SELECT action FROM forum_outbox');
    expect(jobs.rows).toEqual([{ action: 'grant' }]);
    expect(await liveTypes()).toEqual([
      'subscription.new',
      'subscription.cancelled',
      'access.granted',
    ]);
  });

  it('ignores an old subscription_updated that arrives after a newer one', async () => {
    await post(created('5', { updatedHoursAgo: 3 }));
    const expired = signedLemonSqueezyDelivery(
      'subscription_expired',
      subscription('5', { status: 'expired', ends_at: lsTime(at(1)), updatedHoursAgo: 1 }),
      SECRET,
    );
    const oldUpdate = signedLemonSqueezyDelivery(
      'subscription_updated',
      subscription('5', { status: 'active', updatedHoursAgo: 2 }),
      SECRET,
    );
    expect((await post(expired)).status).toBe(200);
    const res = await post(oldUpdate);
    expect(res.status).toBe(200);
    expect(res.body.effects).toContain('stale');
    const sub = await db.query('SELECT status FROM subscriptions');
    expect(sub.rows).toEqual([{ status: 'expired' }]);
    expect((await member('new.buyer@example.com'))?.mg_status).toBe('cancelled');
    const jobs = await db.query('SELECT action FROM forum_outbox ORDER BY id');
    expect(jobs.rows).toEqual([{ action: 'grant' }, { action: 'revoke' }]);
    expect(await liveTypes()).toContain('access.revoked');
  });

  it('revokes now for paused and unpaid, and grants again on unpause', async () => {
    await post(created('6', { updatedHoursAgo: 4 }));
    await post(
      signedLemonSqueezyDelivery(
        'subscription_paused',
        subscription('6', { status: 'paused', updatedHoursAgo: 3 }),
        SECRET,
      ),
    );
    expect(await member('new.buyer@example.com')).toEqual({
      mg_status: 'cancelled',
      expires_at: NOW,
    });
    await post(
      signedLemonSqueezyDelivery(
        'subscription_unpaused',
        subscription('6', { status: 'active', updatedHoursAgo: 2 }),
        SECRET,
      ),
    );
    expect(await member('new.buyer@example.com')).toEqual({
      mg_status: 'active',
      expires_at: null,
    });
    const jobs = await db.query('SELECT action FROM forum_outbox ORDER BY id');
    expect(jobs.rows.map((j) => (j as { action: string }).action)).toEqual([
      'grant',
      'revoke',
      'grant',
    ]);
  });

  it('records payments: initial amount, renewal with ISR attribution, counted once across success and recovered', async () => {
    await post(created('42'));
    const initial = signedLemonSqueezyDelivery(
      'subscription_payment_success',
      lemonSqueezyInvoice('500', {
        subscription_id: 42,
        user_email: 'new.buyer@example.com',
        billing_reason: 'initial',
        total: 1900,
        at: at(2),
      }),
      SECRET,
    );
    expect((await post(initial)).status).toBe(200);
    const amount = await db.query('SELECT amount_cents, currency FROM subscriptions');
    expect(amount.rows).toEqual([{ amount_cents: 1900, currency: 'USD' }]);
    const newEvent = await db.query(
      "SELECT amount_cents FROM subscription_events WHERE type = 'new'",
    );
    expect(newEvent.rows).toEqual([{ amount_cents: 1900 }]);

    const custom = {
      campaign: 'black-friday',
      affiliate: 'aff77',
      referrer: 'https://blog.example',
    };
    const renewal = lemonSqueezyInvoice('501', {
      subscription_id: 42,
      user_email: 'new.buyer@example.com',
      billing_reason: 'renewal',
      total: 1900,
      at: at(1),
    });
    const success = signedLemonSqueezyDelivery(
      'subscription_payment_success',
      renewal,
      SECRET,
      custom,
    );
    const recovered = signedLemonSqueezyDelivery(
      'subscription_payment_recovered',
      renewal,
      SECRET,
      custom,
    );
    expect((await post(success)).body).toMatchObject({ duplicate: false });
    expect((await post(recovered)).body.effects).toEqual(['invoice.already_counted']);

    const renewals = await db.query(
      "SELECT amount_cents FROM subscription_events WHERE type = 'renewal'",
    );
    expect(renewals.rows).toEqual([{ amount_cents: 1900 }]);
    const isr = await db.query(
      'SELECT source, kind, amount_cents, campaign, affiliate, referrer, customer_email FROM isr_events',
    );
    expect(isr.rows).toEqual([
      {
        source: 'lemonsqueezy',
        kind: 'rebill',
        amount_cents: 1900,
        campaign: 'black-friday',
        affiliate: 'aff77',
        referrer: 'https://blog.example',
        customer_email: 'new.buyer@example.com',
      },
    ]);
    expect(await liveTypes()).toEqual([
      'subscription.new',
      'access.granted',
      'subscription.renewal',
      'isr.event',
    ]);
  });

  it('makes a placeholder when the payment comes before the subscription, which the object then fills in', async () => {
    const pay = signedLemonSqueezyDelivery(
      'subscription_payment_success',
      lemonSqueezyInvoice('600', {
        subscription_id: 88,
        user_email: 'early@example.com',
        billing_reason: 'initial',
        total: 2900,
        at: at(2),
      }),
      SECRET,
    );
    expect((await post(pay)).body.effects).toContain('subscription.placeholder');
    await post(
      created('88', { user_email: 'early@example.com', product_name: 'Premium Membership' }),
    );
    const sub = await db.query('SELECT plan, status, amount_cents FROM subscriptions');
    expect(sub.rows).toEqual([{ plan: 'Premium', status: 'active', amount_cents: 2900 }]);
    const events = await db.query(
      "SELECT amount_cents FROM subscription_events WHERE type = 'new'",
    );
    expect(events.rows).toEqual([{ amount_cents: 2900 }]);
    expect(await liveTypes()).toEqual(['access.granted', 'subscription.new']);
  });

  it('records order_created as an ISR sale and order_refunded as a refund on its subscription', async () => {
    await post(created('12', { order_id: 3456 }));
    const order = lemonSqueezyOrder('3456', {
      user_email: 'new.buyer@example.com',
      total: 1900,
      at: at(2),
    });
    const sale = await post(
      signedLemonSqueezyDelivery('order_created', order, SECRET, { campaign: 'launch' }),
    );
    expect(sale.status).toBe(200);
    const refundedOrder = lemonSqueezyOrder('3456', {
      user_email: 'new.buyer@example.com',
      total: 1900,
      at: at(1),
      refunded: true,
    });
    expect(
      (await post(signedLemonSqueezyDelivery('order_refunded', refundedOrder, SECRET))).status,
    ).toBe(200);
    const isr = await db.query(
      'SELECT kind, amount_cents, order_id, campaign FROM isr_events ORDER BY id',
    );
    expect(isr.rows).toEqual([
      { kind: 'sale', amount_cents: 1900, order_id: '3456', campaign: 'launch' },
      { kind: 'refund', amount_cents: -1900, order_id: '3456', campaign: null },
    ]);
    const refunds = await db.query(
      "SELECT amount_cents FROM subscription_events WHERE type = 'refund'",
    );
    expect(refunds.rows).toEqual([{ amount_cents: 1900 }]);
  });

  it('moves the dashboard figures and the ISR summary', async () => {
    const before = await computeDashboardStats(db, deps.config, NOW, deps.log);
    await post(created('31', { createdHoursAgo: 1, updatedHoursAgo: 1 }));
    await post(
      signedLemonSqueezyDelivery(
        'subscription_payment_success',
        lemonSqueezyInvoice('700', {
          subscription_id: 31,
          user_email: 'new.buyer@example.com',
          billing_reason: 'initial',
          total: 1900,
          at: at(1),
        }),
        SECRET,
      ),
    );
    await post(
      signedLemonSqueezyDelivery(
        'order_created',
        lemonSqueezyOrder('800', { user_email: 'new.buyer@example.com', total: 1900, at: at(1) }),
        SECRET,
      ),
    );
    const after = await computeDashboardStats(db, deps.config, NOW, deps.log);
    expect(after.newToday).toBe(before.newToday + 1);
    expect(after.activeSubscribers).toBe(before.activeSubscribers + 1);
    expect(after.mrr_cents).toBe(before.mrr_cents + 1900);
    const isr = await db.query<{ events: number; amount_cents: string }>(
      "SELECT sum(events)::int AS events, sum(amount_cents)::text AS amount_cents FROM isr_daily WHERE source = 'lemonsqueezy'",
    );
    expect(isr.rows[0]).toEqual({ events: 1, amount_cents: '1900' });
  });
});

describe('signing secret', () => {
  it('is generated once into DATA_DIR (mode 0600) when LEMONSQUEEZY_WEBHOOK_SECRET is unset, and the variable wins', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mg-webhook-secret-'));
    const env = { DATA_DIR: dir, ADMIN_PASSWORD_HASH: undefined, JWT_SECRET: 'x'.repeat(40) };
    const first = await loadConfig(env);
    const second = await loadConfig(env);
    expect(first.lemonSqueezyWebhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.lemonSqueezyWebhookSecret).toBe(first.lemonSqueezyWebhookSecret);
    const file = path.join(dir, LEMONSQUEEZY_WEBHOOK_SECRET_FILE);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.lemonSqueezyWebhookSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.clickbankGeneratedSecretKey).toMatch(/^[A-Z0-9]{16}$/);
    const given = await loadConfig({
      ...env,
      LEMONSQUEEZY_WEBHOOK_SECRET: 'from-the-environment-123',
    });
    expect(given.lemonSqueezyWebhookSecret).toBe('from-the-environment-123');
    const memory = await loadConfig({ DATA_DIR: 'memory' });
    expect(memory.lemonSqueezyWebhookSecret).toMatch(/^[0-9a-f]{64}$/);
  });
});
