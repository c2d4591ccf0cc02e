/**
 * GET /isr-metrics/summary, /daily and /affiliates read whole UTC
 * days from the daily roll-ups of migration 006 (isr_daily, isr_daily_affiliate) and partial edge
 * days from raw rows. Their answers must equal the raw-row answers for any range — whole days,
 * partial days, open ends, offsets — and stay equal after inserts, updates and deletes of
 * isr_events (the statement-level triggers keep the roll-ups exact). The roll-ups are also
 * compared with a fresh aggregation of the raw rows (isr_rollup_rebuild's definition). The events
 * list's total by subid reads isr_daily_subid (migration 022) the same way.
 *
 * Dataset: the demo seed (its COPY bypasses the triggers; the seed rebuilds the roll-ups) plus
 * rows in other currencies, with blank and null affiliates, and rows straddling UTC midnight.
 */
import type { Db } from '../db/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../seed';
import { createRng } from '../seed/prng';
import { freshDb, testDeps } from '../testing/app';
import type { AppDeps } from '../context';
import { isrAffiliates, isrDaily, isrSummary, listIsrEvents, splitRangeByDay } from './isr';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;
/** The seed spans two years back from NOW; ranges are drawn a little wider than that. */
const SPAN_START = Date.UTC(2024, 9, 1);
const SPAN_END = Date.UTC(2026, 11, 31);

let db: Db;
let deps: AppDeps;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 300, seed: 5, now: NOW });
  // Rows the seed does not make: EUR / GBP / an unrated currency, blank and null affiliates,
  // timestamps a millisecond either side of UTC midnight (through the INSERT trigger).
  await db.exec(`
    INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, affiliate, created_at)
    VALUES ('clickbank', 'sale', 'X1', 'X1', 1999, 'EUR', 'zeta', '2026-11-10T23:59:59.999Z'),
           ('clickbank', 'sale', 'X2', 'X2', 2999, 'EUR', 'zeta', '2026-11-11T00:00:00.000Z'),
           ('lemonsqueezy', 'refund', 'X3', 'X3', -999, 'GBP', '', '2026-11-11T00:00:00.001Z'),
           ('lemonsqueezy', 'sale', 'X4', 'X4', 4999, 'JPY', NULL, '2026-11-12T13:30:00Z'),
           ('custom-src', 'sale', 'X5', 'X5', 500, 'USD', 'zeta', '2026-11-20T06:00:00Z');
    UPDATE isr_events SET subid = '' WHERE order_id IN ('X1', 'X3');`);
  const common = await db.query<{ subid: string }>(
    `SELECT subid FROM isr_events WHERE subid <> '' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
  );
  SUBIDS.push(common.rows[0]?.subid ?? 'missing', 'no-such-subid');
  deps = testDeps(db, NOW, { fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 } });
}, 180_000);
afterAll(async () => {
  await db?.close();
});

/** 'YYYY-MM-DD' of epoch ms. */
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `n` random range queries (seeded): each end absent, a day, a console date-time
 * ('YYYY-MM-DD HH:MM:SS'), ISO with 'Z' and milliseconds, or ISO with an offset; about half of the
 * ends fall on UTC midnight (whole days), and from is always before to.
 */
function randomRanges(seed: number, n: number): Record<string, string>[] {
  const rng = createRng(seed);
  const instant = (ms: number): string => {
    const iso = new Date(ms).toISOString();
    switch (rng.int(0, 3)) {
      case 0:
        return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
      case 1:
        return iso;
      case 2: {
        // The same instant written at +02:00.
        const local = new Date(ms + 2 * 3_600_000).toISOString();
        return `${local.slice(0, 19)}+02:00`;
      }
      default:
        return `${iso.slice(0, 16)}`;
    }
  };
  const out: Record<string, string>[] = [];
  while (out.length < n) {
    const a = SPAN_START + Math.floor(rng.next() * (SPAN_END - SPAN_START));
    const len = rng.chance(0.5) ? rng.int(1, 60) * DAY_MS : rng.int(1, 72) * 3_600_000;
    const whole = rng.chance(0.5);
    const from = whole ? Math.floor(a / DAY_MS) * DAY_MS : Math.floor(a / 60_000) * 60_000;
    const to = from + len;
    const q: Record<string, string> = {};
    const shape = rng.int(0, 9);
    if (shape !== 0) q.from = whole && rng.chance(0.5) ? dayText(from) : instant(from);
    if (shape !== 1) {
      // A day-only `to` includes its whole day: name the day before the exclusive end.
      q.to = to % DAY_MS === 0 && rng.chance(0.5) ? dayText(to - DAY_MS) : instant(to);
    }
    if (q.from === undefined && q.to === undefined) continue;
    out.push(q);
  }
  return out;
}

/**
 * Every aggregate answer for `q`, and the event list's page 2 (its total is counted) over the
 * same range for each source choice, read from the roll-ups (true) or from raw rows only (false).
 */
async function answers(q: Record<string, string>, rollup: boolean) {
  const lists = [];
  for (const source of [undefined, 'clickbank', 'lemonsqueezy', 'custom-src', 'any']) {
    const list = { time_from: q.from, time_to: q.to, source, page: '2', pageSize: '3' };
    lists.push(await listIsrEvents(deps, list, { rollup }));
    // By subid (isr_daily_subid): a common one and one no event has.
    for (const subid of SUBIDS) {
      lists.push(await listIsrEvents(deps, { ...list, subid }, { rollup }));
    }
  }
  return {
    summary: await isrSummary(deps, q, { rollup }),
    daily: await isrDaily(deps, q, { rollup }),
    affiliates: await isrAffiliates(deps, { ...q, limit: '100' }, { rollup }),
    lists,
  };
}

/** Subids the list totals are checked for: the seed's commonest and one no event has (a blank subid is no filter). */
const SUBIDS: string[] = [];

/** Asserts roll-up and raw answers are identical for `ranges`; returns how many had events. */
async function expectSameAnswers(ranges: Record<string, string>[]): Promise<number> {
  let withEvents = 0;
  for (const q of ranges) {
    const viaRollup = await answers(q, true);
    const viaRows = await answers(q, false);
    expect(viaRollup, JSON.stringify(q)).toEqual(viaRows);
    // The raw-row list total is the plain count of the range's events (the list has no default
    // range, the aggregates the last 14 days: compare only given ranges).
    const all = viaRows.lists[0]!;
    if (q.from !== undefined || q.to !== undefined) {
      expect(all.total).toBe(viaRows.summary.total_events);
    }
    if (viaRows.summary.total_events > 0) withEvents++;
  }
  return withEvents;
}

/** Asserts both roll-ups hold exactly a fresh aggregation of isr_events (no extra, no missing, no zero keys). */
async function expectRollupsExact(): Promise<void> {
  const diff = await db.query<{ n: number }>(`
    WITH fresh AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, source, currency, count(*)::int AS events,
             sum(amount_cents)::bigint AS amount_cents
        FROM isr_events GROUP BY 1, 2, 3),
    fresh_aff AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, affiliate, currency, count(*)::int AS events,
             sum(amount_cents)::bigint AS amount_cents
        FROM isr_events WHERE affiliate IS NOT NULL AND affiliate <> '' GROUP BY 1, 2, 3),
    fresh_subid AS (
      SELECT subid, source, (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS events,
             COALESCE(sum(amount_cents), 0)::bigint AS amount_cents
        FROM isr_events WHERE subid IS NOT NULL GROUP BY 1, 2, 3)
    SELECT ((SELECT count(*) FROM ((SELECT * FROM fresh EXCEPT ALL SELECT * FROM isr_daily)
                                   UNION ALL (SELECT * FROM isr_daily EXCEPT ALL SELECT * FROM fresh)) a)
          + (SELECT count(*) FROM ((SELECT * FROM fresh_aff EXCEPT ALL SELECT * FROM isr_daily_affiliate)
                                   UNION ALL (SELECT * FROM isr_daily_affiliate EXCEPT ALL SELECT * FROM fresh_aff)) b)
          + (SELECT count(*) FROM ((SELECT * FROM fresh_subid EXCEPT ALL SELECT * FROM isr_daily_subid)
                                   UNION ALL (SELECT * FROM isr_daily_subid EXCEPT ALL SELECT * FROM fresh_subid)) c))::int AS n`);
  expect(diff.rows[0]?.n).toBe(0);
}

describe('splitRangeByDay', () => {
  const d = (s: string) => new Date(s);
  it('keeps a whole-day range whole, with no raw edges', () => {
    expect(
      splitRangeByDay({ from: d('2026-11-01T00:00:00Z'), toExclusive: d('2026-11-08T00:00:00Z') }),
    ).toEqual({ days: { from: '2026-11-01', toExclusive: '2026-11-08' }, edges: [] });
  });
  it('reads partial first and last days from raw rows', () => {
    expect(
      splitRangeByDay({ from: d('2026-11-01T06:00:00Z'), toExclusive: d('2026-11-08T00:00:01Z') }),
    ).toEqual({
      days: { from: '2026-11-02', toExclusive: '2026-11-08' },
      edges: [
        { from: d('2026-11-01T06:00:00Z'), toExclusive: d('2026-11-02T00:00:00Z') },
        { from: d('2026-11-08T00:00:00Z'), toExclusive: d('2026-11-08T00:00:01Z') },
      ],
    });
  });
  it('keeps open ends open', () => {
    expect(splitRangeByDay({ from: d('2026-11-01T00:00:00Z'), toExclusive: null })).toEqual({
      days: { from: '2026-11-01', toExclusive: null },
      edges: [],
    });
    expect(splitRangeByDay({ from: null, toExclusive: d('2026-11-01T12:00:00Z') })).toEqual({
      days: { from: null, toExclusive: '2026-11-01' },
      edges: [{ from: d('2026-11-01T00:00:00Z'), toExclusive: d('2026-11-01T12:00:00Z') }],
    });
  });
  it('reads a range inside one day (or across one midnight) from raw rows only', () => {
    const inDay = { from: d('2026-11-01T06:00:00Z'), toExclusive: d('2026-11-01T18:00:00Z') };
    expect(splitRangeByDay(inDay)).toEqual({ days: null, edges: [inDay] });
    const across = { from: d('2026-11-01T18:00:00Z'), toExclusive: d('2026-11-02T06:00:00Z') };
    expect(splitRangeByDay(across)).toEqual({ days: null, edges: [across] });
  });
});

describe('ISR aggregates from the roll-ups equal the raw-row answers', () => {
  it('the seed rebuilt both roll-ups exactly', async () => {
    // Rows added by INSERT after the seed went through the trigger; the seed's own by the rebuild.
    const n = await db.query<{ d: number; a: number }>(
      'SELECT (SELECT count(*) FROM isr_daily)::int AS d, (SELECT count(*) FROM isr_daily_affiliate)::int AS a',
    );
    expect(n.rows[0]?.d).toBeGreaterThan(100);
    expect(n.rows[0]?.a).toBeGreaterThan(100);
    await expectRollupsExact();
  });

  it('for the default range, whole days, partial days and open ends', async () => {
    const fixed: Record<string, string>[] = [
      {},
      { from: '2026-11-09', to: '2026-11-22' },
      { from: '2026-11-09 00:00:00', to: '2026-11-22 23:59:59' },
      { from: '2026-11-10 23:59:59', to: '2026-11-11 00:00:00' },
      { from: '2026-11-10T23:59:59.999Z', to: '2026-11-11T00:00:00.000Z' },
      { from: '2026-11-11T00:00:00.001Z', to: '2026-11-30' },
      { from: '2026-11-11T01:00:00+02:00', to: '2026-11-12T13:30' },
      { to: '2026-11-11' },
      { from: '2025-11-23' },
      { from: '2024-11-01', to: '2026-11-22' },
    ];
    expect(await expectSameAnswers(fixed)).toBeGreaterThan(5);
  });

  it('the list total by subid is the plain count of its events, with and without source and range', async () => {
    const cases: Array<{ subid: string; source?: string; from?: string; to?: string }> = [];
    for (const subid of SUBIDS) {
      cases.push({ subid }, { subid, source: 'clickbank' }, { subid, source: 'lemonsqueezy' });
      cases.push({ subid, from: '2026-06-01T00:00:00Z', to: '2026-11-11T06:30:00Z' });
      cases.push({ subid, source: 'clickbank', from: '2025-12-24T13:00:00Z' });
    }
    let nonZero = 0;
    for (const c of cases) {
      const params: unknown[] = [c.subid];
      const where = ['subid = $1'];
      if (c.source) where.push(`source = $${params.push(c.source)}`);
      if (c.from) where.push(`created_at >= $${params.push(c.from)}::timestamptz`);
      if (c.to) where.push(`created_at <= $${params.push(c.to)}::timestamptz`);
      const want = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM isr_events WHERE ${where.join(' AND ')}`,
        params,
      );
      const q = { subid: c.subid, source: c.source, time_from: c.from, time_to: c.to };
      const list = await listIsrEvents(deps, { ...q, page: '2', pageSize: '3' });
      expect(list.total, JSON.stringify(c)).toBe(want.rows[0]?.n);
      if (list.total > 0) nonZero++;
    }
    expect(nonZero).toBeGreaterThanOrEqual(3);
  });

  it('for 120 random ranges', async () => {
    expect(await expectSameAnswers(randomRanges(17, 120))).toBeGreaterThan(40);
  });

  it('after inserts, updates and deletes (single rows and whole statements)', async () => {
    // A bulk INSERT … SELECT: shifted copies, some into new keys (currency, affiliate, day).
    await db.exec(`
      INSERT INTO isr_events (source, kind, order_id, receipt, amount_cents, currency, affiliate, created_at)
      SELECT source, kind, order_id || '-C', receipt || '-C', amount_cents,
             CASE WHEN id % 7 = 0 THEN 'EUR' ELSE currency END,
             CASE WHEN id % 5 = 0 THEN NULL WHEN id % 5 = 1 THEN 'copycat' ELSE affiliate END,
             created_at - make_interval(mins => (id % 1440)::int)
        FROM isr_events WHERE id % 3 = 0`);
    // Updates moving rows between days, sources, affiliates and currencies, and changing amounts.
    await db.exec(`
      UPDATE isr_events SET created_at = created_at + interval '13 hours' WHERE id % 11 = 0;
      UPDATE isr_events SET affiliate = CASE WHEN affiliate IS NULL THEN 'adopted' ELSE '' END WHERE id % 13 = 0;
      UPDATE isr_events SET currency = 'GBP' WHERE id % 17 = 0;
      UPDATE isr_events SET amount_cents = amount_cents * 2 WHERE id % 19 = 0;
      UPDATE isr_events SET source = 'lemonsqueezy' WHERE id % 23 = 0 AND source = 'clickbank';
      UPDATE isr_events SET referrer = 'https://changed.example' WHERE id % 29 = 0;
      UPDATE isr_events SET subid = CASE WHEN subid IS NULL THEN 'adopted-subid' ELSE NULL END WHERE id % 37 = 0;`);
    // Deletes: scattered rows, one whole key (every 'zeta' row) and a single row.
    await db.exec(`
      DELETE FROM isr_events WHERE id % 31 = 0;
      DELETE FROM isr_events WHERE affiliate = 'zeta';
      DELETE FROM isr_events WHERE id = (SELECT min(id) FROM isr_events);`);
    await expectRollupsExact();
    expect(await expectSameAnswers(randomRanges(29, 80))).toBeGreaterThan(25);
    // One more round on top, in a transaction that rolls back: the roll-ups roll back with it.
    await db
      .transaction(async (tx) => {
        await tx.exec('DELETE FROM isr_events WHERE id % 2 = 0');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await expectRollupsExact();
  });

  it('a rebuild reproduces what the triggers kept, and TRUNCATE empties both', async () => {
    const before = await db.query('SELECT * FROM isr_daily_affiliate ORDER BY 1, 2, 3');
    await db.query('SELECT isr_rollup_rebuild()');
    const after = await db.query('SELECT * FROM isr_daily_affiliate ORDER BY 1, 2, 3');
    expect(after.rows).toEqual(before.rows);
    await expectRollupsExact();
    const subidBefore = await db.query('SELECT * FROM isr_daily_subid ORDER BY 1, 2, 3');
    await db.query('SELECT isr_subid_rebuild()');
    expect((await db.query('SELECT * FROM isr_daily_subid ORDER BY 1, 2, 3')).rows).toEqual(
      subidBefore.rows,
    );
    await db.exec('TRUNCATE isr_events');
    const n = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM isr_daily)::int + (SELECT count(*) FROM isr_daily_affiliate)::int
              + (SELECT count(*) FROM isr_daily_subid)::int AS n`,
    );
    expect(n.rows[0]?.n).toBe(0);
    expect((await isrSummary(deps, { from: '2024-01-01' })).total_events).toBe(0);
  });
});
