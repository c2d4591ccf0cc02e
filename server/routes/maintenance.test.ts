import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, discourseConfig, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { startFakeDiscourse, type FakeDiscourse } from '../testing/fakeDiscourse';
import { startTestWorker, stopTestWorkers } from '../testing/outbox';
import { insertCustomer, insertMember } from '../testing/fixtures';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import { maintenanceRoutes } from './maintenance';

let db: Db;
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
  await stopTestWorkers();
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
    [
      'POST',
      '/maintenance/run-expiration',
      undefined,
      /Nothing was applied: send the body \{"dryRun": false\}/,
    ],
    ['POST', '/maintenance/run-expiration', {}, /Nothing was applied/],
  ])('%s %s %j → 400 and nothing written', async (method, path, body, message) => {
    const before = await snapshot(db);
    const res = await call(app, method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('revokes each expired user on Discourse through the outbox; a forum failure is reported and logged, access stays cancelled', async () => {
    fake = await startFakeDiscourse((req) => {
      if (req.path.startsWith('/u/system/invited.json'))
        return { status: 200, body: { invites: [] } };
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
    const deps = testDeps(db, NOW, { discourse: discourseConfig(fake.url) });
    await startTestWorker(deps);
    const withForum = testApp(deps, [maintenanceRoutes]);
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
        context: expect.objectContaining({
          email: 'erin@example.com',
          action: 'revoke',
          reason: 'expiration.console',
          status: 422,
          error: 'erin is not a member',
          // A 4xx other than 408/429 is permanent: no retry.
          state: 'failed',
          next_attempt_at: null,
        }),
      },
    ]);
    const jobs = await db.query<{ email: string; action: string; state: string }>(
      'SELECT email, action, state FROM forum_outbox ORDER BY id',
    );
    expect(jobs.rows).toEqual([
      { email: 'dave_x@example.com', action: 'revoke', state: 'done' },
      { email: 'erin@example.com', action: 'revoke', state: 'failed' },
    ]);
  });
});

describe('expiration job', () => {
  it('a second apply while one runs answers 409; the dry run then shows 0 and diag keeps the last run', async () => {
    // A forum that answers slowly keeps the first run busy.
    fake = await startFakeDiscourse((req) => {
      if (req.path.startsWith('/admin/users/list/')) return 'hang';
      return { status: 200, body: {} };
    });
    const slow = testDeps(db, NOW, { discourse: discourseConfig(fake.url, { timeoutMs: 400 }) });
    await startTestWorker(slow);
    const a = testApp(slow, [maintenanceRoutes]);
    const preview = await call(a, 'GET', '/maintenance/run-expiration?dryRun=true');
    const first = call(a, 'POST', '/maintenance/run-expiration', { dryRun: false });
    await new Promise((r) => setTimeout(r, 50));
    const second = await call(a, 'POST', '/maintenance/run-expiration', { dryRun: false });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'conflict',
      message: expect.stringMatching(/already running/),
    });
    const done = await first;
    expect(done.status).toBe(200);
    expect(done.body.affected).toEqual(preview.body.affected);
    const after = await call(a, 'GET', '/maintenance/run-expiration?dryRun=true');
    expect(after.body).toMatchObject({ affected_count: 0, affected: [] });
    const diag = await call(a, 'GET', '/maintenance/diag');
    expect(diag.body.expiration).toMatchObject({
      running: null,
      last_run: {
        ok: true,
        trigger: 'console',
        processed: 2,
        affected_count: 2,
        sample_emails: ['dave_x@example.com', 'erin@example.com'],
        forum_failures: 2,
      },
    });
    // A third run is allowed again once the first has finished.
    expect((await call(a, 'POST', '/maintenance/run-expiration', { dryRun: false })).status).toBe(
      200,
    );
  });
});

describe('GET /maintenance/diag', () => {
  it('reports versions, database, counts, integrations as yes/no and uptime, never secrets', async () => {
    const deps = testDeps(db, NOW, {
      lemonSqueezyApiKey: 'ls-very-secret',
      clickbankSecretKey: 'CBSECRET',
    });
    const res = await call(testApp(deps, [maintenanceRoutes]), 'GET', '/maintenance/diag');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      versions: {
        app: '0.0.1',
        node: process.version,
        database: expect.stringMatching(/PostgreSQL/),
      },
      database: {
        ok: true,
        migrations_applied: expect.any(Number),
        last_migration: expect.stringMatching(/^\d{3}_/),
      },
      counts: {
        customers: 5,
        subscriptions: { lemonsqueezy: 3, clickbank: 1, total: 4 },
        members: { active: 1, scheduled: 1, cancelled: 1 },
        pending_expirations: 2,
        webhook_dedup_rows: 0,
        log_rows: 0,
      },
      integrations: {
        discourse: false,
        lemonsqueezy_api: true,
        clickbank_api: false,
        clickbank_secret_key: true,
      },
      uptime_s: 0,
    });
    expect(res.body.database.size_bytes).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/ls-very-secret|CBSECRET/);
  });
});

describe('POST /maintenance/enforce-now', () => {
  it('expires a due user now (one log row), leaves others alone, and 404s an unknown email', async () => {
    const res = await call(app, 'POST', '/maintenance/enforce-now', {
      email: ' Dave_X@Example.com ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      email: 'dave_x@example.com',
      mg_status: 'cancelled',
      expires_at: '2026-11-19T06:00:00.000Z',
      changed: true,
      action: 'expired',
      discourse: { skipped: true, reason: 'Discourse not configured' },
    });
    expect(await statuses()).toEqual([
      '1:active',
      '2:active',
      '3:cancelled',
      '4:cancelled',
      '5:active',
    ]);
    const logs = await db.query<{ msg: string; context: { action: string } }>(
      'SELECT msg, context FROM logs',
    );
    expect(logs.rows).toEqual([
      {
        msg: 'access.expired',
        context: expect.objectContaining({ email: 'dave_x@example.com', action: 'enforce_now' }),
      },
    ]);

    const scheduled = await call(app, 'POST', '/maintenance/enforce-now', {
      email: 'bob@example.com',
    });
    expect(scheduled.body).toMatchObject({ mg_status: 'active', changed: false, action: 'none' });

    const before = await snapshot(db);
    const unknown = await call(app, 'POST', '/maintenance/enforce-now', {
      email: 'nobody@example.com',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      error: 'not_found',
      message: 'No user with email nobody@example.com',
    });
    for (const bad of [{}, { email: 'not-an-email' }, { email: 42 }]) {
      expect((await call(app, 'POST', '/maintenance/enforce-now', bad)).status).toBe(400);
    }
    expect(await snapshot(db)).toEqual(before);
  });

  it('pushes the resulting state to the forum: revoke when cancelled', async () => {
    fake = await startFakeDiscourse((req) =>
      req.path.startsWith('/admin/users/list/')
        ? { status: 200, body: [{ username: 'erin', email: 'erin@example.com' }] }
        : req.path.startsWith('/u/system/invited.json')
          ? { status: 200, body: { invites: [] } }
          : { status: 200, body: { success: 'OK' } },
    );
    const deps = testDeps(db, NOW, { discourse: discourseConfig(fake.url) });
    await startTestWorker(deps);
    const a = testApp(deps, [maintenanceRoutes]);
    const res = await call(a, 'POST', '/maintenance/enforce-now', { email: 'erin@example.com' });
    expect(res.body).toMatchObject({
      mg_status: 'cancelled',
      changed: true,
      discourse: { ok: true, status: 200 },
    });
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/groups/42/members.json',
    ]);
  });
});

describe('pings through the router', () => {
  it('answer 200 with the not-configured summary, and 400 for an unknown which', async () => {
    expect((await call(app, 'GET', '/maintenance/ping-discourse')).body).toEqual({
      ok: false,
      reason: 'Discourse not configured',
    });
    expect((await call(app, 'GET', '/maintenance/ping-lemonsqueezy')).body).toEqual({
      ok: false,
      reason: 'LemonSqueezy API key not configured',
    });
    const cb = await call(app, 'GET', '/maintenance/ping-clickbank?which=secret');
    expect(cb).toEqual({
      status: 200,
      body: { ok: false, reason: 'CLICKBANK_SECRET_KEY not configured' },
    });
    const bad = await call(app, 'GET', '/maintenance/ping-clickbank?which=everything');
    expect(bad.status).toBe(400);
  });
});
