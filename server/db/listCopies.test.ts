/**
 * The copies on list rows that let the Users and Subscriptions filters read one table: the
 * customer's email on members and subscriptions (migration 034), and a member's subscription's
 * provider, status, cadence, start date (migration 035) and renewal (036) on the member. Every write path leaves
 * them equal to their source, whatever a writer puts there, a rolled-back change leaves nothing,
 * and on PostgreSQL a subscription's change racing its member's (either order, two connections)
 * leaves them exact; the lists find rows by them.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './types';
import { seedDemoData } from '../seed';
import { freshDb, testDeps } from '../testing/app';
import { listUsers } from '../routes/users';
import { listSubscriptions } from '../routes/subscriptions';
import { raceOnTwoConnections, testDatabaseUrl } from '../testing/database';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let db: Db;

beforeAll(async () => {
  db = await freshDb();
  await seedDemoData(db, { customers: 120, seed: 34, now: NOW });
}, 180_000);
afterAll(async () => {
  await db?.close();
});

/** Rows whose copy differs from their customer's email, per table. */
async function stale(): Promise<{ members: number; subscriptions: number }> {
  const n = async (table: string) =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} t JOIN customers c ON c.id = t.customer_id
          WHERE t.email IS DISTINCT FROM c.email`,
      )
    ).rows[0]!.n;
  return { members: await n('members'), subscriptions: await n('subscriptions') };
}

/** Members whose copies differ from their subscription's columns (null without one). */
async function staleMembers(on: Db = db): Promise<number[]> {
  const r = await on.query<{ id: number }>(
    `SELECT m.id FROM members m LEFT JOIN subscriptions s ON s.id = m.subscription_id
      WHERE m.sub_provider IS DISTINCT FROM s.provider OR m.sub_status IS DISTINCT FROM s.status
         OR m.sub_cadence IS DISTINCT FROM s.cadence OR m.sub_start_date IS DISTINCT FROM s.start_date
         OR m.sub_current_period_end IS DISTINCT FROM s.current_period_end
         OR m.sub_ends_at IS DISTINCT FROM s.ends_at
      ORDER BY m.id`,
  );
  return r.rows.map((x) => Number(x.id));
}

describe('email copies on members and subscriptions (migration 034)', () => {
  it('equal the customers’ emails after the seed, which writes them itself', async () => {
    expect(await stale()).toEqual({ members: 0, subscriptions: 0 });
    const counted = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM members WHERE email LIKE '%@%'`,
    );
    expect(counted.rows[0]!.n).toBeGreaterThan(100);
  });

  it('are filled on insert and on a new customer, and overwrite what a writer sets', async () => {
    const ids = await db.query<{ a: number; b: number }>(
      `WITH a AS (INSERT INTO customers (email) VALUES ('copy.first@example.com') RETURNING id),
            b AS (INSERT INTO customers (email) VALUES ('copy.second@example.com') RETURNING id)
       SELECT a.id AS a, b.id AS b FROM a, b`,
    );
    const { a, b } = ids.rows[0]!;
    const sub = await db.query<{ id: number; email: string }>(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, start_date, email)
       VALUES ($1, 'lemonsqueezy', 'COPY-1', 'active', 'monthly', 'Pro', $2, 'someone.else@example.com')
       RETURNING id, email`,
      [a, NOW],
    );
    expect(sub.rows[0]!.email).toBe('copy.first@example.com');
    const member = await db.query<{ email: string }>(
      `INSERT INTO members (customer_id, subscription_id, mg_status) VALUES ($1, $2, 'active') RETURNING email`,
      [a, sub.rows[0]!.id],
    );
    expect(member.rows[0]!.email).toBe('copy.first@example.com');
    // A direct write of the copy is replaced by the customer's email.
    await db.query(`UPDATE members SET email = 'forged@example.com' WHERE customer_id = $1`, [a]);
    await db.query(`UPDATE subscriptions SET email = NULL WHERE customer_id = $1`, [a]);
    expect(await stale()).toEqual({ members: 0, subscriptions: 0 });
    // A subscription moved to another customer takes that customer's email.
    await db.query(`UPDATE subscriptions SET customer_id = $2 WHERE id = $1`, [sub.rows[0]!.id, b]);
    const moved = await db.query<{ email: string }>(
      `SELECT email FROM subscriptions WHERE id = $1`,
      [sub.rows[0]!.id],
    );
    expect(moved.rows[0]!.email).toBe('copy.second@example.com');
    expect(await stale()).toEqual({ members: 0, subscriptions: 0 });
  });

  it('follow a customer’s new email, and the lists find the rows by it', async () => {
    const c = await db.query<{ id: number; email: string }>(
      `SELECT c.id, c.email FROM customers c
        WHERE EXISTS (SELECT 1 FROM members m WHERE m.customer_id = c.id AND m.subscription_id IS NOT NULL)
        ORDER BY c.id LIMIT 1`,
    );
    const { id } = c.rows[0]!;
    await db.query(`UPDATE customers SET email = 'renamed.zq7@example.com' WHERE id = $1`, [id]);
    expect(await stale()).toEqual({ members: 0, subscriptions: 0 });
    const deps = testDeps(db, NOW);
    const users = await listUsers(deps, { email: 'ZQ7' });
    expect(users.rows.map((r) => r.email)).toEqual(['renamed.zq7@example.com']);
    const subs = await listSubscriptions(deps, { email: 'renamed.zq' });
    expect(subs.total).toBeGreaterThan(0);
    expect(new Set(subs.rows.map((r) => r.email))).toEqual(new Set(['renamed.zq7@example.com']));
    expect((await listUsers(deps, { email: c.rows[0]!.email })).total).toBe(0);
  });

  it('make a missing copy an error, not a row the lists cannot find', async () => {
    await expect(
      db.exec(`ALTER TABLE members DISABLE TRIGGER members_email_fill;
               INSERT INTO members (customer_id, mg_status)
                 SELECT id, 'active' FROM customers WHERE email = 'copy.second@example.com';`),
    ).rejects.toThrow(/null value in column "email"/);
    await db.exec(`ALTER TABLE members ENABLE TRIGGER members_email_fill`);
  });
});

describe('subscription copies on members (migrations 035, 036 and 040)', () => {
  it('equal the subscriptions’ columns after the seed, which writes them itself', async () => {
    expect(await staleMembers()).toEqual([]);
    const copied = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM members WHERE sub_start_date IS NOT NULL`,
    );
    expect(copied.rows[0]!.n).toBeGreaterThan(100);
  });

  it('follow random changes of subscriptions and members, committed or rolled back', async () => {
    const ids = async (sql: string) =>
      (await db.query<{ id: number }>(sql)).rows.map((r) => Number(r.id));
    const subs = await ids(`SELECT id FROM subscriptions ORDER BY id LIMIT 12`);
    const members = await ids(
      `SELECT id FROM members WHERE subscription_id IS NOT NULL ORDER BY id LIMIT 6`,
    );
    const change = fc.oneof(
      fc.record({
        kind: fc.constant('subscription' as const),
        id: fc.constantFrom(...subs),
        provider: fc.constantFrom('lemonsqueezy', 'clickbank'),
        status: fc.constantFrom('active', 'on_trial', 'cancelled', 'expired'),
        cadence: fc.constantFrom('monthly', 'yearly'),
        startShiftDays: fc.integer({ min: -40, max: 40 }),
        renewalShiftDays: fc.option(fc.integer({ min: -40, max: 40 })),
        // An end set (shifted from the renewal) or cleared.
        endsShiftDays: fc.option(fc.integer({ min: -40, max: 40 })),
      }),
      fc.record({
        kind: fc.constant('member' as const),
        id: fc.constantFrom(...members),
        subscription: fc.option(fc.constantFrom(...subs)),
      }),
      // A writer setting the copies themselves: replaced by the subscription's values.
      fc.record({ kind: fc.constant('forge' as const), id: fc.constantFrom(...members) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (changes, rollback) => {
          const apply = db.transaction(async (tx) => {
            for (const c of changes) {
              if (c.kind === 'subscription') {
                await tx.query(
                  `UPDATE subscriptions SET provider = $2, status = $3, cadence = $4,
                          start_date = start_date + make_interval(days => $5),
                          current_period_end = current_period_end + make_interval(days => $6),
                          ends_at = COALESCE(ends_at, current_period_end) + make_interval(days => $7)
                    WHERE id = $1`,
                  [
                    c.id,
                    c.provider,
                    c.status,
                    c.cadence,
                    c.startShiftDays,
                    c.renewalShiftDays,
                    c.endsShiftDays,
                  ],
                );
              } else if (c.kind === 'member') {
                await tx.query(`UPDATE members SET subscription_id = $2 WHERE id = $1`, [
                  c.id,
                  c.subscription,
                ]);
              } else {
                await tx.query(
                  `UPDATE members SET sub_provider = 'forged', sub_status = NULL, sub_cadence = 'weekly',
                          sub_start_date = '2001-01-01', sub_current_period_end = NULL,
                          sub_ends_at = '2001-01-01' WHERE id = $1`,
                  [c.id],
                );
              }
            }
            if (rollback) throw new Error('roll back');
          });
          if (rollback) await expect(apply).rejects.toThrow('roll back');
          else await apply;
          expect(await staleMembers()).toEqual([]);
        },
      ),
      { numRuns: 40, seed: 3501 },
    );
  }, 120_000);

  it('follow an end set or cleared alone (migration 040)', async () => {
    const r = await db.query<{ id: number }>(
      `SELECT subscription_id AS id FROM members WHERE subscription_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    const id = r.rows[0]!.id;
    const copied = async () =>
      (
        await db.query<{ at: string | null }>(
          `SELECT (sub_ends_at AT TIME ZONE 'UTC')::text AS at FROM members WHERE subscription_id = $1`,
          [id],
        )
      ).rows.map((x) => x.at);
    await db.query(`UPDATE subscriptions SET ends_at = '2030-01-02T03:04:05Z' WHERE id = $1`, [id]);
    expect(await copied()).toEqual(['2030-01-02 03:04:05']);
    await db.query(`UPDATE subscriptions SET ends_at = NULL WHERE id = $1`, [id]);
    expect(await copied()).toEqual([null]);
    expect(await staleMembers()).toEqual([]);
  });

  it('are null without a subscription, and filled on insert', async () => {
    const c = await db.query<{ id: number }>(
      `INSERT INTO customers (email) VALUES ('copies.none@example.com') RETURNING id`,
    );
    const id = c.rows[0]!.id;
    const bare = await db.query<{ sub_provider: string | null; sub_start_date: Date | null }>(
      `INSERT INTO members (customer_id, mg_status, sub_provider) VALUES ($1, 'active', 'forged')
       RETURNING sub_provider, sub_start_date`,
      [id],
    );
    expect(bare.rows[0]).toEqual({ sub_provider: null, sub_start_date: null });
    const sub = await db.query<{ id: number }>(
      `INSERT INTO subscriptions (customer_id, provider, provider_id, status, cadence, plan, start_date)
       VALUES ($1, 'clickbank', 'COPIES-1', 'active', 'yearly', 'Pro', $2) RETURNING id`,
      [id, NOW],
    );
    await db.query(`UPDATE members SET subscription_id = $2 WHERE customer_id = $1`, [
      id,
      sub.rows[0]!.id,
    ]);
    expect(await staleMembers()).toEqual([]);
    const users = await listUsers(testDeps(db, NOW), {
      email: 'copies.none',
      provider: 'clickbank',
      cadence: 'yearly',
      start_from: '2026-11-22',
    });
    expect(users.rows.map((r) => r.email)).toEqual(['copies.none@example.com']);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))(
  'subscription copies under concurrent writes (PostgreSQL)',
  () => {
    let fresh: Db;
    let url: string;
    beforeAll(async () => {
      fresh = await freshDb();
      url = testDatabaseUrl(fresh)!;
      await fresh.exec(`
        INSERT INTO customers (id, email) VALUES (1, 'race.copies@example.com');
        INSERT INTO subscriptions (id, customer_id, provider, provider_id, status, cadence, plan, start_date)
          VALUES (1, 1, 'lemonsqueezy', 'copies-1', 'active', 'monthly', 'Pro', '2026-01-01T00:00:00Z'),
                 (2, 1, 'lemonsqueezy', 'copies-2', 'active', 'yearly', 'Pro', '2026-02-01T00:00:00Z');
        INSERT INTO members (id, customer_id, subscription_id, mg_status) VALUES (1, 1, 1, 'active');
      `);
    }, 60_000);
    afterAll(async () => {
      await fresh?.close();
    });

    const race = (first: string, second: string) => raceOnTwoConnections(url, first, second);

    const cases: Array<[string, number, string, string]> = [
      [
        'a subscription change, then a member coming to point at it',
        1,
        `UPDATE subscriptions SET status = 'past_due', cadence = 'monthly' WHERE id = 2`,
        `UPDATE members SET subscription_id = 2 WHERE id = 1`,
      ],
      [
        'a member coming to point at a subscription, then that subscription’s change',
        1,
        `UPDATE members SET subscription_id = 2 WHERE id = 1`,
        `UPDATE subscriptions SET status = 'paused', start_date = '2025-12-01T00:00:00Z',
                current_period_end = '2026-12-01T00:00:00Z' WHERE id = 2`,
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
        await fresh.exec(`
          UPDATE subscriptions SET provider = 'lemonsqueezy', status = 'active',
                 cadence = CASE id WHEN 1 THEN 'monthly' ELSE 'yearly' END;
          UPDATE members SET subscription_id = ${pointsAt} WHERE id = 1;
        `);
        expect(await staleMembers(fresh)).toEqual([]);
        await race(first, second);
        expect(await staleMembers(fresh)).toEqual([]);
      });
    }
  },
);
