import type { Db } from '../db/types';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usersRoutes } from '../routes/users';
import { call, discourseConfig, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import {
  startFakeDiscourse,
  type FakeDiscourse,
  type FakeReply,
  type RecordedRequest,
} from '../testing/fakeDiscourse';
import { startTestWorker, stopTestWorkers } from '../testing/outbox';
import { NOW, seedScenario } from '../testing/scenario';
import { parseActionBody } from './actions';

let db: Db;
let fake: FakeDiscourse | null = null;

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
afterEach(async () => {
  await stopTestWorkers();
  await fake?.close();
  fake = null;
});

async function withForum(reply: (req: RecordedRequest) => FakeReply, timeoutMs = 2000) {
  fake = await startFakeDiscourse(reply);
  const deps = testDeps(db, NOW, { discourse: discourseConfig(fake.url, { timeoutMs }) });
  await startTestWorker(deps);
  return testApp(deps, [usersRoutes]);
}

async function memberOf(email: string) {
  const r = await db.query<{ mg_status: string; expires_at: Date | null }>(
    'SELECT m.mg_status, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1',
    [email],
  );
  return {
    mg_status: r.rows[0]?.mg_status,
    expires_at: r.rows[0]?.expires_at?.toISOString() ?? null,
  };
}

async function logMsgs() {
  const r = await db.query<{ level: string; msg: string }>(
    'SELECT level, msg FROM logs ORDER BY id',
  );
  return r.rows.map((x) => `${x.level}:${x.msg}`);
}

describe('access actions with Discourse configured', () => {
  it('grant adds the forum account to the group and reports {ok:true, status}', async () => {
    const app = await withForum((req) =>
      req.method === 'GET'
        ? { status: 200, body: [{ username: 'carol', email: 'carol@sample.org' }] }
        : { status: 200, body: { success: 'OK' } },
    );
    const res = await call(app, 'POST', '/users/actions/grant', { email: 'carol@sample.org' });
    expect(res.body.discourse).toEqual({ ok: true, status: 200 });
    expect(fake?.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'GET /admin/users/list/active.json',
      'PUT /groups/42/members.json',
    ]);
  });

  it('grant_on_date invites an address without a forum account', async () => {
    const app = await withForum((req) =>
      req.method === 'GET' ? { status: 200, body: [] } : { status: 200, body: { id: 3 } },
    );
    const res = await call(app, 'POST', '/users/actions/grant_on_date', {
      email: 'erin@example.com',
      until: '2027-01-01 00:00:00',
    });
    expect(res.body).toMatchObject({
      scheduled_expires_at: '2027-01-01T00:00:00.000Z',
      discourse: { ok: true, invited: true, groupId: 42 },
    });
  });

  it('a Discourse error never rolls back the access change: it is answered and logged as warn', async () => {
    const app = await withForum((req) =>
      req.path.startsWith('/u/system/invited.json')
        ? { status: 200, body: { invites: [] } }
        : req.method === 'GET'
          ? { status: 200, body: [{ username: 'ada', email: 'ada@example.com' }] }
          : {
              status: 422,
              body: {
                errors: ['ada is not a member of this group'],
                error_type: 'invalid_parameters',
              },
            },
    );
    const res = await call(app, 'POST', '/users/actions/revoke_now', { email: 'ada@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      email: 'ada@example.com',
      mg_status: 'cancelled',
      expires_at: NOW.toISOString(),
      scheduled_expires_at: null,
      discourse: {
        ok: false,
        status: 422,
        error: 'ada is not a member of this group',
        payload: { errors: ['ada is not a member of this group'] },
      },
    });
    expect(await memberOf('ada@example.com')).toEqual({
      mg_status: 'cancelled',
      expires_at: NOW.toISOString(),
    });
    expect(await logMsgs()).toEqual(['info:access.revoke_now', 'warn:discourse.error']);
  });

  it('a Discourse time-out is retried in the background: the answer says queued, with the error; access is still granted', async () => {
    const app = await withForum(() => 'hang', 150);
    const res = await call(app, 'POST', '/users/actions/grant', { email: 'carol@sample.org' });
    expect(res.status).toBe(200);
    expect(res.body.discourse).toEqual({
      queued: true,
      job_id: expect.any(Number),
      reason: expect.stringMatching(
        /^attempt 1 failed: Discourse timed out after 150 ms; retrying at 2026-11-20 12:00:0\d UTC$/,
      ),
      next_attempt_at: expect.stringMatching(/^2026-11-20T12:00:0\d/),
      last_status: null,
      last_error: 'Discourse timed out after 150 ms',
    });
    expect(await memberOf('carol@sample.org')).toEqual({ mg_status: 'active', expires_at: null });
  });

  it('scheduled revocations leave the forum alone until the expiration runs', async () => {
    const app = await withForum(() => ({ status: 500, body: {} }));
    const res = await call(app, 'POST', '/users/actions/revoke_deferred', {
      email: 'ada@example.com',
    });
    expect(res.body.discourse).toEqual({
      skipped: true,
      reason:
        'Access continues until 2026-12-05T10:00:00.000Z; the forum is updated when the expiration runs',
    });
    expect(fake?.requests).toEqual([]);
  });

  it('a 404 or 400 never calls Discourse', async () => {
    const app = await withForum(() => ({ status: 200, body: [] }));
    expect(
      (await call(app, 'POST', '/users/actions/grant', { email: 'ghost@example.com' })).status,
    ).toBe(404);
    expect(
      (
        await call(app, 'POST', '/users/actions/revoke_on_date', {
          email: 'ada@example.com',
          date: '2020-01-01 00:00:00',
        })
      ).status,
    ).toBe(400);
    expect(fake?.requests).toEqual([]);
  });
});

describe('parseActionBody', () => {
  it('normalises the email and parses the date field of each dated action', () => {
    expect(parseActionBody('grant', { email: ' A@B.co ' })).toEqual({
      kind: 'grant',
      email: 'a@b.co',
      at: null,
    });
    expect(
      parseActionBody('grant_on_date', {
        email: 'a@b.co',
        until: '2027-01-02 03:04:05',
      }).at?.toISOString(),
    ).toBe('2027-01-02T03:04:05.000Z');
    expect(
      parseActionBody('revoke_on_date', { email: 'a@b.co', date: '2027-01-02' }).at?.toISOString(),
    ).toBe('2027-01-02T00:00:00.000Z');
    // Extra fields are ignored; the date field of another action is not read.
    expect(parseActionBody('revoke_now', { email: 'a@b.co', date: 'garbage' }).at).toBeNull();
  });
});
