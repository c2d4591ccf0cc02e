/**
 * The copies of the customer's email on members and subscriptions (migration 034), behind the
 * email filter of the Users and Subscriptions lists: every write path leaves them equal to the
 * customer's email, whatever a writer puts there, and the lists find rows by them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './types';
import { seedDemoData } from '../seed';
import { freshDb, testDeps } from '../testing/app';
import { listUsers } from '../routes/users';
import { listSubscriptions } from '../routes/subscriptions';

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
