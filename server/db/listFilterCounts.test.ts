/**
 * The kept counts behind the Users and Subscriptions totals (migration 027): after the seed, after
 * random changes to subscriptions and members (a rolled-back one included), inserts, deletes, a
 * rebuild and a truncate, they equal a recount of the tables; and the list routes answer, for
 * every broad filter and sort, the total and the page rows that plain SQL over the tables
 * answers. On PostgreSQL, a subscription's change and its member's change written at the same
 * time from two connections, in either order, leave the counts exact.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './types';
import { seedDemoData } from '../seed';
import { freshDb, testDeps } from '../testing/app';
import { raceOnTwoConnections, testDatabaseUrl } from '../testing/database';
import { listUsers } from '../routes/users';
import { listSubscriptions } from '../routes/subscriptions';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let db: Db;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 300, seed: 27, now: NOW });
  await db.exec(`
    -- A member without a subscription, and active members whose expiry has passed (the expiry
    -- job has not run): the Users filters that depend on now must count them right.
    INSERT INTO customers (email) VALUES ('no.subscription@example.com');
    INSERT INTO members (customer_id, mg_status)
      SELECT id, 'active' FROM customers WHERE email = 'no.subscription@example.com';
    UPDATE members SET mg_status = 'active', expires_at = '2026-11-20T00:00:00Z'
     WHERE id IN (SELECT id FROM members WHERE subscription_id IS NOT NULL ORDER BY id LIMIT 7);
    -- Two whose expiry is exactly now: active, not scheduled.
    UPDATE members SET mg_status = 'active', expires_at = '2026-11-22T12:00:00.000Z'
     WHERE id IN (SELECT id FROM members WHERE subscription_id IS NOT NULL ORDER BY id DESC LIMIT 2);
  `);
}, 180_000);
afterAll(async () => {
  await db?.close();
});

/** The kept day counts of migration 033 (rows that came to nothing left out) and a recount, alike. */
async function dayCounts(on: Db = db) {
  const kept = await on.query(
    `SELECT dim, to_char(day, 'YYYY-MM-DD') AS day, provider, status, cadence, n::int AS n
       FROM list_day_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5`,
  );
  const actual = await on.query(
    `SELECT dim, to_char(day, 'YYYY-MM-DD') AS day, provider, status, cadence, n FROM (
       SELECT 'start' AS dim, (start_date AT TIME ZONE 'UTC')::date AS day, provider, status, cadence,
              count(*)::int AS n
         FROM subscriptions WHERE start_date IS NOT NULL GROUP BY 1, 2, 3, 4, 5
       UNION ALL
       SELECT 'renew', (current_period_end AT TIME ZONE 'UTC')::date, provider, status, cadence, count(*)::int
         FROM subscriptions WHERE current_period_end IS NOT NULL GROUP BY 1, 2, 3, 4, 5) x
     ORDER BY 1, 2, 3, 4, 5`,
  );
  return { kept: kept.rows, actual: actual.rows };
}

/** The kept counts (rows that came to nothing left out) and a recount of the tables, alike. */
async function counts(on: Db = db) {
  const kept = await on.query(
    `SELECT list, provider, status, cadence, mg_status, dated, n::int AS n FROM list_filter_counts
      WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  const actual = await on.query(
    `SELECT * FROM (
       SELECT 'subscriptions' AS list, provider, status, cadence, '' AS mg_status, false AS dated, count(*)::int AS n
         FROM subscriptions GROUP BY 2, 3, 4
       UNION ALL
       SELECT 'users', COALESCE(s.provider, ''), COALESCE(s.status, ''), COALESCE(s.cadence, ''), m.mg_status,
              m.expires_at IS NOT NULL, count(*)::int
         FROM members m LEFT JOIN subscriptions s ON s.id = m.subscription_id GROUP BY 2, 3, 4, 5, 6) x
     ORDER BY 1, 2, 3, 4, 5, 6`,
  );
  return { kept: kept.rows, actual: actual.rows };
}

async function expectExact(on: Db = db): Promise<void> {
  const c = await counts(on);
  expect(c.actual.length).toBeGreaterThan(0);
  expect(c.kept).toEqual(c.actual);
  const d = await dayCounts(on);
  expect(d.actual.length).toBeGreaterThan(0);
  expect(d.kept).toEqual(d.actual);
  expect((await on.query('SELECT 1 FROM list_filter_counts_pending')).rows).toHaveLength(0);
}

describe('kept list counts (migrations 027 and 033)', () => {
  it('equal a recount after the seed', async () => {
    await expectExact();
  });

  it('follow random changes to subscriptions and members, folded at commit', async () => {
    const ids = async (sql: string) =>
      (await db.query<{ id: number }>(sql)).rows.map((r) => Number(r.id));
    const subs = await ids(`SELECT id FROM subscriptions ORDER BY id LIMIT 30`);
    const members = await ids(`SELECT id FROM members ORDER BY id LIMIT 16`);
    const change = fc.oneof(
      fc.record({
        kind: fc.constant('subscription' as const),
        id: fc.constantFrom(...subs),
        provider: fc.constantFrom('lemonsqueezy', 'clickbank'),
        status: fc.constantFrom('active', 'on_trial', 'past_due', 'cancelled', 'expired', 'paused'),
        cadence: fc.constantFrom('monthly', 'yearly'),
      }),
      // A renewal or a corrected start: the day counts move (a shift under a day may keep the day).
      fc.record({
        kind: fc.constant('dates' as const),
        id: fc.constantFrom(...subs),
        startShiftHours: fc.integer({ min: -60, max: 60 }),
        renewShiftHours: fc.option(fc.integer({ min: -60, max: 800 })),
      }),
      fc.record({
        kind: fc.constant('member' as const),
        id: fc.constantFrom(...members),
        subscription: fc.option(fc.constantFrom(...subs)),
        active: fc.boolean(),
        expiresInHours: fc.option(fc.integer({ min: -900, max: 900 })),
      }),
      // Columns outside the keys: no count moves.
      fc.record({ kind: fc.constant('touch' as const), id: fc.constantFrom(...members) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (changes, rollback) => {
          const apply = db.transaction(async (tx) => {
            for (const c of changes) {
              if (c.kind === 'subscription') {
                await tx.query(
                  `UPDATE subscriptions SET provider = $2, status = $3, cadence = $4 WHERE id = $1`,
                  [c.id, c.provider, c.status, c.cadence],
                );
              } else if (c.kind === 'dates') {
                await tx.query(
                  `UPDATE subscriptions SET start_date = start_date + make_interval(hours => $2),
                          current_period_end = CASE WHEN $3::int IS NULL THEN NULL
                            ELSE COALESCE(current_period_end, start_date) + make_interval(hours => $3::int) END
                    WHERE id = $1`,
                  [c.id, c.startShiftHours, c.renewShiftHours],
                );
              } else if (c.kind === 'member') {
                const expires =
                  c.expiresInHours === null
                    ? null
                    : new Date(NOW.getTime() + c.expiresInHours * 3_600_000);
                await tx.query(
                  `UPDATE members SET subscription_id = $2, mg_status = $3, expires_at = $4 WHERE id = $1`,
                  [c.id, c.subscription, c.active ? 'active' : 'cancelled', expires],
                );
              } else {
                await tx.query(`UPDATE members SET updated_at = $2 WHERE id = $1`, [c.id, NOW]);
              }
            }
            if (rollback) throw new Error('roll back');
          });
          if (rollback) await expect(apply).rejects.toThrow('roll back');
          else await apply;
          await expectExact();
        },
      ),
      { numRuns: 40, seed: 2701 },
    );
  }, 120_000);

  it('follow inserts and deletes, and a rebuild gives the same counts', async () => {
    const customer = (
      await db.query<{ id: number }>(
        `INSERT INTO customers (email) VALUES ('counts.new@example.com') RETURNING id`,
      )
    ).rows[0]!.id;
    const sub = (
      await db.query<{ id: number }>(
        `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, start_date)
         VALUES ($1, 'clickbank', 'COUNTS-NEW', 'paused', 'yearly', 'Pro', $2) RETURNING id`,
        [customer, NOW],
      )
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO members (customer_id, subscription_id, mg_status, expires_at) VALUES ($1, $2, 'active', $3)`,
      [customer, sub, NOW],
    );
    await expectExact();
    await db.query(`DELETE FROM members WHERE customer_id = $1`, [customer]);
    await expectExact();
    await db.transaction(async (tx) => {
      await tx.query(`DELETE FROM revenue_movements WHERE subscription_id = $1`, [sub]);
      await tx.query(`DELETE FROM revenue_spans WHERE subscription_id = $1`, [sub]);
      await tx.query(`DELETE FROM subscriptions WHERE id = $1`, [sub]);
    });
    await expectExact();
    const incremental = (await counts()).kept;
    await db.query('SELECT list_filter_counts_rebuild()');
    expect((await counts()).kept).toEqual(incremental);
  }, 60_000);
});

/** `on`, with the SQL of every query it runs pushed to `sent`. */
function recordingDb(on: Db, sent: string[]): Db {
  return new Proxy(on, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (sql: string, params?: unknown[]) => {
          sent.push(sql);
          return target.query(sql, params);
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('list totals and pages from kept counts', () => {
  const deps = () => testDeps(db, NOW);
  /** The rows of a page as ids, and the total. */
  const ids = (r: { rows: Array<{ row_id: number }>; total: number }) => ({
    total: r.total,
    rows: r.rows.map((x) => x.row_id),
  });

  /** The Users page as plain SQL over the tables: `filter` over m and s, sort column, direction. */
  async function usersReference(
    filter: string,
    params: unknown[],
    sortSql: string,
    page: number,
    pageSize: number,
  ) {
    const from = `FROM members m JOIN customers c ON c.id = m.customer_id
      LEFT JOIN subscriptions s ON s.id = m.subscription_id WHERE ${filter}`;
    const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params))
      .rows[0]!.n;
    const rows = await db.query<{ id: number }>(
      `SELECT m.id ${from} ORDER BY ${sortSql} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
      params,
    );
    return { total, rows: rows.rows.map((r) => Number(r.id)) };
  }

  const USER_FILTERS: Array<[Record<string, string>, string, unknown[]]> = [
    [{ provider: 'clickbank' }, `s.provider = 'clickbank'`, []],
    [{ cadence: 'yearly' }, `s.cadence = 'yearly'`, []],
    [{ provider_status: 'trialing' }, `s.status IN ('trialing', 'on_trial')`, []],
    [{ mg_status: 'cancelled' }, `m.mg_status = 'cancelled'`, []],
    [
      { mg_status: 'active' },
      `m.mg_status = 'active' AND (m.expires_at IS NULL OR m.expires_at <= $1)`,
      [NOW],
    ],
    [{ mg_status: 'scheduled' }, `m.mg_status = 'active' AND m.expires_at > $1`, [NOW]],
    [
      { mg_status: 'active', provider: 'lemonsqueezy', cadence: 'monthly' },
      `m.mg_status = 'active' AND (m.expires_at IS NULL OR m.expires_at <= $1)
       AND s.provider = 'lemonsqueezy' AND s.cadence = 'monthly'`,
      [NOW],
    ],
    [
      { mg_status: 'scheduled', provider_status: 'active' },
      `m.mg_status = 'active' AND m.expires_at > $1 AND s.status = 'active'`,
      [NOW],
    ],
    // Start ranges, a date-only start_to including its day, with a time of day too.
    [
      { start_from: '2026-01-01', start_to: '2026-06-30', cadence: 'yearly' },
      `s.start_date >= '2026-01-01T00:00:00Z' AND s.start_date < '2026-07-01T00:00:00Z' AND s.cadence = 'yearly'`,
      [],
    ],
    [{ start_from: '2026-05-01' }, `s.start_date >= '2026-05-01T00:00:00Z'`, []],
    [
      { start_to: '2025-12-31', mg_status: 'scheduled', provider: 'lemonsqueezy' },
      `s.start_date < '2026-01-01T00:00:00Z' AND m.mg_status = 'active' AND m.expires_at > $1
       AND s.provider = 'lemonsqueezy'`,
      [NOW],
    ],
    [
      { start_from: '2026-03-01 06:30:00', start_to: '2026-09-30', mg_status: 'active' },
      `s.start_date >= '2026-03-01T06:30:00Z' AND s.start_date < '2026-10-01T00:00:00Z'
       AND m.mg_status = 'active' AND (m.expires_at IS NULL OR m.expires_at <= $1)`,
      [NOW],
    ],
  ];
  /** Users sorts: the query value and the ORDER BY of the list (module doc of ../routes/users). */
  const USER_SORTS: Array<[string, string]> = [
    ['-updated_at', 'm.updated_at DESC, m.id DESC'],
    ['email', 'c.email ASC, m.id ASC'],
    ['expires_at', 'm.expires_at ASC NULLS LAST, m.id ASC'],
    ['-expires_at', 'm.expires_at DESC NULLS FIRST, m.id DESC'],
    ['-start_date', 's.start_date DESC NULLS FIRST, s.id DESC NULLS FIRST, m.id DESC'],
    ['provider_status', 's.status ASC NULLS LAST, s.id ASC NULLS LAST, m.id ASC'],
  ];

  it('Users: every broad filter and sort answers the total and rows plain SQL answers', async () => {
    for (const [query, filter, params] of USER_FILTERS) {
      for (const [sort, order] of USER_SORTS) {
        // Small pages are walked (or tried, and cut when the first rows hold too few matches).
        for (const [page, pageSize] of [
          [1, 4],
          [2, 4],
          [1, 20],
          [3, 7],
          [2, 100],
        ] as const) {
          const got = await listUsers(deps(), {
            ...query,
            sort,
            page: String(page),
            pageSize: String(pageSize),
          });
          const want = await usersReference(filter, params, order, page, pageSize);
          expect({ query, sort, page, ...ids(got) }).toEqual({ query, sort, page, ...want });
        }
      }
    }
  }, 120_000);

  it('Users: an mg_status filter alone sorted by expiry reads its page off the index, no sample', async () => {
    const sent: string[] = [];
    const recording = recordingDb(db, sent);
    const branch = async (q: Record<string, string>) => {
      sent.length = 0;
      await listUsers(testDeps(recording, NOW), q);
      const sql = sent.find((s) => s.includes('list_filter_counts')) ?? '';
      return sql.includes('walk_rows') ? 'sample' : 'index';
    };
    for (const mg_status of ['active', 'scheduled', 'cancelled']) {
      expect(await branch({ mg_status, sort: 'expires_at' })).toBe('index');
      expect(await branch({ mg_status, sort: '-expires_at', page: '2' })).toBe('index');
      // Another sort, or another filter beside it: the sample.
      expect(await branch({ mg_status, sort: '-updated_at' })).toBe('sample');
      expect(await branch({ mg_status, sort: 'expires_at', provider: 'clickbank' })).toBe('sample');
    }
  });

  it('a Subscriptions range of whole UTC days is summed from the day counts, any other range is counted', async () => {
    const sent: string[] = [];
    const recording = recordingDb(db, sent);
    const read = async (
      list: (
        deps: ReturnType<typeof testDeps>,
        q: Record<string, string>,
      ) => Promise<{ total: number }>,
      q: Record<string, string>,
    ) => {
      sent.length = 0;
      const { total } = await list(testDeps(recording, NOW), q);
      const sql = sent.join('\n');
      return { total, days: sql.includes('list_day_counts'), dim: /dim = '(\w+)'/.exec(sql)?.[1] };
    };
    const start = await read(listSubscriptions, { start_from: '2026-01-01', cadence: 'monthly' });
    expect(start).toEqual({ total: expect.any(Number), days: true, dim: 'start' });
    expect(start.total).toBeGreaterThan(0);
    const renew = await read(listSubscriptions, {
      renew_from: '2026-11-23',
      renew_to: '2026-12-31',
    });
    expect(renew).toEqual({ total: expect.any(Number), days: true, dim: 'renew' });
    expect(renew.total).toBeGreaterThan(0);
    // A time of day, or two day dimensions at once: counted, with the same totals as plain SQL
    // (the test above).
    expect((await read(listSubscriptions, { start_from: '2026-01-01 00:00:01' })).days).toBe(false);
    // The Users list keeps no day counts: its start range is counted member by member.
    expect((await read(listUsers, { start_from: '2026-01-01' })).days).toBe(false);
    expect(
      (await read(listSubscriptions, { start_from: '2026-01-01', renew_from: '2026-12-01' })).days,
    ).toBe(false);
  });

  it('Subscriptions: every broad filter and sort answers the total and rows plain SQL answers', async () => {
    const filters: Array<[Record<string, string>, string]> = [
      [{ provider: 'lemonsqueezy' }, `s.provider = 'lemonsqueezy'`],
      [
        { provider_status: 'active', cadence: 'monthly' },
        `s.status = 'active' AND s.cadence = 'monthly'`,
      ],
      [
        { provider: 'clickbank', provider_status: 'cancelled' },
        `s.provider = 'clickbank' AND s.status IN ('cancelled', 'canceled')`,
      ],
      // Whole-day start and renewal ranges come from the day counts (migration 033); both at
      // once, or a bound with a time of day, are counted.
      [
        { renew_from: '2026-11-22', renew_to: '2026-12-21' },
        `s.current_period_end >= '2026-11-22T00:00:00Z' AND s.current_period_end < '2026-12-22T00:00:00Z'`,
      ],
      [
        { renew_from: '2026-12-01', provider: 'lemonsqueezy', cadence: 'monthly' },
        `s.current_period_end >= '2026-12-01T00:00:00Z' AND s.provider = 'lemonsqueezy' AND s.cadence = 'monthly'`,
      ],
      [
        { start_from: '2026-02-01', start_to: '2026-08-31', provider_status: 'active' },
        `s.start_date >= '2026-02-01T00:00:00Z' AND s.start_date < '2026-09-01T00:00:00Z' AND s.status = 'active'`,
      ],
      [
        { start_from: '2026-01-01', renew_to: '2027-01-31' },
        `s.start_date >= '2026-01-01T00:00:00Z' AND s.current_period_end < '2027-02-01T00:00:00Z'`,
      ],
      [
        { renew_from: '2026-11-22 12:00:00', renew_to: '2026-12-31' },
        `s.current_period_end >= '2026-11-22T12:00:00Z' AND s.current_period_end < '2027-01-01T00:00:00Z'`,
      ],
    ];
    const sorts: Array<[string, string, string]> = [
      ['row_id', 'desc', 's.id DESC'],
      ['email', 'asc', 'c.email ASC, s.id ASC'],
      ['current_period_end', 'desc', 's.current_period_end DESC NULLS FIRST, s.id DESC'],
      ['start_date', 'asc', 's.start_date ASC, s.id ASC'],
    ];
    for (const [query, filter] of filters) {
      for (const [sortKey, sortDir, order] of sorts) {
        for (const [page, pageSize] of [
          [1, 20],
          [4, 9],
        ] as const) {
          const got = await listSubscriptions(deps(), {
            ...query,
            sortKey,
            sortDir,
            page: String(page),
            pageSize: String(pageSize),
          });
          const from = `FROM subscriptions s JOIN customers c ON c.id = s.customer_id WHERE ${filter}`;
          const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`))
            .rows[0]!.n;
          const rows = (
            await db.query<{ id: number }>(
              `SELECT s.id ${from} ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
            )
          ).rows.map((r) => Number(r.id));
          expect({ query, sortKey, page, ...ids(got) }).toEqual({
            query,
            sortKey,
            page,
            total,
            rows,
          });
        }
      }
    }
  }, 120_000);

  it('are emptied with the tables (truncate)', async () => {
    await db.exec('TRUNCATE subscriptions, members CASCADE');
    expect((await db.query('SELECT 1 FROM list_filter_counts WHERE n <> 0')).rows).toHaveLength(0);
    expect((await listUsers(deps(), { provider: 'clickbank' })).total).toBe(0);
    expect((await listSubscriptions(deps(), { cadence: 'yearly' })).total).toBe(0);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))(
  'kept list counts under concurrent writes (PostgreSQL)',
  () => {
    let fresh: Db;
    let url: string;
    beforeAll(async () => {
      fresh = await freshDb();
      url = testDatabaseUrl(fresh)!;
      await fresh.exec(`
        INSERT INTO customers (id, email) VALUES (1, 'race@example.com');
        INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, start_date)
          VALUES (1, 1, 'lemonsqueezy', 'race-1', 'active', 'monthly', 'Pro', '2026-01-01T00:00:00Z'),
                 (2, 1, 'lemonsqueezy', 'race-2', 'active', 'yearly', 'Pro', '2026-02-01T00:00:00Z');
        INSERT INTO members (id, customer_id, subscription_id, mg_status) VALUES (1, 1, 1, 'active');
      `);
    }, 60_000);
    afterAll(async () => {
      await fresh?.close();
    });

    const race = (first: string, second: string) => raceOnTwoConnections(url, first, second);

    // [name, the subscription member 1 points at first, the first change, the second change].
    const cases: Array<[string, number, string, string]> = [
      [
        'a subscription change, then its member’s mg_status',
        1,
        `UPDATE subscriptions SET status = 'cancelled' WHERE id = 1`,
        `UPDATE members SET mg_status = 'cancelled', expires_at = now() WHERE id = 1`,
      ],
      [
        'a member’s mg_status, then its subscription’s change',
        1,
        `UPDATE members SET mg_status = 'cancelled', expires_at = now() WHERE id = 1`,
        `UPDATE subscriptions SET status = 'expired', cadence = 'yearly' WHERE id = 1`,
      ],
      [
        'a subscription change, then a member coming to point at it',
        1,
        `UPDATE subscriptions SET status = 'past_due' WHERE id = 2`,
        `UPDATE members SET subscription_id = 2 WHERE id = 1`,
      ],
      [
        'a member leaving a subscription, then that subscription’s change',
        2,
        `UPDATE members SET subscription_id = 1 WHERE id = 1`,
        `UPDATE subscriptions SET status = 'expired' WHERE id = 2`,
      ],
      [
        'a member coming to point at a subscription, then that subscription’s change',
        1,
        `UPDATE members SET subscription_id = 2 WHERE id = 1`,
        `UPDATE subscriptions SET status = 'paused' WHERE id = 2`,
      ],
      [
        'a renewal, then its member’s mg_status',
        1,
        `UPDATE subscriptions SET current_period_end = '2027-01-01T10:00:00Z' WHERE id = 1`,
        `UPDATE members SET mg_status = 'cancelled', expires_at = now() WHERE id = 1`,
      ],
      [
        'two renewals onto the same day',
        1,
        `UPDATE subscriptions SET current_period_end = '2027-02-01T10:00:00Z' WHERE id = 1`,
        `UPDATE subscriptions SET current_period_end = '2027-02-01T11:00:00Z' WHERE id = 2`,
      ],
      [
        'a subscription change, then its member leaving it',
        2,
        `UPDATE subscriptions SET provider = 'clickbank' WHERE id = 2`,
        `UPDATE members SET subscription_id = 1 WHERE id = 1`,
      ],
    ];
    for (const [name, pointsAt, first, second] of cases) {
      it(`stay exact: ${name}`, async () => {
        // Each case starts from the same rows and exact counts: it stands on its own.
        await fresh.exec(`
          UPDATE subscriptions SET provider = 'lemonsqueezy', status = 'active',
                 cadence = CASE id WHEN 1 THEN 'monthly' ELSE 'yearly' END;
          UPDATE members SET subscription_id = ${pointsAt}, mg_status = 'active', expires_at = NULL WHERE id = 1;
          SELECT list_filter_counts_rebuild();
        `);
        await expectExact(fresh);
        await race(first, second);
        await expectExact(fresh);
      });
    }
  },
);
