import type { PGlite } from '@electric-sql/pglite';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, discourseConfig, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { startFakeDiscourse, type FakeDiscourse } from '../testing/fakeDiscourse';
import { insertCustomer, insertMember } from '../testing/fixtures';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import { maintenanceRoutes } from './maintenance';

let db: PGlite;
let app: Hono;
let fake: FakeDiscourse | null = null;

beforeAll(async () => {
  db = await freshDb();
  app = testApp(testDeps(db, NOW), [maintenanceRoutes]);
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  await seedScenario(db);
  // erin's access ends exactly now: due (expires_at <= now). dave's ended yesterday; bob's is in the future.
  await db.query(`UPDATE members SET expires_at = $1 WHERE id = 5`, [NOW]);
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function statuses() {
  const r = await db.query<{ id: number; mg_status: string }>(
    'SELECT id, mg_status FROM members ORDER BY id',
  );
  return r.rows.map((x) => `${x.id}:${x.mg_status}`);
}

describe('maintenance/run-expiration', () => {
  it('GET previews the due revocations and writes nothing', async () => {
    const before = await snapshot(db);
    const res = await call(app, 'GET', '/maintenance/run-expiration?dryRun=true');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      processed: 0,
      affected_count: 2,
      affected: ['dave_x@example.com', 'erin@example.com'],
      details: [
        { email: 'dave_x@example.com', expires_at: '2026-11-19T06:00:00.000Z' },
        { email: 'erin@example.com', expires_at: NOW.toISOString() },
      ],
      sample_emails: ['dave_x@example.com', 'erin@example.com'],
      dryRun: true,
      preview: { affected: 2, users: ['dave_x@example.com', 'erin@example.com'] },
      meta: { ran_at: NOW.toISOString() },
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('POST {dryRun:false} cancels them with one log row each, and a second run finds nothing', async () => {
    const res = await call(app, 'POST', '/maintenance/run-expiration', { dryRun: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      processed: 2,
      affected_count: 2,
      affected: ['dave_x@example.com', 'erin@example.com'],
      details: [
        { email: 'dave_x@example.com', expires_at: '2026-11-19T06:00:00.000Z' },
        { email: 'erin@example.com', expires_at: NOW.toISOString() },
      ],
      sample_emails: ['dave_x@example.com', 'erin@example.com'],
      dryRun: false,
      meta: { ran_at: NOW.toISOString() },
    });
    expect(await statuses()).toEqual([
      '1:active',
      '2:active',
      '3:cancelled',
      '4:cancelled',
      '5:cancelled',
    ]);
    const logs = await db.query<{ level: string; msg: string; context: unknown }>(
      'SELECT level, msg, context FROM logs ORDER BY id',
    );
    expect(logs.rows).toEqual([
      {
        level: 'info',
        msg: 'access.expired',
        context: {
          email: 'dave_x@example.com',
          action: 'expire',
          mg_status: 'cancelled',
          expires_at: '2026-11-19T06:00:00.000Z',
        },
      },
      {
        level: 'info',
        msg: 'access.expired',
        context: {
          email: 'erin@example.com',
          action: 'expire',
          mg_status: 'cancelled',
          expires_at: NOW.toISOString(),
        },
      },
    ]);
    const again = await call(app, 'POST', '/maintenance/run-expiration', { dryRun: false });
    expect(again.body).toMatchObject({
      processed: 0,
      affected_count: 0,
      affected: [],
      details: [],
      sample_emails: [],
    });
  });

  it('POST {dryRun:true} previews only', async () => {
    const before = await snapshot(db);
    const res = await call(app, 'POST', '/maintenance/run-expiration', { dryRun: true });
    expect(res.body).toMatchObject({ dryRun: true, processed: 0, affected_count: 2 });
    expect(await snapshot(db)).toEqual(before);
  });

  it('lists at most 5 sample emails', async () => {
    for (let i = 0; i < 6; i++) {
      const c = await insertCustomer(db, `due${i}@example.com`);
      await insertMember(db, {
        customerId: c,
        subscriptionId: null,
        mgStatus: 'active',
        expiresAt: `2026-11-0${i + 1}T00:00:00Z`,
        updatedAt: '2026-11-01T00:00:00Z',
      });
    }
    const res = await call(app, 'GET', '/maintenance/run-expiration?dryRun=true');
    expect(res.body.affected_count).toBe(8);
    expect(res.body.details).toHaveLength(8);
    expect(res.body.sample_emails).toEqual([
      'due0@example.com',
      'due1@example.com',
      'due2@example.com',
      'due3@example.com',
      'due4@example.com',
    ]);
  });

  it.each([
    ['GET', '/maintenance/run-expiration?dryRun=false', undefined, /GET only previews/],
    ['POST', '/maintenance/run-expiration', { dryRun: 'no' }, /dryRun must be true or false/],
    ['POST', '/maintenance/run-expiration', '[1]', /must be a JSON object/],
    ['POST', '/maintenance/run-expiration', '{', /not valid JSON/],
  ])('%s %s %j → 400 and nothing written', async (method, path, body, message) => {
    const before = await snapshot(db);
    const res = await call(app, method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('revokes each expired user on Discourse; a forum failure is reported and logged, access stays cancelled', async () => {
    fake = await startFakeDiscourse((req) => {
      if (req.path.startsWith('/admin/users/list/')) {
        const email = new URL(req.path, 'http://x').searchParams.get('email');
        return {
          status: 200,
          body: [{ username: email === 'dave_x@example.com' ? 'dave' : 'erin', email }],
        };
      }
      const body = req.body as { usernames?: string };
      return body.usernames === 'dave'
        ? { status: 200, body: { success: 'OK' } }
        : {
            status: 422,
            body: { errors: ['erin is not a member'], error_type: 'invalid_parameters' },
          };
    });
    const withForum = testApp(testDeps(db, NOW, { discourse: discourseConfig(fake.url) }), [
      maintenanceRoutes,
    ]);
    const res = await call(withForum, 'POST', '/maintenance/run-expiration', { dryRun: false });
    expect(res.status).toBe(200);
    expect(res.body.details).toEqual([
      {
        email: 'dave_x@example.com',
        expires_at: '2026-11-19T06:00:00.000Z',
        discourse: { ok: true, status: 200 },
      },
      {
        email: 'erin@example.com',
        expires_at: NOW.toISOString(),
        discourse: {
          ok: false,
          status: 422,
          error: 'erin is not a member',
          payload: { errors: ['erin is not a member'] },
        },
      },
    ]);
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => [r.path, r.body])).toEqual(
      [
        ['/groups/42/members.json', { usernames: 'dave' }],
        ['/groups/42/members.json', { usernames: 'erin' }],
      ],
    );
    expect(await statuses()).toEqual([
      '1:active',
      '2:active',
      '3:cancelled',
      '4:cancelled',
      '5:cancelled',
    ]);
    const warn = await db.query<{ msg: string; context: unknown }>(
      `SELECT msg, context FROM logs WHERE level = 'warn'`,
    );
    expect(warn.rows).toEqual([
      {
        msg: 'discourse.error',
        context: {
          email: 'erin@example.com',
          action: 'expire',
          status: 422,
          error: 'erin is not a member',
        },
      },
    ]);
  });
});
