import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runExpiration } from '../access/expiration';
import { enforceNow } from '../maintenance/enforce';
import type { Db } from '../db/types';
import { usersRoutes } from '../routes/users';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { NOW, seedScenario } from '../testing/scenario';

let db: Db;

beforeAll(async () => {
  db = await freshDb();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  await seedScenario(db);
});

/** The live events recorded so far, oldest first (payload plus id). */
async function liveEvents() {
  const r = await db.query<{ id: number; type: string; payload: Record<string, unknown> }>(
    'SELECT id, type, payload FROM live_events ORDER BY id',
  );
  return r.rows.map((row) => ({ id: Number(row.id), ...row.payload }));
}

const app = () => testApp(testDeps(db, NOW), [usersRoutes]);
const at = NOW.toISOString();

describe('access actions emit live events in their transaction', () => {
  it('grant and grant_on_date emit access.granted with the member subscription provider', async () => {
    expect(
      (await call(app(), 'POST', '/users/actions/grant', { email: 'carol@sample.org' })).status,
    ).toBe(200);
    expect(
      (
        await call(app(), 'POST', '/users/actions/grant_on_date', {
          email: 'bob@example.com',
          until: '2027-01-01 00:00:00',
        })
      ).status,
    ).toBe(200);
    expect(await liveEvents()).toEqual([
      {
        id: 1,
        type: 'access.granted',
        email: 'carol@sample.org',
        provider: 'lemonsqueezy',
        amount_cents: null,
        currency: null,
        at,
      },
      {
        id: 2,
        type: 'access.granted',
        email: 'bob@example.com',
        provider: 'clickbank',
        amount_cents: null,
        currency: null,
        at,
      },
    ]);
  });

  it('revoke_now emits access.revoked (provider null without a subscription); scheduled revocations emit nothing yet', async () => {
    expect(
      (await call(app(), 'POST', '/users/actions/revoke_now', { email: 'erin@example.com' }))
        .status,
    ).toBe(200);
    expect(
      (await call(app(), 'POST', '/users/actions/revoke_deferred', { email: 'ada@example.com' }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(app(), 'POST', '/users/actions/revoke_on_date', {
          email: 'bob@example.com',
          date: '2027-01-01 00:00:00',
        })
      ).status,
    ).toBe(200);
    expect(await liveEvents()).toEqual([
      {
        id: 1,
        type: 'access.revoked',
        email: 'erin@example.com',
        provider: null,
        amount_cents: null,
        currency: null,
        at,
      },
    ]);
  });

  it('a refused action (404, 409, 400) emits nothing', async () => {
    expect(
      (await call(app(), 'POST', '/users/actions/grant', { email: 'nobody@example.com' })).status,
    ).toBe(404);
    expect(
      (await call(app(), 'POST', '/users/actions/revoke_deferred', { email: 'carol@sample.org' }))
        .status,
    ).toBe(409);
    expect(
      (
        await call(app(), 'POST', '/users/actions/grant_on_date', {
          email: 'ada@example.com',
          until: '2020-01-01 00:00:00',
        })
      ).status,
    ).toBe(400);
    expect(await liveEvents()).toEqual([]);
  });

  it('the expiration emits one access.revoked per member it cancels; a dry run emits nothing', async () => {
    await runExpiration(testDeps(db, NOW), { dryRun: true });
    expect(await liveEvents()).toEqual([]);
    const result = await runExpiration(testDeps(db, NOW), { dryRun: false });
    expect(result.affected).toEqual(['dave_x@example.com']);
    expect(await liveEvents()).toEqual([
      {
        id: 1,
        type: 'access.revoked',
        email: 'dave_x@example.com',
        provider: 'lemonsqueezy',
        amount_cents: null,
        currency: null,
        at,
      },
    ]);
  });

  it('enforce-now emits access.revoked when it ends a due access, nothing otherwise', async () => {
    const d = testDeps(db, NOW);
    expect((await enforceNow(d, 'ada@example.com')).changed).toBe(false);
    expect((await enforceNow(d, 'dave_x@example.com')).changed).toBe(true);
    expect(await liveEvents()).toEqual([
      {
        id: 1,
        type: 'access.revoked',
        email: 'dave_x@example.com',
        provider: 'lemonsqueezy',
        amount_cents: null,
        currency: null,
        at,
      },
    ]);
  });
});
