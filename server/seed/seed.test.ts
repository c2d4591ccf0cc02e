import { readFileSync } from 'node:fs';
import type { Db, Tx } from '../db/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../testing/database';
import { computeDashboardStats } from '../stats';
import { makeTestConfig } from '../testing/deps';
import { addMonthsUtc, COPY_COLUMNS, DemoGenerator, joinBatches } from './generate';
import { ISR_COPY_COLUMNS } from './isr';
import { createRng } from './prng';
import { clickbankDedupKey } from '../webhooks/clickbank';
import { lemonSqueezyDedupKey } from '../webhooks/lemonsqueezy';
import { seedDemoData, type SeedSummary } from '.';
import { WEBHOOK_SEED_DAYS } from './webhooks';

// In-repo copies of ../shared/fixtures (see tests/msw/provider/README.md).
const fixturesDir = new URL('../../tests/msw/provider/', import.meta.url);
const lsFixture = JSON.parse(
  readFileSync(new URL('lemonsqueezy-subscription.json', fixturesDir), 'utf8'),
) as {
  attributes: Record<string, unknown> & { first_subscription_item: object; urls: object };
};
const cbFixture = JSON.parse(
  readFileSync(new URL('clickbank-ins-testvector-clickbankgo.json', fixturesDir), 'utf8'),
) as {
  expectedJson: Record<string, unknown> & {
    lineItems: Array<Record<string, unknown>>;
    customer: { billing: Record<string, unknown>; shipping: Record<string, unknown> };
  };
};

const TABLES = [
  'customers',
  'subscriptions',
  'members',
  'subscription_events',
  'clickbank_orders',
  'isr_events',
  'logs',
  'forum_outbox',
] as const;
const N = 400;
const MORNING = new Date('2026-11-20T10:00:00.000Z');
const EVENING = new Date('2026-11-20T23:30:00.000Z');
const DAY_MS = 86_400_000;

/**
 * Columns that schedule the future instead of dating something that happened: the end of the
 * running billing period, when access ends (a cancelled subscription keeps it until then), and
 * when ClickBank charges next. Every other instant the seed writes is at or before its `now`.
 */
const SCHEDULED_COLUMNS = new Set([
  'subscriptions.current_period_end',
  'subscriptions.ends_at',
  'members.expires_at',
  // The member's copy of its subscription's current_period_end (migration 036).
  'members.sub_current_period_end',
  // The member's copy of its subscription's ends_at (migration 040).
  'members.sub_ends_at',
  'clickbank_orders.next_payment_at',
  // The MRR history ends a cancelled subscription at its ends_at: a scheduled churn.
  'revenue_spans.valid_to',
  'revenue_movements.at',
  'revenue_daily.day',
  'revenue_cohort_monthly.month',
  'revenue_monthly.month',
  'revenue_customers_daily.day',
  'revenue_customers_monthly.month',
  'revenue_retained_daily.day',
  'revenue_daily_kinds.day',
  // The month and the day a scheduled ends_at falls in ('end' rows of the overview's counts).
  'subscription_months.month',
  'subscription_days.day',
  // The day a scheduled ends_at or period end falls on (the dashboard's days-left roll-up).
  'stats_access_days.end_day',
  // The day a cancelled subscription's scheduled ends_at falls on (its own days-left roll-up).
  'stats_cancelled_days.end_day',
  // The day a period end falls on (the Subscriptions list's renewal counts; its start rows are
  // checked below).
  'list_day_counts.day',
]);

/**
 * 'table.column (n rows)' for every timestamp or date column of the schema holding a value after
 * `now`, scheduled columns aside. schema_migrations is left out: migrate() stamps it with the wall
 * clock, and the seed never writes it.
 */
async function datedAfter(db: Db, now: Date): Promise<string[]> {
  const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('timestamp with time zone', 'timestamp without time zone', 'date')
        AND c.table_name <> 'schema_migrations'
      ORDER BY 1, 2`,
  );
  expect(columns.rows.length).toBeGreaterThan(20);
  const late: string[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns.rows) {
    if (SCHEDULED_COLUMNS.has(`${table}.${column}`)) continue;
    const bound =
      type === 'date'
        ? `($1::timestamptz AT TIME ZONE 'UTC')::date`
        : type === 'timestamp without time zone'
          ? `($1::timestamptz AT TIME ZONE 'UTC')`
          : '$1::timestamptz';
    const r = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${column} > ${bound}`,
      [now.toISOString()],
    );
    const n = r.rows[0]?.n ?? 0;
    if (n > 0) late.push(`${table}.${column} (${n} rows)`);
  }
  // Of the list's day counts, only the renewals may fall later.
  const starts = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM list_day_counts
      WHERE dim <> 'renew' AND day > ($1::timestamptz AT TIME ZONE 'UTC')::date`,
    [now.toISOString()],
  );
  if ((starts.rows[0]?.n ?? 0) > 0) late.push(`list_day_counts.day (${starts.rows[0]?.n} starts)`);
  return late;
}

let db: Db;
let summary: SeedSummary;

async function checksum(on: Db = db): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const r = await on.query<{ h: string | null }>(
      `SELECT md5(string_agg(t::text, E'\\n' ORDER BY t.id)) AS h FROM ${table} t`,
    );
    parts.push(`${table}:${r.rows[0]?.h}`);
  }
  return parts.join(' ');
}

async function wipe(on: Db = db): Promise<void> {
  await on.exec(`TRUNCATE logs, isr_events, clickbank_orders, subscription_events, members, subscriptions, customers, forum_outbox, webhook_deliveries RESTART IDENTITY CASCADE;
    DELETE FROM meta;`);
}

beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(async () => {
  await db?.close();
});

describe('seedDemoData determinism', () => {
  // The seeding moment is the data's horizon, so a later moment of the same UTC day is other data
  // (more of the day has happened): determinism is per seed and moment, not per day.
  it('gives byte-identical data for the same seed and moment, different data for a later moment or another seed', async () => {
    await seedDemoData(db, { customers: N, seed: 7, now: MORNING });
    const first = await checksum();
    await wipe();
    await seedDemoData(db, { customers: N, seed: 7, now: MORNING });
    expect(await checksum()).toBe(first);
    await wipe();
    await seedDemoData(db, { customers: N, seed: 7, now: EVENING });
    expect(await checksum()).not.toBe(first);
    await wipe();
    await seedDemoData(db, { customers: N, seed: 8, now: MORNING });
    const other = await checksum();
    for (const table of ['customers', 'subscriptions', 'clickbank_orders', 'logs']) {
      const pick = (s: string) => s.split(' ').find((p) => p.startsWith(`${table}:`));
      expect(pick(other)).not.toBe(pick(first));
    }
    await wipe();
    summary = await seedDemoData(db, { customers: N, seed: 7, now: MORNING });
    expect(await checksum()).toBe(first);
  }, 120_000);

  it('generator output is a pure function of seed and seeding moment', () => {
    const nowMs = MORNING.getTime();
    const a = new DemoGenerator({ customers: 50, seed: 3, nowMs }).batch(50);
    const b = new DemoGenerator({ customers: 50, seed: 3, nowMs }).batch(50);
    expect(b).toEqual(a);
    const c = new DemoGenerator({ customers: 50, seed: 3, nowMs: nowMs + DAY_MS }).batch(50);
    expect(c.subscriptions).not.toBe(a.subscriptions);
  });

  it('generates the same batch whole or in slices joined (the seed copies a batch while slicing the next)', () => {
    const nowMs = MORNING.getTime();
    const whole = new DemoGenerator({ customers: 60, seed: 3, nowMs }).batch(60);
    const sliced = new DemoGenerator({ customers: 60, seed: 3, nowMs });
    const slices = [sliced.batch(7), sliced.batch(25), sliced.batch(100)];
    expect(sliced.done()).toBe(true);
    expect(slices[2]!.counts.customers).toBe(28);
    expect(joinBatches(slices)).toEqual(whole);
    expect(joinBatches([])).toEqual(new DemoGenerator({ customers: 0, seed: 3, nowMs }).batch(10));
  });
});

describe('seeded data', () => {
  const count = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ n: number }>(sql, params)).rows[0]?.n ?? -1;

  it("has the last week's webhook deliveries of both providers, keyed as the live server keys them", async () => {
    const rows = await db.query<{
      provider: string;
      event: string;
      outcome: string;
      dedup_key: string;
      body: string;
      body_size: number;
      received_at: Date;
      email: string;
    }>(
      `SELECT provider, event, outcome, dedup_key, body, body_size, received_at, email
         FROM webhook_deliveries ORDER BY id`,
    );
    const providers = new Set(rows.rows.map((r) => r.provider));
    expect(providers).toEqual(new Set(['lemonsqueezy', 'clickbank']));
    const outcomes = new Set(rows.rows.map((r) => r.outcome));
    expect(outcomes).toEqual(new Set(['applied', 'duplicate']));
    const applied = rows.rows.filter((r) => r.outcome === 'applied');
    // One applied delivery per change; a duplicate repeats an applied one's key.
    expect(new Set(applied.map((r) => r.dedup_key)).size).toBe(applied.length);
    const keys = new Set(applied.map((r) => r.dedup_key));
    for (const r of rows.rows.filter((r) => r.outcome === 'duplicate')) {
      expect(keys.has(r.dedup_key)).toBe(true);
    }
    for (const r of rows.rows) {
      expect(r.received_at.getTime()).toBeGreaterThan(
        MORNING.getTime() - (WEBHOOK_SEED_DAYS + 1) * DAY_MS,
      );
      expect(r.body_size).toBe(Buffer.byteLength(r.body));
      const body = JSON.parse(r.body) as Record<string, unknown>;
      if (r.provider === 'lemonsqueezy') {
        const data = body.data as { id: string; type: string; attributes: Record<string, string> };
        expect(r.dedup_key).toBe(
          lemonSqueezyDedupKey({
            event: (body.meta as { event_name: string }).event_name,
            data,
            dataId: data.id,
            updatedAt: new Date(data.attributes.updated_at ?? ''),
          } as unknown as Parameters<typeof lemonSqueezyDedupKey>[0]),
        );
        expect(data.attributes.user_email).toBe(r.email);
      } else {
        const n = body as unknown as {
          receipt: string;
          transactionType: string;
          transactionTime: string;
        };
        expect(r.dedup_key).toBe(
          clickbankDedupKey({ n, type: n.transactionType, at: new Date(n.transactionTime) }),
        );
      }
    }
  });

  it('has the forum jobs of the last days, sent and invited ones and a failed one, none later than the seeding moment', async () => {
    const jobs = await db.query<{ state: string; invited: boolean; late: boolean; n: number }>(
      `SELECT state, (outcome ->> 'invited') IS NOT NULL AS invited,
              (created_at > $1 OR finished_at > $1) AS late, count(*)::int AS n
         FROM forum_outbox GROUP BY 1, 2, 3`,
      [MORNING],
    );
    const n = (pick: (r: { state: string; invited: boolean; late: boolean }) => boolean) =>
      jobs.rows.filter(pick).reduce((sum, r) => sum + r.n, 0);
    expect(n((r) => r.state === 'failed')).toBeGreaterThan(0);
    expect(n((r) => r.state === 'done')).toBeGreaterThan(0);
    expect(n((r) => r.state === 'pending')).toBe(0);
    expect(n((r) => r.late)).toBe(0);
  });

  it('has the summary counts, one subscription and one member per customer, ~60/40 providers', async () => {
    expect(summary.customers).toBe(N);
    expect(await count('SELECT count(*)::int AS n FROM customers')).toBe(N);
    expect(await count('SELECT count(*)::int AS n FROM subscriptions')).toBe(N);
    expect(await count('SELECT count(*)::int AS n FROM members')).toBe(N);
    expect(await count('SELECT count(*)::int AS n FROM subscription_events')).toBe(summary.events);
    expect(await count('SELECT count(*)::int AS n FROM clickbank_orders')).toBe(
      summary.clickbankOrders,
    );
    expect(await count('SELECT count(*)::int AS n FROM logs')).toBe(2000);
    const ls = await count(
      "SELECT count(*)::int AS n FROM subscriptions WHERE provider = 'lemonsqueezy'",
    );
    expect(ls).toBe(summary.subscriptions.lemonsqueezy);
    expect(ls / N).toBeGreaterThan(0.5);
    expect(ls / N).toBeLessThan(0.7);
    expect(summary.clickbankOrders).toBeGreaterThanOrEqual(summary.subscriptions.clickbank);
  });

  it('mixes cadences, prices, currencies, statuses and sources', async () => {
    const yearly = await count(
      "SELECT count(*)::int AS n FROM subscriptions WHERE cadence = 'yearly'",
    );
    expect(yearly / N).toBeGreaterThan(0.15);
    expect(yearly / N).toBeLessThan(0.35);
    const eur = await count("SELECT count(*)::int AS n FROM subscriptions WHERE currency = 'EUR'");
    const gbp = await count("SELECT count(*)::int AS n FROM subscriptions WHERE currency = 'GBP'");
    expect(eur / N).toBeGreaterThan(0.04);
    expect(eur / N).toBeLessThan(0.18);
    expect(gbp / N).toBeGreaterThan(0.01);
    expect(gbp / N).toBeLessThan(0.1);
    const prices = await db.query<{ cadence: string; amount_cents: number }>(
      'SELECT DISTINCT cadence, amount_cents FROM subscriptions ORDER BY 1, 2',
    );
    expect(prices.rows).toEqual([
      { cadence: 'monthly', amount_cents: 999 },
      { cadence: 'monthly', amount_cents: 1900 },
      { cadence: 'monthly', amount_cents: 2900 },
      { cadence: 'yearly', amount_cents: 9900 },
      { cadence: 'yearly', amount_cents: 19000 },
      { cadence: 'yearly', amount_cents: 29000 },
    ]);
    const statuses = await db.query<{ provider: string; status: string }>(
      'SELECT DISTINCT provider, status FROM subscriptions ORDER BY 1, 2',
    );
    const cb = statuses.rows.filter((r) => r.provider === 'clickbank').map((r) => r.status);
    const ls = statuses.rows.filter((r) => r.provider === 'lemonsqueezy').map((r) => r.status);
    expect(cb.every((s) => ['active', 'cancelled', 'expired'].includes(s))).toBe(true);
    expect(
      ls.every((s) =>
        ['active', 'trialing', 'paused', 'past_due', 'unpaid', 'cancelled', 'expired'].includes(s),
      ),
    ).toBe(true);
    expect(ls).toEqual(expect.arrayContaining(['active', 'cancelled', 'expired']));
    expect(cb).toEqual(expect.arrayContaining(['active', 'expired']));
    const sources = await count('SELECT count(DISTINCT source)::int AS n FROM subscriptions');
    expect(sources).toBeGreaterThan(8);
  });

  it('uses unique, realistic example.com / example.org emails', async () => {
    const bad = await count(
      "SELECT count(*)::int AS n FROM customers WHERE email !~ '^[a-z]+\\.[a-z]+\\+[0-9]+@example\\.(com|org)$'",
    );
    expect(bad).toBe(0);
    expect(await count('SELECT count(DISTINCT email)::int AS n FROM customers')).toBe(N);
  });

  it('stores every LemonSqueezy payload with exactly the fixture attribute keys and the status mapping', async () => {
    const rows = await db.query<{
      provider_id: string;
      status: string;
      email: string;
      payload: Record<string, unknown> & { attributes: Record<string, unknown> };
    }>(
      `SELECT s.provider_id, s.status, c.email, s.payload FROM subscriptions s JOIN customers c ON c.id = s.customer_id
        WHERE s.provider = 'lemonsqueezy'`,
    );
    const keys = Object.keys(lsFixture.attributes).sort();
    const itemKeys = Object.keys(lsFixture.attributes.first_subscription_item).sort();
    const urlKeys = Object.keys(lsFixture.attributes.urls).sort();
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      const p = row.payload;
      expect(p.type).toBe('subscriptions');
      expect(p.id).toBe(row.provider_id);
      expect(Object.keys(p.attributes).sort()).toEqual(keys);
      expect(Object.keys(p.attributes.first_subscription_item as object).sort()).toEqual(itemKeys);
      expect(Object.keys(p.attributes.urls as object).sort()).toEqual(urlKeys);
      expect(p.relationships).toBeTypeOf('object');
      expect(p.links).toEqual({
        self: `https://api.lemonsqueezy.com/v1/subscriptions/${row.provider_id}`,
      });
      const lsStatus = p.attributes.status as string;
      expect(row.status).toBe(lsStatus === 'on_trial' ? 'trialing' : lsStatus);
      expect(p.attributes.user_email).toBe(row.email);
      expect(String(p.attributes.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
    }
  });

  it('stores every ClickBank order with a v6 Instant Notification raw_json', async () => {
    const rows = await db.query<{
      receipt: string;
      status: string;
      email: string;
      raw_json: Record<string, unknown>;
      raw_text: string;
    }>('SELECT receipt, status, email, raw_json, raw_json::text AS raw_text FROM clickbank_orders');
    const keys = Object.keys(cbFixture.expectedJson);
    const lineKeys = Object.keys(cbFixture.expectedJson.lineItems[0] ?? {});
    const personKeys = Object.keys(cbFixture.expectedJson.customer.billing);
    for (const row of rows.rows) {
      const raw = row.raw_json as Record<string, unknown> & {
        lineItems: Array<Record<string, unknown>>;
        customer: { billing: Record<string, unknown>; shipping: Record<string, unknown> };
      };
      expect(Object.keys(raw)).toEqual(expect.arrayContaining([...keys, 'upsell', 'hopfeed']));
      expect(Object.keys(raw.lineItems[0] ?? {})).toEqual(expect.arrayContaining(lineKeys));
      expect(Object.keys(raw.customer.billing)).toEqual(expect.arrayContaining(personKeys));
      expect(Object.keys(raw.customer.shipping)).toEqual(expect.arrayContaining(personKeys));
      expect(raw.receipt).toBe(row.receipt);
      expect(raw.transactionType).toBe(row.status);
      expect(['SALE', 'BILL', 'RFND', 'CANCEL-REBILL']).toContain(raw.transactionType);
      expect(raw.version).toBe(6);
      expect(row.raw_text).toContain('"version": 6.0');
      expect(String(raw.transactionTime)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      expect((raw.customer.billing as { email: string }).email).toBe(row.email);
    }
    const kinds = await db.query<{ status: string }>(
      'SELECT DISTINCT status FROM clickbank_orders ORDER BY 1',
    );
    expect(kinds.rows.map((r) => r.status)).toEqual(expect.arrayContaining(['BILL', 'SALE']));
    const cbSubs = await count(
      `SELECT count(*)::int AS n FROM subscriptions s WHERE s.provider = 'clickbank'
         AND NOT EXISTS (SELECT 1 FROM clickbank_orders o WHERE o.receipt = s.provider_id AND o.subscription_id = s.id)`,
    );
    expect(cbSubs).toBe(0);
  });

  it('has events on the anchor day and renewals charged at the subscription price', async () => {
    const day = ['2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z'];
    for (const type of ['new', 'renewal', 'cancellation']) {
      expect(
        await count(
          'SELECT count(*)::int AS n FROM subscription_events WHERE type = $1 AND occurred_at >= $2 AND occurred_at < $3',
          [type, ...day],
        ),
      ).toBeGreaterThan(0);
    }
    expect(
      await count(
        `SELECT count(*)::int AS n FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
          WHERE e.type = 'renewal' AND (e.amount_cents <> s.amount_cents OR e.currency <> s.currency)`,
      ),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM subscription_events WHERE occurred_at > $1', [
        MORNING.toISOString(),
      ]),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM subscription_events WHERE occurred_at < '2024-11-19T00:00:00Z'",
      ),
    ).toBe(0);
    const news = await count(
      "SELECT count(*)::int AS n FROM subscription_events WHERE type = 'new'",
    );
    expect(news).toBe(N);
  });

  it('keeps members consistent with access: scheduled cancellations and cancelled members with past expiry', async () => {
    const scheduled = await count(
      "SELECT count(*)::int AS n FROM members WHERE mg_status = 'active' AND expires_at > $1",
      [MORNING.toISOString()],
    );
    expect(scheduled).toBeGreaterThan(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM members m JOIN subscriptions s ON s.id = m.subscription_id
          WHERE s.status = 'cancelled' AND (m.mg_status <> 'active' OR m.expires_at IS DISTINCT FROM s.ends_at)`,
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM members WHERE mg_status = 'cancelled' AND expires_at > $1",
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    const stats = await computeDashboardStats(db, await makeTestConfig(), MORNING);
    expect(stats.activeSubscribers).toBe(summary.accessActive);
    expect(stats.newToday).toBeGreaterThan(0);
    expect(stats.scheduledCancellations).toBe(scheduled);
  });

  it('tracks every ClickBank order as an ISR sale or rebill with the same receipt, amount, time and affiliate', async () => {
    expect(summary.isrEvents).toBe(await count('SELECT count(*)::int AS n FROM isr_events'));
    const missing = await count(
      `SELECT count(*)::int AS n FROM clickbank_orders o
        WHERE NOT EXISTS (SELECT 1 FROM isr_events i
                           WHERE i.source = 'clickbank' AND i.receipt = o.receipt AND i.order_id = o.receipt
                             AND i.kind IN ('sale', 'rebill') AND i.amount_cents = o.amount_cents
                             AND i.currency = o.currency AND i.created_at = o.created_at_provider
                             AND i.customer_email = o.email AND i.affiliate IS NOT DISTINCT FROM o.affiliate
                             AND i.product_id = o.sku)`,
    );
    expect(missing).toBe(0);
    // No ISR ClickBank payment without its order, and every refunded order has its negative refund.
    expect(
      await count(
        "SELECT count(*)::int AS n FROM isr_events WHERE source = 'clickbank' AND kind IN ('sale', 'rebill')",
      ),
    ).toBe(summary.clickbankOrders);
    const refunds = await count(
      "SELECT count(*)::int AS n FROM clickbank_orders WHERE status = 'RFND'",
    );
    expect(
      await count(
        `SELECT count(*)::int AS n FROM clickbank_orders o JOIN isr_events i
            ON i.receipt = o.receipt AND i.kind = 'refund' AND i.amount_cents = -o.amount_cents
         WHERE o.status = 'RFND'`,
      ),
    ).toBe(refunds);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM isr_events WHERE source = 'clickbank' AND kind = 'refund'",
      ),
    ).toBe(refunds);
  });

  it('makes ISR money agree with the lifecycle events of every subscription (both providers)', async () => {
    const rows = await db.query<{
      id: number;
      provider: string;
      paid: number;
      payments: number;
      isr_net: number;
      isr_payments: number;
    }>(
      `SELECT s.id, s.provider,
              COALESCE((SELECT sum(CASE WHEN e.type = 'refund' THEN -e.amount_cents ELSE e.amount_cents END)
                          FROM subscription_events e WHERE e.subscription_id = s.id AND e.type IN ('new', 'renewal', 'refund')), 0)::int AS paid,
              (SELECT count(*) FROM subscription_events e WHERE e.subscription_id = s.id AND e.type IN ('new', 'renewal') AND e.amount_cents > 0)::int AS payments,
              COALESCE((SELECT sum(i.amount_cents) FROM isr_events i WHERE i.customer_email = c.email), 0)::int AS isr_net,
              (SELECT count(*) FROM isr_events i WHERE i.customer_email = c.email AND i.kind IN ('sale', 'rebill'))::int AS isr_payments
         FROM subscriptions s JOIN customers c ON c.id = s.customer_id`,
    );
    expect(rows.rows).toHaveLength(N);
    const mismatched = rows.rows.filter(
      (r) => r.paid !== r.isr_net || r.payments !== r.isr_payments,
    );
    expect(mismatched).toEqual([]);
    // Currencies agree with the subscription's; refunds are negative, payments positive.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM isr_events i JOIN customers c ON c.email = i.customer_email
           JOIN subscriptions s ON s.customer_id = c.id
          WHERE i.currency <> s.currency OR i.source <> s.provider
             OR (i.kind = 'refund') <> (i.amount_cents < 0) OR i.created_at < s.start_date`,
      ),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM isr_events WHERE created_at > $1', [
        MORNING.toISOString(),
      ]),
    ).toBe(0);
  });

  it('spreads ISR attribution on a long tail: affiliates, TIDs, campaigns, referrers, a few refunds', async () => {
    const affiliates = await db.query<{ affiliate: string; n: number }>(
      `SELECT affiliate, count(*)::int AS n FROM isr_events WHERE kind = 'sale' AND affiliate IS NOT NULL
        GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    expect(affiliates.rows.length).toBeGreaterThan(12);
    const top = affiliates.rows[0]?.n ?? 0;
    const median = affiliates.rows[Math.floor(affiliates.rows.length / 2)]?.n ?? 0;
    expect(top).toBeGreaterThanOrEqual(4 * median);
    expect(affiliates.rows[0]?.affiliate).toBe('superaff');
    const tids = await count(
      "SELECT count(DISTINCT subid)::int AS n FROM isr_events WHERE source = 'clickbank'",
    );
    expect(tids).toBeGreaterThan(10);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM isr_events WHERE source = 'lemonsqueezy' AND subid IS NOT NULL",
      ),
    ).toBe(0);
    expect(
      await count('SELECT count(DISTINCT campaign)::int AS n FROM isr_events'),
    ).toBeGreaterThan(8);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM isr_events WHERE kind = 'sale' AND referrer LIKE 'https://%'",
      ),
    ).toBeGreaterThan(N / 3);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM isr_events WHERE kind <> 'sale' AND referrer IS NOT NULL",
      ),
    ).toBe(0);
    const refunds = await count("SELECT count(*)::int AS n FROM isr_events WHERE kind = 'refund'");
    expect(refunds).toBeGreaterThan(0);
    expect(refunds).toBeLessThan(summary.isrEvents * 0.05);
    // Rebills inherit the sale's attribution.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM isr_events r JOIN isr_events s0
            ON s0.customer_email = r.customer_email AND s0.kind = 'sale'
          WHERE r.kind = 'rebill' AND (r.campaign IS DISTINCT FROM s0.campaign OR r.affiliate IS DISTINCT FROM s0.affiliate
                                       OR r.subid IS DISTINCT FROM s0.subid)`,
      ),
    ).toBe(0);
  });

  it('builds the metrics roll-ups equal to a direct aggregate of the lifecycle events', async () => {
    const diff = await count(
      `WITH direct AS (
         SELECT (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.type, s.provider, s.plan, COALESCE(s.source, '') AS source,
                s.status, COALESCE(e.currency, s.currency) AS currency, count(*)::int AS events,
                COALESCE(sum(e.amount_cents), 0)::bigint AS amount_cents
           FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
          WHERE e.type IN ('new', 'renewal', 'cancellation') GROUP BY 1, 2, 3, 4, 5, 6, 7)
       SELECT count(*)::int AS n FROM (
         (SELECT * FROM direct EXCEPT SELECT day, type, provider, plan, source, status, currency, events, amount_cents FROM metrics_daily)
         UNION ALL
         (SELECT day, type, provider, plan, source, status, currency, events, amount_cents FROM metrics_daily EXCEPT SELECT * FROM direct)) d`,
    );
    expect(diff).toBe(0);
    expect(await count('SELECT sum(events)::int AS n FROM metrics_daily_provider')).toBe(
      await count(
        "SELECT count(*)::int AS n FROM subscription_events WHERE type IN ('new', 'renewal', 'cancellation')",
      ),
    );
  });

  it('records seed facts in meta and mixes log levels with JSON context', async () => {
    const meta = await db.query<{ key: string; value: string }>(
      'SELECT key, value FROM meta ORDER BY key',
    );
    expect(Object.fromEntries(meta.rows.map((r) => [r.key, r.value]))).toMatchObject({
      seed: '7',
      seed_customers: String(N),
      seed_anchor_day: '2026-11-20',
    });
    const levels = await db.query<{ level: string }>('SELECT DISTINCT level FROM logs ORDER BY 1');
    expect(levels.rows.map((r) => r.level)).toEqual(
      expect.arrayContaining(['debug', 'error', 'info', 'warn']),
    );
    expect(await count('SELECT count(*)::int AS n FROM logs WHERE context IS NULL')).toBe(0);
  });

  it('dates nothing after the seeding moment: no event, order, ISR event, log or row update', async () => {
    expect(await datedAfter(db, MORNING)).toEqual([]);
    // The provider documents the rows carry date the same history.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM subscriptions
          WHERE provider = 'lemonsqueezy'
            AND ((payload #>> '{attributes,created_at}')::timestamptz > $1
              OR (payload #>> '{attributes,updated_at}')::timestamptz > $1
              OR (payload #>> '{attributes,first_subscription_item,updated_at}')::timestamptz > $1)`,
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM clickbank_orders
          WHERE (raw_json ->> 'transactionTime')::timestamptz > $1`,
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM isr_events WHERE (raw ->> 'tracked_at')::timestamptz > $1`,
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    // Today's activity happened before now, and the newest log line is not from later today.
    const newest = await db.query<{ ts: Date }>('SELECT max(ts) AS ts FROM logs');
    expect(new Date(newest.rows[0]?.ts ?? 0).getTime()).toBeLessThanOrEqual(MORNING.getTime());
    expect(new Date(newest.rows[0]?.ts ?? 0).getTime()).toBeGreaterThan(MORNING.getTime() - DAY_MS);
  });

  it('schedules only what lies ahead: a future end is a cancelled subscription keeping access', async () => {
    expect(
      await count(
        "SELECT count(*)::int AS n FROM subscriptions WHERE ends_at > $1 AND status <> 'cancelled'",
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM subscriptions WHERE status IN ('expired', 'unpaid') AND ends_at > $1",
        [MORNING.toISOString()],
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM subscriptions WHERE status = 'active' AND current_period_end <= $1",
        [MORNING.toISOString()],
      ),
    ).toBe(0);
  });

  /**
   * `on`'s transactions with copyFrom wrapped: `before(table)` may throw instead of copying;
   * `copies` counts the COPYs started and settled.
   */
  function watchedCopies(on: Db, before: (table: string) => void) {
    const copies = { started: 0, settled: 0, customers: 0 };
    const watched: Db = Object.assign(Object.create(on) as Db, {
      transaction: <T>(fn: (tx: Tx) => Promise<T>) =>
        on.transaction((tx) =>
          fn({
            query: (sql, params) => tx.query(sql, params),
            exec: (sql) => tx.exec(sql),
            copyFrom: async (table, columns, data) => {
              copies.started += 1;
              try {
                if (table === 'customers') copies.customers += 1;
                before(table);
                return await tx.copyFrom(table, columns, data);
              } finally {
                copies.settled += 1;
              }
            },
          } satisfies Tx),
        ),
    });
    return { watched, copies };
  }

  const customerRows = async (on: Db) =>
    (
      await on.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM customers)::int + (SELECT count(*) FROM subscriptions)::int AS n',
      )
    ).rows[0]?.n;

  // Batches of 150 customers, generated in three slices each: the failing COPY (the batch's
  // first) fails before the next batch is done, on either driver.
  it.each([
    [2, 'while the next batch is generated'],
    [3, 'in the last batch'],
  ])('a COPY failing in batch %i (%s) fails the seed, writing nothing', async (failingBatch) => {
    const empty = await openTestDatabase();
    try {
      const { watched, copies } = watchedCopies(empty, (table) => {
        if (table === 'customers' && copies.customers === failingBatch) {
          throw new Error('disk full');
        }
      });
      await expect(
        seedDemoData(watched, { customers: 450, seed: 7, now: MORNING, batchSize: 150 }),
      ).rejects.toThrow('disk full');
      expect(copies.customers).toBe(failingBatch);
      expect(await customerRows(empty)).toBe(0);
      // The same database seeds afterwards, to the same data in batches of any size.
      const small = await seedDemoData(empty, {
        customers: 30,
        seed: 7,
        now: MORNING,
        batchSize: 4,
      });
      expect(small.customers).toBe(30);
      const inSmallBatches = await checksum(empty);
      await wipe(empty);
      const whole = await seedDemoData(empty, { customers: 30, seed: 7, now: MORNING });
      expect(await checksum(empty)).toBe(inSmallBatches);
      expect(whole).toEqual({ ...small, durationMs: whole.durationMs });
    } finally {
      await empty.close();
    }
  });

  it('a generator failing while a batch is copied fails the seed once that COPY has ended', async () => {
    const empty = await openTestDatabase();
    const original = DemoGenerator.prototype.batch;
    let slices = 0;
    // Slices of 50: the fourth is batch 2's first, generated while batch 1 is copied.
    const spy = vi.spyOn(DemoGenerator.prototype, 'batch').mockImplementation(function (
      this: DemoGenerator,
      size: number,
    ) {
      if (++slices === 4) throw new Error('generator bug');
      return original.call(this, size);
    });
    try {
      const { watched, copies } = watchedCopies(empty, () => undefined);
      let atFailure = { started: -1, settled: -1 };
      await expect(
        seedDemoData(watched, { customers: 300, seed: 7, now: MORNING, batchSize: 150 }).catch(
          (error: unknown) => {
            atFailure = { started: copies.started, settled: copies.settled };
            throw error;
          },
        ),
      ).rejects.toThrow('generator bug');
      // Batch 1's seven tables were all copied (none left running after the rollback).
      expect(atFailure).toEqual({ started: 7, settled: 7 });
      expect(copies).toMatchObject({ started: 7, settled: 7 });
      expect(await customerRows(empty)).toBe(0);
    } finally {
      spy.mockRestore();
      await empty.close();
    }
  });

  it('refuses to seed a database that already has customers, writing nothing', async () => {
    const before = await checksum();
    await expect(seedDemoData(db, { customers: 5, seed: 1, now: MORNING })).rejects.toThrow(
      /empty database/,
    );
    expect(await checksum()).toBe(before);
  });

  it("rebuilds the indexes it dropped for the COPY with their columns' statistics targets", async () => {
    const r = await db.query<{ name: string; target: number }>(
      `SELECT c.relname AS name, a.attstattarget::int AS target
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = 1
        WHERE c.relname IN ('members_email_joined_trgm_idx', 'subscriptions_email_joined_trgm_idx')
        ORDER BY 1`,
    );
    // Migration 047 sets them; the plain indexes of the bulk tables are dropped and rebuilt.
    expect(r.rows).toEqual([
      { name: 'members_email_joined_trgm_idx', target: 300 },
      { name: 'subscriptions_email_joined_trgm_idx', target: 300 },
    ]);
  });

  it('moves id sequences past the seeded rows', async () => {
    const r = await db.query<{ id: number }>(
      "INSERT INTO customers (email, name) VALUES ('new.customer@example.com', 'New') RETURNING id",
    );
    expect(r.rows[0]?.id).toBe(N + 1);
    await db.query("DELETE FROM customers WHERE email = 'new.customer@example.com'");
  });
});

describe('seeding horizon', () => {
  it('seeded half a minute after midnight, today still has a sale, a renewal and a cancellation, all before now', async () => {
    const now = new Date('2026-11-20T00:00:30.000Z');
    await wipe();
    await seedDemoData(db, { customers: 120, seed: 9, now });
    expect(await datedAfter(db, now)).toEqual([]);
    const today = await db.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM subscription_events
        WHERE occurred_at >= '2026-11-20T00:00:00Z' GROUP BY type ORDER BY type`,
    );
    expect(today.rows.map((r) => r.type)).toEqual(
      expect.arrayContaining(['cancellation', 'new', 'renewal']),
    );
    const stats = await computeDashboardStats(db, await makeTestConfig(), now);
    expect(stats.newToday).toBeGreaterThan(0);
  }, 120_000);

  it('the generator dates nothing that happened after any seeding moment', () => {
    const tables: Array<[keyof ReturnType<DemoGenerator['batch']>, string, string]> = [
      ['customers', 'customers', COPY_COLUMNS.customers],
      ['subscriptions', 'subscriptions', COPY_COLUMNS.subscriptions],
      ['members', 'members', COPY_COLUMNS.members],
      ['events', 'subscription_events', COPY_COLUMNS.events],
      ['clickbankOrders', 'clickbank_orders', COPY_COLUMNS.clickbankOrders],
      ['isr', 'isr_events', ISR_COPY_COLUMNS],
    ];
    const instant = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
    fc.assert(
      fc.property(
        // Any moment of 2026, with extra weight on the edges of a UTC day.
        fc.oneof(
          fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
          fc
            .tuple(fc.integer({ min: 0, max: 364 }), fc.integer({ min: -5_000, max: 5_000 }))
            .map(([day, offsetMs]) => Date.UTC(2026, 0, 1) + day * DAY_MS + offsetMs),
        ),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (nowMs, seed) => {
          const gen = new DemoGenerator({ customers: 30, seed, nowMs });
          const batch = gen.batch(30);
          const late: string[] = [];
          for (const [key, table, columnList] of tables) {
            const columns = columnList.split(', ');
            const text = batch[key];
            if (typeof text !== 'string') continue;
            for (const line of text.split('\n').filter(Boolean)) {
              line.split('\t').forEach((field, i) => {
                const column = `${table}.${columns[i]}`;
                if (SCHEDULED_COLUMNS.has(column) || !instant.test(field)) return;
                if (Date.parse(field) > nowMs) late.push(`${column} ${field}`);
              });
            }
          }
          for (const line of gen.logs(50).text.split('\n').filter(Boolean)) {
            const ts = line.split('\t')[0] ?? '';
            if (Date.parse(ts) > nowMs) late.push(`logs.ts ${ts}`);
          }
          expect(late, new Date(nowMs).toISOString()).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('seed helpers', () => {
  it('mulberry32 is reproducible and uniform enough', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 10_000 }, () => a.next());
    expect(Array.from({ length: 10_000 }, () => b.next())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });

  it('addMonthsUtc keeps the billing day and clamps to short months', () => {
    expect(new Date(addMonthsUtc(Date.UTC(2026, 0, 31, 9, 30), 1)).toISOString()).toBe(
      '2026-02-28T09:30:00.000Z',
    );
    expect(new Date(addMonthsUtc(Date.UTC(2026, 0, 31, 9, 30), 2)).toISOString()).toBe(
      '2026-03-31T09:30:00.000Z',
    );
    expect(new Date(addMonthsUtc(Date.UTC(2024, 1, 29), 12)).toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
    expect(new Date(addMonthsUtc(Date.UTC(2026, 10, 20), -11)).toISOString()).toBe(
      '2025-12-20T00:00:00.000Z',
    );
  });

  it('rejects invalid options', async () => {
    await expect(seedDemoData(db, { customers: -1, seed: 1, now: MORNING })).rejects.toThrow(
      /customers/,
    );
    await expect(
      seedDemoData(db, { customers: 1, seed: 1, now: new Date('nope') }),
    ).rejects.toThrow(/now/);
  });
});
