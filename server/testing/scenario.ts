/**
 * A small shared scenario for route tests, pinned at NOW = 2026-11-20T12:00:00Z (UTC):
 *
 * | member | email               | subscription                         | mg_status / expires_at          |
 * |--------|---------------------|--------------------------------------|---------------------------------|
 * | 1      | ada@example.com     | LS ls-1 active monthly, 1000 USD     | active, none                    |
 * | 2      | bob@example.com     | CB CBREC1 active yearly, 4900 USD    | active, 2026-12-01 (scheduled)  |
 * | 3      | carol@sample.org    | LS ls-3 on_trial monthly, null amount| cancelled, 2026-11-02           |
 * | 4      | dave_x@example.com  | LS ls-4 past_due yearly, 9900 EUR    | active, 2026-11-19 06:00 (due)  |
 * | 5      | erin@example.com    | none                                 | active, none                    |
 *
 * Member and subscription ids equal the numbers above (fresh identities after resetDb).
 */
import type { Db } from '../db/types';
import { insertCustomer, insertMember, insertSubscription, lemonSqueezyObject } from './fixtures';

/** The pinned clock of the scenario. */
export const NOW = new Date('2026-11-20T12:00:00.000Z');

/** Inserts the scenario (see the module table) into an empty database. */
export async function seedScenario(db: Db): Promise<void> {
  const ada = await insertCustomer(db, 'ada@example.com', 'Ada Lovelace');
  const bob = await insertCustomer(db, 'bob@example.com', null);
  const carol = await insertCustomer(db, 'carol@sample.org', 'Carol C');
  const dave = await insertCustomer(db, 'dave_x@example.com', 'Dave X');
  const erin = await insertCustomer(db, 'erin@example.com', 'Erin');

  const s1 = await insertSubscription(db, {
    customerId: ada,
    providerId: 'ls-1',
    status: 'active',
    cadence: 'monthly',
    amountCents: 1000,
    startDate: '2026-01-05T10:00:00Z',
    currentPeriodEnd: '2026-12-05T10:00:00Z',
    payload: lemonSqueezyObject('ls-1', { user_email: 'ada@example.com', user_name: 'Ada L.' }),
    updatedAt: '2026-11-05T10:00:00Z',
  });
  const s2 = await insertSubscription(db, {
    customerId: bob,
    provider: 'clickbank',
    providerId: 'CBREC1',
    status: 'active',
    cadence: 'yearly',
    amountCents: 4900,
    startDate: '2025-06-01T00:00:00Z',
    currentPeriodEnd: '2027-06-01T00:00:00Z',
    updatedAt: '2026-06-01T00:00:00Z',
  });
  const s3 = await insertSubscription(db, {
    customerId: carol,
    providerId: 'ls-3',
    status: 'on_trial',
    cadence: 'monthly',
    amountCents: null,
    startDate: '2026-11-01T08:00:00Z',
    currentPeriodEnd: '2026-11-15T08:00:00Z',
    endsAt: '2026-11-15T08:00:00Z',
    payload: lemonSqueezyObject('ls-3', { status: 'on_trial' }),
    updatedAt: '2026-11-02T08:00:00Z',
  });
  const s4 = await insertSubscription(db, {
    customerId: dave,
    providerId: 'ls-4',
    status: 'past_due',
    cadence: 'yearly',
    amountCents: 9900,
    currency: 'EUR',
    startDate: '2024-03-01T00:00:00Z',
    currentPeriodEnd: '2026-03-01T00:00:00Z',
    payload: lemonSqueezyObject('ls-4', { status: 'past_due' }),
    updatedAt: '2026-03-02T00:00:00Z',
  });

  await insertMember(db, {
    customerId: ada,
    subscriptionId: s1,
    mgStatus: 'active',
    updatedAt: '2026-11-10T00:00:00Z',
  });
  await insertMember(db, {
    customerId: bob,
    subscriptionId: s2,
    mgStatus: 'active',
    expiresAt: '2026-12-01T00:00:00Z',
    updatedAt: '2026-11-15T00:00:00Z',
  });
  await insertMember(db, {
    customerId: carol,
    subscriptionId: s3,
    mgStatus: 'cancelled',
    expiresAt: '2026-11-02T00:00:00Z',
    updatedAt: '2026-11-02T00:00:00Z',
  });
  await insertMember(db, {
    customerId: dave,
    subscriptionId: s4,
    mgStatus: 'active',
    expiresAt: '2026-11-19T06:00:00Z',
    updatedAt: '2026-11-19T00:00:00Z',
  });
  await insertMember(db, {
    customerId: erin,
    subscriptionId: null,
    mgStatus: 'active',
    updatedAt: '2026-11-01T00:00:00Z',
  });
}

/** A snapshot of every row a write could touch (members, subscriptions and logs), for "nothing written" checks. */
export async function snapshot(db: Db): Promise<unknown> {
  const members = await db.query('SELECT * FROM members ORDER BY id');
  const subs = await db.query(
    'SELECT id, status, current_period_end, ends_at, payload, updated_at FROM subscriptions ORDER BY id',
  );
  const logs = await db.query('SELECT * FROM logs ORDER BY id');
  return { members: members.rows, subs: subs.rows, logs: logs.rows };
}
