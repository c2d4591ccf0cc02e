import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { NOW } from '../testing/scenario';
import { isrRoutes, parseInstant, type IsrDailyRowJson, type IsrSummaryJson } from './isr';

let db: Db;
const FX = { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } };
const app = () => testApp(testDeps(db, NOW, FX), [isrRoutes]);
const get = (path: string) => call(app(), 'GET', path);
const ok = async (path: string) => {
  const res = await get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

interface IsrFixture {
  source: string;
  kind?: string;
  orderId?: string | null;
  receipt?: string | null;
  productId?: string | null;
  amountCents: number;
  currency?: string;
  affiliate?: string | null;
  subid?: string | null;
  campaign?: string | null;
  email?: string | null;
  referrer?: string | null;
  createdAt: string;
}

async function insertIsr(e: IsrFixture): Promise<number> {
  const r = await db.query<{ id: number }>(
    `INSERT INTO isr_events (source, kind, order_id, receipt, product_id, amount_cents, currency, affiliate, subid,
       campaign, customer_email, referrer, created_at, raw)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING id`,
    [
      e.source,
      e.kind ?? (e.amountCents < 0 ? 'refund' : 'sale'),
      e.orderId ?? null,
      e.receipt ?? null,
      e.productId ?? null,
      e.amountCents,
      e.currency ?? 'USD',
      e.affiliate ?? null,
      e.subid ?? null,
      e.campaign ?? null,
      e.email ?? null,
      e.referrer ?? null,
      e.createdAt,
      JSON.stringify({ event: e.kind ?? 'sale' }),
    ],
  );
  return Number(r.rows[0]?.id);
}

beforeAll(async () => {
  db = await freshDb();
  // Ids 1..7 in this order. NOW = 2026-11-20T12:00Z; the default range starts 2026-11-07 00:00.
  const cb = {
    source: 'clickbank',
    affiliate: 'superaff',
    subid: 'fb01',
    campaign: 'evergreen-vsl',
    email: 'bob@example.com',
    productId: 'mg-pro-y',
  };
  await insertIsr({
    ...cb,
    receipt: 'CBREC1',
    orderId: 'CBREC1',
    amountCents: 4900,
    createdAt: '2026-11-10T08:00:00Z',
    referrer: 'https://superaff.example.net/review',
  });
  await insertIsr({
    ...cb,
    kind: 'rebill',
    receipt: 'CBREC1-B1',
    orderId: 'CBREC1-B1',
    amountCents: 4900,
    createdAt: '2026-11-15T23:59:59.500Z',
  });
  await insertIsr({
    ...cb,
    kind: 'refund',
    receipt: 'CBREC1-B1',
    orderId: 'CBREC1-B1',
    amountCents: -4900,
    createdAt: '2026-11-16T10:00:00Z',
  });
  await insertIsr({
    source: 'lemonsqueezy',
    receipt: 'LS3000001',
    orderId: '3000001',
    amountCents: 1000,
    campaign: 'Search-Brand',
    email: 'ada@example.com',
    createdAt: '2026-11-18T12:00:00Z',
    referrer: 'https://www.google.com/',
  });
  await insertIsr({
    source: 'lemonsqueezy',
    receipt: 'LS3000004',
    orderId: '3000004',
    amountCents: 9900,
    currency: 'EUR',
    affiliate: 'partnerx',
    email: 'dave_x@example.com',
    createdAt: '2026-11-19T00:00:00Z',
  });
  await insertIsr({
    source: 'clickbank',
    receipt: 'OLD00001',
    orderId: 'OLD00001',
    amountCents: 2900,
    affiliate: 'bestdeals',
    email: 'old@example.com',
    createdAt: '2026-10-01T00:00:00Z',
  });
  await insertIsr({
    source: 'custom',
    receipt: 'C-1',
    orderId: 'C-1',
    amountCents: 500,
    affiliate: 'bestdeals',
    campaign: '50%_off',
    email: 'carol@sample.org',
    createdAt: '2026-11-20T09:00:00Z',
  });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

describe('GET /isr-metrics/summary', () => {
  it('sums the default last 14 UTC days per source in the reporting currency (refunds net)', async () => {
    const body = (await ok('/isr-metrics/summary')) as IsrSummaryJson;
    expect(body).toEqual({
      total_amount_cents: 4900 + 1000 + 10692 + 500,
      total_events: 6,
      clickbank_amount_cents: 4900,
      clickbank_events: 3,
      lemonsqueezy_amount_cents: 11692,
      lemonsqueezy_events: 2,
      currency: 'USD',
    });
  });

  it("takes the console's 'YYYY-MM-DD HH:MM:SS' bounds, the upper one including its whole second", async () => {
    const body = await ok(
      '/isr-metrics/summary?from=2026-11-15%2000:00:00&to=2026-11-15%2023:59:59',
    );
    expect(body).toMatchObject({
      total_events: 1,
      clickbank_events: 1,
      clickbank_amount_cents: 4900,
      lemonsqueezy_events: 0,
    });
    const minute = await ok('/isr-metrics/summary?from=2026-11-15%2023:59&to=2026-11-15%2023:59');
    expect(minute.total_events).toBe(1);
  });

  it('takes ISO 8601 with Z or an offset, and a day-only to as the whole day', async () => {
    expect(
      (await ok('/isr-metrics/summary?from=2026-11-18T13:00:00%2B01:00&to=2026-11-18T12:00:00Z'))
        .total_events,
    ).toBe(1);
    expect(
      (await ok('/isr-metrics/summary?from=2026-11-16&to=2026-11-16')).clickbank_amount_cents,
    ).toBe(-4900);
    expect((await ok('/isr-metrics/summary?from=2026-11-18T12:00:00.001Z')).total_events).toBe(2);
  });

  it('answers all time for only `to`, and zeros for a range without data', async () => {
    expect((await ok('/isr-metrics/summary?to=2026-11-20')).total_events).toBe(7);
    expect(await ok('/isr-metrics/summary?from=2020-01-01&to=2020-01-02')).toEqual({
      total_amount_cents: 0,
      total_events: 0,
      clickbank_amount_cents: 0,
      clickbank_events: 0,
      lemonsqueezy_amount_cents: 0,
      lemonsqueezy_events: 0,
      currency: 'USD',
    });
  });

  it.each([
    ['from=2026-02-30', /from must be a UTC date-time/],
    ['from=yesterday', /from must be a UTC date-time/],
    ['to=2026-11-01%2025:00:00', /to must be a UTC date-time/],
    ['from=2026-11-01%2B01:00', /from must be/],
    ['from=2026-11-10&to=2026-11-01', /after/],
  ])('answers 400 JSON for %s', async (qs, message) => {
    const res = await get(`/isr-metrics/summary?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad_request' });
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /isr-metrics/daily', () => {
  it('answers one row per UTC day and source, whose events sum to the summary', async () => {
    const body = (await ok('/isr-metrics/daily')) as { rows: IsrDailyRowJson[]; currency: string };
    expect(body.currency).toBe('USD');
    expect(body.rows).toEqual([
      { day: '2026-11-10', source: 'clickbank', events: 1, amount_cents: 4900 },
      { day: '2026-11-15', source: 'clickbank', events: 1, amount_cents: 4900 },
      { day: '2026-11-16', source: 'clickbank', events: 1, amount_cents: -4900 },
      { day: '2026-11-18', source: 'lemonsqueezy', events: 1, amount_cents: 1000 },
      { day: '2026-11-19', source: 'lemonsqueezy', events: 1, amount_cents: 10692 },
      { day: '2026-11-20', source: 'custom', events: 1, amount_cents: 500 },
    ]);
    const summary = await ok('/isr-metrics/summary');
    expect(body.rows.reduce((s, r) => s + r.events, 0)).toBe(summary.total_events);
    expect(body.rows.reduce((s, r) => s + r.amount_cents, 0)).toBe(summary.total_amount_cents);
  });

  it('answers an empty list for a range without data and 400 for a bad date', async () => {
    expect((await ok('/isr-metrics/daily?from=2020-01-01&to=2020-01-02')).rows).toEqual([]);
    expect((await get('/isr-metrics/daily?to=20261120')).status).toBe(400);
  });
});

describe('GET /isr-metrics/affiliates', () => {
  it('orders affiliates by net revenue and limits them', async () => {
    expect((await ok('/isr-metrics/affiliates')).rows).toEqual([
      { affiliate: 'partnerx', amount_cents: 10692, events: 1 },
      { affiliate: 'superaff', amount_cents: 4900, events: 3 },
      { affiliate: 'bestdeals', amount_cents: 500, events: 1 },
    ]);
    expect(
      (await ok('/isr-metrics/affiliates?limit=2')).rows.map(
        (r: { affiliate: string }) => r.affiliate,
      ),
    ).toEqual(['partnerx', 'superaff']);
    expect(
      (await ok('/isr-metrics/affiliates?to=2026-11-20')).rows.find(
        (r: { affiliate: string }) => r.affiliate === 'bestdeals',
      ),
    ).toEqual({
      affiliate: 'bestdeals',
      amount_cents: 3400,
      events: 2,
    });
    expect((await ok('/isr-metrics/affiliates?from=2020-01-01&to=2020-01-02')).rows).toEqual([]);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'from=nope'])(
    'answers 400 JSON for %s',
    async (qs) => {
      const res = await get(`/isr-metrics/affiliates?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
    },
  );
});

describe('GET /isr-events', () => {
  const ids = async (qs: string): Promise<number[]> =>
    ((await ok(`/isr-events${qs}`)).rows as Array<{ id: number }>).map((r) => r.id);

  it('lists every event newest first with the §3 row fields and the total', async () => {
    const body = await ok('/isr-events');
    expect(body.total).toBe(7);
    expect(body.rows.map((r: { id: number }) => r.id)).toEqual([7, 5, 4, 3, 2, 1, 6]);
    expect(body.rows[5]).toEqual({
      id: 1,
      created_at: '2026-11-10T08:00:00.000Z',
      source: 'clickbank',
      order_id: 'CBREC1',
      receipt: 'CBREC1',
      product_id: 'mg-pro-y',
      amount_cents: 4900,
      currency: 'USD',
      affiliate: 'superaff',
      subid: 'fb01',
      campaign: 'evergreen-vsl',
      customer_email: 'bob@example.com',
      referrer: 'https://superaff.example.net/review',
    });
    expect(body).toMatchObject({ page: 1, pageSize: 50 });
  });

  it('matches q against receipt, order id, affiliate, email and campaign (substring, any case), not subid', async () => {
    expect(await ids('?q=cbrec1')).toEqual([3, 2, 1]);
    expect(await ids('?q=3000001')).toEqual([4]);
    expect(await ids('?q=SUPER')).toEqual([3, 2, 1]);
    expect(await ids('?q=ada%40')).toEqual([4]);
    expect(await ids('?q=search-brand')).toEqual([4]);
    expect(await ids('?q=fb01')).toEqual([]);
    expect(await ids('?q=50%25_')).toEqual([7]);
    expect(await ids('?q=%25')).toEqual([7]);
    expect(await ids('?q=_')).toEqual([7, 5]); // '50%_off' and dave_x@example.com
    expect(await ids('?q=%20%20')).toEqual([7, 5, 4, 3, 2, 1, 6]);
  });

  it('applies the exact filters, the time range and combinations', async () => {
    expect(await ids('?source=clickbank')).toEqual([3, 2, 1, 6]);
    expect(await ids('?source=ClickBank')).toEqual([3, 2, 1, 6]);
    expect(await ids('?source=any')).toHaveLength(7);
    expect(await ids('?source=custom')).toEqual([7]);
    expect(await ids('?affiliate=superaff')).toEqual([3, 2, 1]);
    expect(await ids('?affiliate=super')).toEqual([]);
    expect(await ids('?subid=fb01')).toEqual([3, 2, 1]);
    expect(await ids('?receipt=CBREC1')).toEqual([1]);
    expect(await ids('?order_id=3000004')).toEqual([5]);
    expect(await ids('?time_from=2026-11-15%2000:00:00&time_to=2026-11-18%2023:59:59')).toEqual([
      4, 3, 2,
    ]);
    expect(await ids('?time_to=2026-11-10')).toEqual([1, 6]);
    expect(await ids('?source=clickbank&q=cbrec1-b1&time_from=2026-11-16')).toEqual([3]);
  });

  it('pages with the total of every match', async () => {
    const page2 = await ok('/isr-events?pageSize=2&page=2');
    expect(page2.rows.map((r: { id: number }) => r.id)).toEqual([4, 3]);
    expect(page2.total).toBe(7);
    const beyond = await ok('/isr-events?pageSize=2&page=9');
    expect(beyond).toMatchObject({ rows: [], total: 7, page: 9 });
    expect(await ok('/isr-events?q=nothing-matches')).toMatchObject({ rows: [], total: 0 });
  });

  it.each([
    ['page=0', /page must be/],
    ['pageSize=201', /pageSize must be/],
    ['pageSize=ten', /pageSize must be/],
    ['time_from=2026-11-31', /time_from must be/],
    ['time_from=2026-11-10&time_to=2026-11-01', /after/],
    ['q=a%00b', /control characters/],
    [`q=${'x'.repeat(201)}`, /at most 200/],
    [`affiliate=${'x'.repeat(201)}`, /at most 200/],
  ])('answers 400 JSON for %s', async (qs, message) => {
    const res = await get(`/isr-events?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(message);
  });
});

describe('parseInstant', () => {
  it('reads days, console date-times and ISO 8601, and refuses impossible ones', () => {
    expect(parseInstant('2026-11-20')).toEqual({ ms: Date.UTC(2026, 10, 20), unitMs: 86_400_000 });
    expect(parseInstant('2026-11-20 09:30:15')).toEqual({
      ms: Date.UTC(2026, 10, 20, 9, 30, 15),
      unitMs: 1000,
    });
    expect(parseInstant('2026-11-20T09:30')).toEqual({
      ms: Date.UTC(2026, 10, 20, 9, 30),
      unitMs: 60_000,
    });
    expect(parseInstant('2026-11-20T09:30:15.250Z')).toEqual({
      ms: Date.UTC(2026, 10, 20, 9, 30, 15, 250),
      unitMs: 1,
    });
    expect(parseInstant('2026-11-20T09:30:00-05:00')?.ms).toBe(Date.UTC(2026, 10, 20, 14, 30));
    expect(parseInstant('2026-11-20T09:30:00+0530')?.ms).toBe(Date.UTC(2026, 10, 20, 4, 0));
    for (const bad of [
      '',
      '2026-11-20 24:00:00',
      '2026-02-29',
      '2026-11-20T09:60',
      '20-11-2026',
      '2026-11-20Z+01:00',
      '2026-11-20T09:00+15:00',
    ]) {
      expect(parseInstant(bad)).toBeNull();
    }
  });
});

describe('ISR endpoints on seeded demo data', () => {
  beforeAll(async () => {
    await resetDb(db);
    await seedDemoData(db, { customers: 300, seed: 5, now: NOW });
  }, 60_000);

  it('agree with the table and with each other over all time and over 30 days', async () => {
    for (const qs of ['?to=2026-11-20', '?from=2026-10-22%2000:00:00&to=2026-11-20%2023:59:59']) {
      const summary = (await ok(`/isr-metrics/summary${qs}`)) as IsrSummaryJson;
      const daily = (await ok(`/isr-metrics/daily${qs}`)).rows as IsrDailyRowJson[];
      expect(daily.reduce((s, r) => s + r.events, 0)).toBe(summary.total_events);
      expect(summary.clickbank_events + summary.lemonsqueezy_events).toBe(summary.total_events);
      expect(
        Math.abs(daily.reduce((s, r) => s + r.amount_cents, 0) - summary.total_amount_cents),
      ).toBeLessThanOrEqual(daily.length);
      expect(summary.total_amount_cents).toBeGreaterThan(0);
      const top = (await ok(`/isr-metrics/affiliates${qs}`)).rows as Array<{
        amount_cents: number;
      }>;
      expect(top.length).toBeGreaterThan(3);
      expect(top.length).toBeLessThanOrEqual(12);
      expect(top.map((r) => r.amount_cents)).toEqual(
        [...top.map((r) => r.amount_cents)].sort((a, b) => b - a),
      );
    }
    const all = (await ok('/isr-metrics/summary?to=2026-11-20')) as IsrSummaryJson;
    const table = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM isr_events');
    expect(all.total_events).toBe(table.rows[0]?.n);
    const list = await ok('/isr-events?source=clickbank&time_to=2026-11-20');
    expect(list.total).toBe(all.clickbank_events);
    expect(list.rows).toHaveLength(50);
  });

  it('counts a search up to 1,000 matches (totalCapped past it) and still pages exactly', async () => {
    // 1,100 events whose campaign holds 'capcheck', one a minute (newest last inserted).
    await db.exec(`
      INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, campaign, created_at)
      SELECT 'clickbank', 'sale', 'CAP' || g, 'CAP' || g, 100, 'USD', 'capcheck-' || g,
             '2026-11-19T00:00:00Z'::timestamptz + make_interval(mins => g)
        FROM generate_series(1, 1100) g`);
    try {
      const first = await ok('/isr-events?q=capcheck');
      expect(first).toMatchObject({ total: 1000, totalCapped: true, page: 1, pageSize: 50 });
      expect(first.rows.map((r: { receipt: string }) => r.receipt).slice(0, 3)).toEqual([
        'CAP1100',
        'CAP1099',
        'CAP1098',
      ]);
      // Past the cap the page is still the exact slice of every match.
      const last = await ok('/isr-events?q=capcheck&page=22&pageSize=50');
      expect(last.totalCapped).toBe(true);
      expect(last.rows.map((r: { receipt: string }) => r.receipt)).toEqual(
        Array.from({ length: 50 }, (_, i) => `CAP${50 - i}`),
      );
      expect((await ok('/isr-events?q=capcheck&page=23&pageSize=50')).rows).toEqual([]);
      // 1,000 matches exactly: counted, not capped; fewer on a later page: counted too.
      const exactly = await ok(
        '/isr-events?q=capcheck&time_from=2026-11-19%2001:41:00&time_to=2026-11-19%2018:20:00',
      );
      expect(exactly).toMatchObject({ total: 1000, totalCapped: false });
      const some = await ok('/isr-events?q=capcheck-10&page=2&pageSize=5');
      // capcheck-10, -100..-109 and -1000..-1099
      expect(some).toMatchObject({ total: 111, totalCapped: false });
      // Without q totals stay exact, however many.
      const table = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM isr_events');
      expect(await ok('/isr-events?page=2')).toMatchObject({
        total: table.rows[0]?.n,
        totalCapped: false,
      });
      expect(table.rows[0]?.n).toBeGreaterThan(1000);
    } finally {
      await db.exec("DELETE FROM isr_events WHERE order_id LIKE 'CAP%'");
    }
  });

  it('counts a common search from the newest events and a rare one through the index, the same totals', async () => {
    // Per affiliate, events one a minute (the highest g newest); the campaign or email carries the
    // searched text. 'commonnew': every other one of 6,000 (the probe finds 1,000, the walk of the
    // newest 3,003 then 1,001); 'allnew': the newest 1,500 (past the cap within the probe).
    // 'fallcheck': every other one of the newest 2,000, then none for 1,003, then the oldest 200
    // (the walk of 3,003 falls short at 1,000; the index then finds the rest). 'fallexact': the
    // same without the oldest 200. 'walkshort': every 20th, the probe's last event among them (5 %
    // of the probe: the walk of 30,030 reads all 3,300, going on after that event). 'rarecheck':
    // 3 events (under 2 % of the probe).
    await db.exec(`
      INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, affiliate, campaign,
                              customer_email, created_at)
      SELECT 'clickbank', 'sale', 'PRB-' || a || '-' || g, 'PRB-' || a || '-' || g, 100, 'USD', 'probe-' || a,
             CASE WHEN a = 'a' AND g % 2 = 0 THEN 'commonnew'
                  WHEN a = 'b' AND ((g > 1300 AND g % 2 = 0) OR g <= 200) THEN 'fallcheck'
                  WHEN a = 'c' AND g > 1300 AND g % 2 = 0 THEN 'fallexact'
                  ELSE 'plain' END,
             CASE WHEN a = 'a' AND g > 4500 THEN 'allnew@example.com'
                  WHEN a = 'c' AND g IN (7, 1502, 3002) THEN 'rarecheck@example.com'
                  WHEN a = 'c' AND g % 20 = 1 THEN 'walkshort@example.com' END,
             '2026-11-01T00:00:00Z'::timestamptz + make_interval(mins => g)
        FROM (VALUES ('a', 6000), ('b', 3300), ('c', 3300)) s(a, n), generate_series(1, n) g`);
    try {
      const cases: Array<[string, { total: number; totalCapped: boolean }]> = [
        ['q=commonnew&affiliate=probe-a', { total: 1000, totalCapped: true }],
        ['q=allnew&affiliate=probe-a', { total: 1000, totalCapped: true }],
        // Under 2,000 events under the filters: all of them read by the probe.
        [
          'q=commonnew&affiliate=probe-a&time_from=2026-11-04%2011:21:00',
          { total: 500, totalCapped: false },
        ],
        ['q=fallcheck&affiliate=probe-b', { total: 1000, totalCapped: true }],
        ['q=fallexact&affiliate=probe-c', { total: 1000, totalCapped: false }],
        ['q=walkshort&affiliate=probe-c', { total: 165, totalCapped: false }],
        ['q=rarecheck&affiliate=probe-c', { total: 3, totalCapped: false }],
        ['q=rarecheck', { total: 3, totalCapped: false }],
      ];
      for (const [query, expected] of cases) {
        const body = await ok(`/isr-events?${query}&page=2&pageSize=1`);
        expect(body, query).toMatchObject(expected);
        // The same as counting every match.
        const params = new URLSearchParams(query);
        const exact = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM isr_events
            WHERE isr_search_text(receipt, order_id, affiliate, customer_email, campaign) LIKE $1
              AND ($2::text IS NULL OR affiliate = $2) AND ($3::timestamptz IS NULL OR created_at >= $3)`,
          [`%${params.get('q')}%`, params.get('affiliate'), params.get('time_from')],
        );
        const n = exact.rows[0]?.n ?? 0;
        expect({ total: Math.min(n, 1000), totalCapped: n > 1000 }, query).toEqual(expected);
      }
    } finally {
      await db.exec("DELETE FROM isr_events WHERE order_id LIKE 'PRB-%'");
    }
  });

  it('finds a seeded affiliate by search and by exact filter', async () => {
    const byQ = await ok('/isr-events?q=superaff&source=clickbank');
    const exact = await ok('/isr-events?affiliate=superaff');
    expect(byQ.total).toBeGreaterThan(0);
    expect(byQ.total).toBeGreaterThanOrEqual(exact.total);
    expect(exact.rows.every((r: { affiliate: string }) => r.affiliate === 'superaff')).toBe(true);
  });
});
