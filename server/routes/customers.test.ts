/**
 * GET /customers/:email, its timeline, the forum-job retry and GET /search, through the whole app
 * (authentication, roles, the real webhook route) on the shared scenario (server/testing/scenario.ts)
 * plus one row of every timeline source for ada@example.com.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { AppDeps } from '../context';
import type { Db } from '../db/types';
import { freshDb, resetDb, testDeps } from '../testing/app';
import { testSessionToken } from '../testing/deps';
import {
  insertCustomer,
  insertEvent,
  insertOrder,
  insertSubscription,
  lemonSqueezyObject,
} from '../testing/fixtures';
import { NOW, seedScenario } from '../testing/scenario';
import type { Role } from '../auth/roles';
import { ForumWorker } from '../outbox/worker';
import {
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../webhooks/deliveries';

const SECRET = 'test-lemonsqueezy-signing-secret';
const PREFIX = '/api/admin';
const ADA = 'ada@example.com';
const ADA_PATH = `/customers/${encodeURIComponent(ADA)}`;
const at = (minutesBeforeNow: number) => new Date(NOW.getTime() - minutesBeforeNow * 60_000);

let db: Db;
let deps: AppDeps;
let app: Hono;
const tokens = new Map<Role, string>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; body: any };

async function api(path: string, role: Role = 'viewer', method = 'GET'): Promise<Answer> {
  const res = await app.request(`${PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens.get(role)}` },
  });
  return { status: res.status, body: await res.json() };
}

/** Inserts one row of every timeline source for ada (instants in minutes before NOW). */
async function seedAdaHistory(): Promise<void> {
  // Subscription 1 is ada's LemonSqueezy ls-1 (scenario).
  await insertEvent(db, {
    subscriptionId: 1,
    type: 'new',
    occurredAt: at(100).toISOString(),
    amountCents: 1000,
    currency: 'USD',
  });
  await insertEvent(db, {
    subscriptionId: 1,
    type: 'renewal',
    occurredAt: at(90).toISOString(),
    amountCents: 1000,
    currency: 'USD',
  });
  await insertEvent(db, {
    subscriptionId: 1,
    type: 'refund',
    occurredAt: at(80).toISOString(),
    amountCents: 400,
    currency: 'USD',
  });
  await db.query(
    `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, email,
                                     subscription_id, effects, body_size)
     VALUES ($1, 'lemonsqueezy', 'subscription_resumed', 'applied', 200, $2, 'ls-1',
             '["subscription.updated", "access.grant"]', 10)`,
    [at(70), ADA],
  );
  await db.query(
    `INSERT INTO audit_log (at, operator_id, operator_email, action, target, outcome, detail)
     VALUES ($1, 2, 'sup@team.example', 'access.revoke_now', $2, 'ok',
             '{"before":{"mg_status":"active","expires_at":null},"after":{"mg_status":"cancelled","expires_at":null}}')`,
    [at(60), ADA],
  );
  await db.query(
    `INSERT INTO forum_outbox (email, action, reason, state, attempts, created_at, next_attempt_at,
                               last_status, last_error, finished_at, last_attempt_at)
     VALUES ($1, 'revoke', 'access.revoke_now', 'failed', 12, $2, $2, 500,
             'Discourse answered HTTP 500', $3, $3)`,
    [ADA, at(50), at(40)],
  );
  await db.query(
    `INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, affiliate,
                             subid, customer_email, created_at)
     VALUES ('lemonsqueezy', 'sale', '3000001', 'LS3000001', 1000, 'USD', 'superaff', 'fb01', $1, $2)`,
    [ADA, at(30)],
  );
  await db.query(
    `INSERT INTO logs (ts, level, msg, context)
     VALUES ($1, 'warn', 'discourse.error', jsonb_build_object('email', $2::text, 'job_id', 1))`,
    [at(20), ADA],
  );
  await insertOrder(db, {
    subscriptionId: 2,
    email: 'bob@example.com',
    receipt: 'CBREC1',
    status: 'SALE',
    title: 'Pro Membership (Yearly)',
    amountCents: 4900,
    currency: 'USD',
    affiliate: 'superaff',
    createdAtProvider: '2025-06-01T00:00:00Z',
  });
}

beforeAll(async () => {
  db = await freshDb();
  await resetDb(db);
  await seedScenario(db);
  await seedAdaHistory();
  deps = testDeps(db, NOW, {
    lemonSqueezyWebhookSecret: SECRET,
    fxRates: { USD: 1, EUR: 1.1 },
  });
  app = createApp(deps);
  for (const role of ['viewer', 'support', 'admin', 'owner'] as const) {
    tokens.set(role, await testSessionToken(db, deps.config, NOW, `${role}@team.example`, role));
  }
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('GET /customers/:email', () => {
  it('answers the customer, whole', async () => {
    const res = await api(ADA_PATH);
    expect(res.status).toBe(200);
    expect(res.body.customer).toEqual({
      email: ADA,
      name: 'Ada Lovelace',
      providers: ['lemonsqueezy'],
      mg_status: 'active',
      mg_status_label: null,
      provider_status: 'active',
      cadence: 'monthly',
      expires_at: null,
      current_period_end: '2026-12-05T10:00:00.000Z',
      created_at: expect.any(String),
      lifetime_revenue_cents: 1600,
      currency: 'USD',
    });
    expect(res.body.subscriptions).toHaveLength(1);
    expect(res.body.subscriptions[0]).toMatchObject({
      row_id: 1,
      email: ADA,
      provider: 'lemonsqueezy',
      provider_id: 'ls-1',
      amount: 1000,
    });
    expect(res.body.payments.map((p: { kind: string }) => p.kind)).toEqual([
      'refund',
      'renewal',
      'payment',
    ]);
    expect(res.body.payments[0]).toEqual({
      at: at(80).toISOString(),
      kind: 'refund',
      provider: 'lemonsqueezy',
      amount_cents: 400,
      currency: 'USD',
      reference: null,
      subscription_id: 'ls-1',
    });
    expect(res.body.orders).toEqual([]);
    expect(res.body.forum.state).toBe('unknown');
    expect(res.body.forum.jobs).toEqual([
      {
        id: 1,
        op: 'revoke',
        status: 'failed',
        attempts: 12,
        last_error: 'Discourse answered HTTP 500',
        created_at: at(50).toISOString(),
        updated_at: at(40).toISOString(),
        next_attempt_at: null,
      },
    ]);
  });

  it('matches the email case-insensitively and lists ClickBank orders with their receipts', async () => {
    const res = await api(`/customers/${encodeURIComponent('Bob@Example.COM')}`);
    expect(res.status).toBe(200);
    expect(res.body.customer.email).toBe('bob@example.com');
    expect(res.body.customer.providers).toEqual(['clickbank']);
    expect(res.body.orders).toEqual([
      {
        receipt: 'CBREC1',
        transaction_type: 'SALE',
        product: 'Pro Membership (Yearly)',
        amount_cents: 4900,
        currency: 'USD',
        affiliate: 'superaff',
        at: '2025-06-01T00:00:00.000Z',
      },
    ]);
    expect(res.body.forum).toEqual({ state: 'member', username: null, jobs: [], invites: [] });
  });

  it('converts foreign money into the reporting currency for the lifetime total', async () => {
    // dave pays in EUR (scenario: ls-4); 1.1 USD per EUR in this test's FX_RATES.
    await insertEvent(db, {
      subscriptionId: 4,
      type: 'new',
      occurredAt: '2024-03-01T00:00:00Z',
      amountCents: 9900,
      currency: 'EUR',
    });
    const res = await api(`/customers/${encodeURIComponent('dave_x@example.com')}`);
    expect(res.body.customer.lifetime_revenue_cents).toBe(10890);
    expect(res.body.payments[0]).toMatchObject({ amount_cents: 9900, currency: 'EUR' });
  });

  it('answers 404 NOT_FOUND for an unknown email and 400 for a text that is no email', async () => {
    const missing = await api('/customers/nobody%40example.com');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, code: 'NOT_FOUND', error: 'not_found' });
    expect(typeof missing.body.message).toBe('string');
    for (const bad of [
      'not-an-email',
      'a%00b%40example.com',
      '__proto__',
      `${'x'.repeat(300)}%40e.com`,
    ]) {
      const res = await api(`/customers/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    expect((await api('/customers/nobody%40example.com/timeline')).status).toBe(404);
  });
});

interface Item {
  id: string;
  at: string;
  kind: string;
  title: string;
  detail: Record<string, unknown>;
  actor: string;
}

/** Every entry of the timeline of `path`, page by page of `limit`. */
async function allPages(path: string, limit: number, query = ''): Promise<Item[]> {
  const items: Item[] = [];
  let before = '';
  for (let page = 0; page < 1000; page++) {
    const res = await api(`${path}/timeline?limit=${limit}&before=${before}${query}`);
    expect(res.status).toBe(200);
    items.push(...(res.body.items as Item[]));
    if (res.body.next_before === null) return items;
    before = encodeURIComponent(res.body.next_before);
  }
  throw new Error('the timeline did not end');
}

describe('GET /customers/:email/timeline', () => {
  it('merges every kind, newest first, with titles and actors (never none)', async () => {
    const res = await api(`${ADA_PATH}/timeline`);
    expect(res.status).toBe(200);
    const items = res.body.items as Item[];
    expect(res.body.next_before).toBeNull();
    const times = items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(items.map((i) => i.kind))).toEqual(
      new Set(['webhook', 'subscription', 'payment', 'refund', 'access', 'forum', 'isr', 'log']),
    );
    expect(items.map((i) => [i.kind, i.at, i.actor])).toEqual([
      ['log', at(20).toISOString(), 'system'],
      ['isr', at(30).toISOString(), 'system'],
      ['forum', at(50).toISOString(), 'system'],
      ['access', at(60).toISOString(), 'sup@team.example'],
      ['access', at(70).toISOString(), 'webhook'],
      ['webhook', at(70).toISOString(), 'webhook'],
      ['refund', at(80).toISOString(), 'system'],
      ['payment', at(90).toISOString(), 'system'],
      ['subscription', at(100).toISOString(), 'system'],
      ['payment', at(100).toISOString(), 'system'],
    ]);
    const byKind = (kind: string) => items.filter((i) => i.kind === kind).map((i) => i.title);
    expect(byKind('access')).toEqual([
      'Access revoked',
      'Access granted by LemonSqueezy subscription_resumed',
    ]);
    expect(byKind('refund')).toEqual(['Refund 4.00 USD · LemonSqueezy ls-1']);
    expect(byKind('payment')).toEqual([
      'Renewal 10.00 USD · LemonSqueezy ls-1',
      'Payment 10.00 USD · LemonSqueezy ls-1',
    ]);
    expect(byKind('forum')[0]).toMatch(/^Forum revoke: failed after 12 attempts/);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const i of items) expect(i.title).not.toMatch(/\n/);
  });

  it('filters by kind and refuses unknown kinds, bad cursors and limits with 400', async () => {
    const res = await api(`${ADA_PATH}/timeline?kind=payment,refund`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: Item) => i.kind)).toEqual(['refund', 'payment', 'payment']);
    const blank = await api(`${ADA_PATH}/timeline?kind=&before=`);
    expect(blank.body.items).toHaveLength(10);
    for (const q of [
      'kind=payment,nope',
      'kind=constructor',
      'kind=__proto__',
      'before=not-a-cursor',
      `before=${Buffer.from('["2026-11-20T12:00:00.000000","nope",1]').toString('base64url')}`,
      `before=${Buffer.from('["9999-01-01T00:00:00.000000","log",1]').toString('base64url')}`,
      'before=%00',
      'limit=0',
      'limit=201',
      'limit=abc',
    ]) {
      const bad = await api(`${ADA_PATH}/timeline?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error).toBe('bad_request');
    }
  });

  it('pages by keyset without gaps or repeats, also through entries of the same instant', async () => {
    // Ties: three sources and two rows of one source at one instant.
    const tie = at(10);
    for (let n = 0; n < 2; n++) {
      await db.query(
        `INSERT INTO logs (ts, level, msg, context) VALUES ($1, 'info', 'tie', jsonb_build_object('email', $2::text, 'n', $3::int))`,
        [tie, ADA, n],
      );
    }
    await db.query(
      `INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, customer_email, created_at)
       VALUES ('lemonsqueezy', 'rebill', '3000001-R2', 'LS3000001-R2', 1000, 'USD', $1, $2)`,
      [ADA, tie],
    );
    await db.query(
      `INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, email, effects, body_size)
       VALUES ($1, 'lemonsqueezy', 'subscription_payment_success', 'applied', 200, $2, '[]', 10)`,
      [tie, ADA],
    );
    const whole = await allPages(ADA_PATH, 200);
    expect(whole).toHaveLength(14);
    for (const limit of [1, 2, 3, 5]) {
      const paged = await allPages(ADA_PATH, limit);
      expect(paged.map((i) => i.id)).toEqual(whole.map((i) => i.id));
    }
    const filtered = await allPages(ADA_PATH, 2, '&kind=log,isr');
    expect(filtered.map((i) => i.id)).toEqual(
      whole.filter((i) => i.kind === 'log' || i.kind === 'isr').map((i) => i.id),
    );
  });

  it('shows a signed LemonSqueezy sale as webhook, subscription, payment and access entries within the second', async () => {
    const email = 'new.buyer@example.com';
    const sub = lemonSqueezySubscription('9001', {
      user_email: email,
      user_name: 'New Buyer',
      order_id: 3009001,
      status: 'active',
      renews_at: lsTime(new Date(NOW.getTime() + 30 * 86_400_000)),
      created_at: lsTime(NOW),
      updated_at: lsTime(NOW),
    });
    const order = lemonSqueezyOrder('3009001', { user_email: email, total: 1900, at: NOW });
    for (const d of [
      signedLemonSqueezyDelivery('subscription_created', sub, SECRET),
      signedLemonSqueezyDelivery('order_created', order, SECRET),
    ]) {
      const res = await app.request('/webhooks/lemonsqueezy', {
        method: 'POST',
        headers: d.headers,
        body: d.body,
      });
      expect(res.status).toBe(200);
    }
    const res = await api(`/customers/${encodeURIComponent(email)}/timeline`);
    expect(res.status).toBe(200);
    const items = res.body.items as Item[];
    for (const kind of ['webhook', 'subscription', 'payment', 'access']) {
      const found = items.filter((i) => i.kind === kind);
      expect(found.length, kind).toBeGreaterThan(0);
      for (const i of found)
        expect(Math.abs(Date.parse(i.at) - NOW.getTime()), kind).toBeLessThan(1000);
    }
    expect(items.find((i) => i.kind === 'access')).toMatchObject({
      actor: 'webhook',
      title: 'Access granted by LemonSqueezy subscription_created',
    });
    expect(items.find((i) => i.kind === 'payment')?.title).toBe(
      'Payment 19.00 USD · LemonSqueezy 9001',
    );
    const record = await api(`/customers/${encodeURIComponent(email)}`);
    expect(record.body.payments).toEqual([
      {
        at: NOW.toISOString(),
        kind: 'payment',
        provider: 'lemonsqueezy',
        amount_cents: 1900,
        currency: 'USD',
        reference: '3009001',
        subscription_id: '9001',
      },
    ]);
    // The grant waits for the forum worker: the forum has not confirmed it yet.
    expect(record.body.forum.jobs).toMatchObject([{ op: 'grant', status: 'pending' }]);
    expect(record.body.forum.state).toBe('unknown');
    await new ForumWorker(deps).runDue();
    const synced = await api(`/customers/${encodeURIComponent(email)}`);
    expect(synced.body.forum.jobs).toMatchObject([{ op: 'grant', status: 'sent' }]);
    expect(synced.body.forum.state).toBe('member');
  });
});

describe('an operator action', () => {
  it("tops the timeline as an access entry with the operator's email", async () => {
    const res = await app.request(`${PREFIX}/users/actions/revoke_now`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.get('support')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: 'erin@example.com' }),
    });
    expect(res.status).toBe(200);
    const timeline = await api('/customers/erin%40example.com/timeline');
    // One transaction wrote the audit row, the forum job and the log row at one instant.
    expect(timeline.body.items.map((i: Item) => [i.kind, i.title, i.actor])).toEqual([
      ['access', 'Access revoked', 'support@team.example'],
      ['forum', 'Forum revoke: pending', 'system'],
      ['log', 'INFO access.revoke_now', 'support@team.example'],
    ]);
  });
});

describe('POST /customers/:email/forum-jobs/:id/retry', () => {
  it('re-queues a failed job of this email now, audited, and refuses the others', async () => {
    const viewer = await api(`${ADA_PATH}/forum-jobs/1/retry`, 'viewer', 'POST');
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe('FORBIDDEN');

    const other = await api('/customers/bob%40example.com/forum-jobs/1/retry', 'support', 'POST');
    expect(other.status).toBe(404);
    expect((await api(`${ADA_PATH}/forum-jobs/999/retry`, 'support', 'POST')).status).toBe(404);
    expect((await api(`${ADA_PATH}/forum-jobs/x/retry`, 'support', 'POST')).status).toBe(400);

    const res = await api(`${ADA_PATH}/forum-jobs/1/retry`, 'support', 'POST');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      job: {
        id: 1,
        op: 'revoke',
        status: 'pending',
        attempts: 0,
        last_error: 'Discourse answered HTTP 500',
        created_at: at(50).toISOString(),
        updated_at: at(40).toISOString(),
        next_attempt_at: NOW.toISOString(),
      },
    });
    const audit = await db.query<{ operator_email: string; outcome: string; detail: unknown }>(
      `SELECT operator_email, outcome, detail FROM audit_log WHERE action = 'forum.retry' ORDER BY id`,
    );
    expect(audit.rows).toEqual([
      {
        operator_email: 'support@team.example',
        outcome: 'ok',
        detail: {
          job_id: 1,
          action: 'revoke',
          reason: 'access.revoke_now',
          previous: { attempts: 12, last_error: 'Discourse answered HTTP 500' },
        },
      },
    ]);
    // Now pending: a second retry is refused, and recorded as refused.
    const again = await api(`${ADA_PATH}/forum-jobs/1/retry`, 'support', 'POST');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('NOT_FAILED');
    const timeline = await api(`${ADA_PATH}/timeline?kind=forum`);
    expect(timeline.body.items.map((i: Item) => [i.title, i.actor])).toEqual([
      ['Forum job #1 retried (refused)', 'support@team.example'],
      ['Forum job #1 retried', 'support@team.example'],
      ['Forum revoke: pending', 'system'],
    ]);
  });

  it('refuses a failed job that a later job of the email superseded', async () => {
    await db.query(
      `INSERT INTO forum_outbox (email, action, reason, state, attempts, created_at, next_attempt_at, finished_at)
       VALUES ('carol@sample.org', 'grant', 'access.grant', 'failed', 1, $1, $1, $1),
              ('carol@sample.org', 'revoke', 'access.revoke_now', 'done', 1, $2, $2, $2)`,
      [at(30), at(20)],
    );
    const jobs = await db.query<{ id: number }>(
      `SELECT id FROM forum_outbox WHERE email = 'carol@sample.org' ORDER BY id`,
    );
    const failed = Number(jobs.rows[0]?.id);
    const res = await api(
      `/customers/carol%40sample.org/forum-jobs/${failed}/retry`,
      'admin',
      'POST',
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SUPERSEDED');
    const record = await api('/customers/carol%40sample.org');
    expect(record.body.forum.state).toBe('none');
  });
});

describe('GET /search', () => {
  const find = async (q: string, limit?: number) => {
    const res = await api(
      `/search?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`,
    );
    expect(res.status, q).toBe(200);
    return res.body.results as {
      kind: string;
      label: string;
      email: string | null;
      match: string;
      href: string;
    }[];
  };

  it('finds a receipt by prefix and by exact value, in any letter case', async () => {
    for (const q of ['cbre', 'CBREC1', 'cbrec1']) {
      const results = await find(q);
      expect(results[0], q).toEqual({
        kind: 'receipt',
        label: 'ClickBank receipt CBREC1 (SALE) · bob@example.com',
        email: 'bob@example.com',
        match: 'CBREC1',
        href: '/customers/bob%40example.com',
      });
    }
  });

  it('finds a subscription id and ranks an exact id before email and name prefixes', async () => {
    await db.query(
      `INSERT INTO customers (email, name) VALUES ('ls-1.fan@example.com', 'Ls-1 Fan')`,
    );
    const results = await find('ls-1');
    expect(results.map((r) => [r.kind, r.match])).toEqual([
      ['subscription', 'ls-1'],
      ['customer', 'ls-1.fan@example.com'],
    ]);
    expect(results[0]).toMatchObject({ email: ADA, href: ADA_PATH });
  });

  it('finds customers by email prefix and by name prefix, email first', async () => {
    await db.query(`INSERT INTO customers (email, name) VALUES ('zed@example.com', 'Adams Zed')`);
    const results = await find('Ad');
    expect(results.map((r) => [r.kind, r.match])).toEqual([
      ['customer', ADA],
      ['customer', 'Adams Zed'],
    ]);
    expect(results[0]?.label).toBe('Ada Lovelace · ada@example.com');
  });

  it('finds affiliates, TIDs and screens, grouped by kind', async () => {
    expect(await find('super')).toEqual([
      {
        kind: 'affiliate',
        label: 'Affiliate superaff',
        email: null,
        match: 'superaff',
        href: '/isr?affiliate=superaff',
      },
    ]);
    expect((await find('fb0')).map((r) => [r.label, r.href])).toEqual([
      ['TID fb01', '/isr?subid=fb01'],
    ]);
    expect(await find('logs')).toEqual([
      { kind: 'screen', label: 'Logs', email: null, match: 'Logs', href: '/logs' },
    ]);
    expect((await find('tracking')).map((r) => r.href)).toEqual(['/isr']);
    // An exact ISR order id (a LemonSqueezy rebill) opens its customer.
    expect((await find('3000001-R2'))[0]).toMatchObject({
      kind: 'order',
      email: ADA,
      href: ADA_PATH,
    });
    // 'a': customers (ada by email, Adams Zed by name) before screens (Audit; Users by 'access').
    const mixed = await find('a', 50);
    const kinds = mixed.map((r) => r.kind);
    expect(kinds.filter((k, i) => kinds.indexOf(k) === i)).toEqual(['customer', 'screen']);
    expect(kinds).toEqual([...kinds].sort((a, b) => kinds.indexOf(a) - kinds.indexOf(b)));
  });

  it('caps the results at limit and refuses a blank, over-long or control-character q', async () => {
    expect(await find('a', 2)).toHaveLength(2);
    for (const q of [
      '',
      'q=',
      'q=%20%20',
      `q=${'x'.repeat(201)}`,
      'q=a%00b',
      'q=a&limit=51',
      'q=a&limit=0',
    ]) {
      const res = await api(`/search?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe('bad_request');
    }
    expect((await find('%_\\')).length).toBe(0);
    expect(await find('__proto__')).toEqual([]);
  });

  it('finds a LemonSqueezy order id and customer id by prefix and by exact value', async () => {
    const id = await insertCustomer(db, 'ola@example.com', 'Ola Nordmann');
    await insertSubscription(db, {
      customerId: id,
      providerId: '9400001',
      startDate: '2026-02-01T00:00:00Z',
      payload: lemonSqueezyObject('9400001', { order_id: 7300123, customer_id: 8800456 }),
    });
    const OLA = '/customers/ola%40example.com';
    for (const q of ['73001', '7300123']) {
      expect(await find(q), q).toEqual([
        {
          kind: 'order',
          label: 'LemonSqueezy order 7300123 · Ola Nordmann · ola@example.com',
          email: 'ola@example.com',
          match: '7300123',
          href: OLA,
        },
      ]);
    }
    for (const q of ['88004', '8800456']) {
      expect(await find(q), q).toEqual([
        {
          kind: 'customer',
          label: 'LemonSqueezy customer 8800456 · Ola Nordmann · ola@example.com',
          email: 'ola@example.com',
          match: '8800456',
          href: OLA,
        },
      ]);
    }
  });
});

describe('a ClickBank chargeback', () => {
  it('lists as a chargeback in the money and the timeline, and comes off the lifetime total', async () => {
    const BOB = '/customers/bob%40example.com';
    const before = await api(BOB);
    // Subscription 2 is bob's ClickBank CBREC1 (scenario); the ISR row of the same instant tells
    // a chargeback from a refund.
    await insertEvent(db, {
      subscriptionId: 2,
      type: 'refund',
      occurredAt: at(5).toISOString(),
      amountCents: 4900,
      currency: 'USD',
    });
    await db.query(
      `INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency,
                               customer_email, created_at)
       VALUES ('clickbank', 'chargeback', NULL, 'CBREC1', -4900, 'USD', 'bob@example.com', $1)`,
      [at(5)],
    );
    const after = await api(BOB);
    expect(after.status).toBe(200);
    expect(after.body.payments[0]).toEqual({
      at: at(5).toISOString(),
      kind: 'chargeback',
      provider: 'clickbank',
      amount_cents: 4900,
      currency: 'USD',
      reference: 'CBREC1',
      subscription_id: 'CBREC1',
    });
    expect(after.body.customer.lifetime_revenue_cents).toBe(
      before.body.customer.lifetime_revenue_cents - 4900,
    );
    const timeline = await api(`${BOB}/timeline?kind=refund`);
    expect(timeline.body.items).toMatchObject([
      {
        at: at(5).toISOString(),
        kind: 'refund',
        title: 'Chargeback 49.00 USD · ClickBank CBREC1',
        detail: { type: 'chargeback' },
        actor: 'system',
      },
    ]);
  });
});
