/**
 * Operator accounts end to end through the app: bootstrap, invites, roles, disabling, the last
 * owner, password changes, sessions, two-factor sign-in with recovery codes and the policy, the
 * per-account limit that cannot lock an operator out, and the append-only audit trail.
 */
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { purgeAudit } from '../audit/audit';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { flushDbLogs } from '../logging';
import { freshDb, resetDb } from '../testing/app';
import {
  makeTestConfig,
  makeTestDeps,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
} from '../testing/deps';
import { NOW, seedScenario } from '../testing/scenario';
import { totpCode } from './totp';

let db: Db;
let config: ServerConfig;
const clock = { now: NOW };

beforeAll(async () => {
  db = await freshDb();
  config = await makeTestConfig({ trustedProxyHops: 1 });
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  clock.now = NOW;
  await flushDbLogs(db);
  await resetDb(db);
  await seedScenario(db);
});

const app = () => createApp(makeTestDeps(db, config, clock));
const clientEnv = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };

/** Sends a JSON request → {status, body, cookies}. */
async function send(
  a: Hono,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; from?: string; cookie?: string } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
): Promise<{ status: number; body: any; cookies: string[] }> {
  const headers: Record<string, string> = {
    'x-forwarded-for': opts.from ?? '198.51.100.7',
    'user-agent': 'operators-test/1.0',
  };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await a.request(
    `/api/admin${path}`,
    {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    },
    clientEnv,
  );
  const text = await res.text();
  return {
    status: res.status,
    body: text === '' ? null : JSON.parse(text),
    cookies: res.headers.getSetCookie(),
  };
}

const signIn = (a: Hono, email: string, password: string, extra: Record<string, string> = {}) =>
  send(a, 'POST', '/auth/login', { body: { email, password, ...extra } });

async function ownerToken(a: Hono): Promise<string> {
  const res = await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** Invites `email` as `role` and accepts the invite with `password` → the invite answer. */
async function inviteAndAccept(
  a: Hono,
  owner: string,
  email: string,
  role: string,
  password: string,
) {
  const invited = await send(a, 'POST', '/operators', {
    token: owner,
    body: { email, name: `Name of ${email}`, role },
  });
  expect(invited.status).toBe(201);
  const accepted = await send(a, 'POST', '/auth/invite/accept', {
    body: { token: invited.body.invite.token, password },
  });
  expect(accepted.status).toBe(200);
  return invited.body;
}

const auditRows = async (action: string) =>
  (
    await db.query<{ operator_email: string | null; target: string | null; outcome: string }>(
      'SELECT operator_email, target, outcome FROM audit_log WHERE action = $1 ORDER BY id',
      [action],
    )
  ).rows;

describe('bootstrap and who-am-I', () => {
  it('the configured admin becomes the owner "Admin" on the first sign-in', async () => {
    const a = app();
    const token = await ownerToken(a);
    const who = await send(a, 'GET', '/auth/whoami', { token });
    expect(who.body.operator).toMatchObject({
      email: TEST_ADMIN_EMAIL,
      name: 'Admin',
      role: 'owner',
      totp_enabled: false,
    });
    const ops = await send(a, 'GET', '/operators', { token });
    expect(ops.body.operators).toHaveLength(1);
    expect(ops.body.require_totp).toBe(false);
  });
});

describe('invites and roles', () => {
  it('invite, accept, sign in as support, run an access action, find it in the audit under that operator', async () => {
    const a = app();
    const owner = await ownerToken(a);
    const made = await inviteAndAccept(
      a,
      owner,
      'sam@team.example',
      'support',
      'support desk 2026!',
    );
    expect(made.invite.url).toMatch(/\/admin\/invite\/[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(made.invite.expires_at) - NOW.getTime()).toBe(72 * 3600_000);
    const sam = await signIn(a, 'sam@team.example', 'support desk 2026!');
    expect(sam.status).toBe(200);
    const action = await send(a, 'POST', '/users/actions/revoke_now', {
      token: sam.body.token,
      body: { email: 'ada@example.com' },
    });
    expect(action.status).toBe(200);
    const audit = await send(a, 'GET', '/audit?operator=sam@team.example&action=access', {
      token: owner,
    });
    expect(audit.body.rows).toHaveLength(1);
    expect(audit.body.rows[0]).toMatchObject({
      operator_email: 'sam@team.example',
      action: 'access.revoke_now',
      target: 'ada@example.com',
      outcome: 'ok',
    });
    expect(audit.body.rows[0].detail.before.mg_status).toBe('active');
    // The customer's drawer asks by target.
    const byTarget = await send(a, 'GET', '/audit?target=ADA@example.com', { token: owner });
    expect(byTarget.body.rows.map((r: { action: string }) => r.action)).toEqual([
      'access.revoke_now',
    ]);
  });

  it('a support operator cannot run maintenance or manage operators: 403 FORBIDDEN, nothing written', async () => {
    const a = app();
    const owner = await ownerToken(a);
    await inviteAndAccept(a, owner, 'sam@team.example', 'support', 'support desk 2026!');
    const sam = (await signIn(a, 'sam@team.example', 'support desk 2026!')).body.token as string;
    const run = await send(a, 'POST', '/maintenance/run-expiration', {
      token: sam,
      body: { dryRun: false },
    });
    expect(run.status).toBe(403);
    expect(run.body).toMatchObject({ ok: false, code: 'FORBIDDEN', required_role: 'admin' });
    const invite = await send(a, 'POST', '/operators', {
      token: sam,
      body: { email: 'x@team.example', name: 'X', role: 'owner' },
    });
    expect(invite.status).toBe(403);
    expect(await auditRows('maintenance.run_expiration')).toEqual([]);
  });

  it('an invite expires after 72 hours and is single-use', async () => {
    const a = app();
    const owner = await ownerToken(a);
    const invited = await send(a, 'POST', '/operators', {
      token: owner,
      body: { email: 'late@team.example', name: 'Late', role: 'viewer' },
    });
    const token = invited.body.invite.token as string;
    expect((await send(a, 'POST', '/auth/invite/check', { body: { token } })).body).toMatchObject({
      email: 'late@team.example',
      role: 'viewer',
    });
    clock.now = new Date(NOW.getTime() + 72 * 3600_000 + 1000);
    const late = await send(a, 'POST', '/auth/invite/accept', {
      body: { token, password: 'a long enough password' },
    });
    expect(late.status).toBe(404);
    expect(late.body.code).toBe('INVITE_INVALID');
    clock.now = NOW;
    expect(
      (
        await send(a, 'POST', '/auth/invite/accept', {
          body: { token, password: 'a long enough password' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await send(a, 'POST', '/auth/invite/accept', {
          body: { token, password: 'another long password' },
        })
      ).status,
    ).toBe(404);
  });

  it.each([
    ['twelve spaces', '            '],
    ['"admin" and seven spaces', 'admin       '],
    ['a common password', 'password1234'],
    ['eleven characters', 'abcdefghijk'],
  ])(
    'refuses %s as a password (400 WEAK_PASSWORD), leaving the invite usable',
    async (_, password) => {
      const a = app();
      const owner = await ownerToken(a);
      const invited = await send(a, 'POST', '/operators', {
        token: owner,
        body: { email: 'new@team.example', name: 'New', role: 'viewer' },
      });
      const token = invited.body.invite.token as string;
      const weak = await send(a, 'POST', '/auth/invite/accept', { body: { token, password } });
      expect(weak.status).toBe(400);
      expect(weak.body.code).toBe('WEAK_PASSWORD');
      expect(
        (
          await send(a, 'POST', '/auth/invite/accept', {
            body: { token, password: 'now a good one 4711' },
          })
        ).status,
      ).toBe(200);
    },
  );
});

describe('changing operators', () => {
  it('disabling ends every session of that operator at once; re-enabling lets them sign in again', async () => {
    const a = app();
    const owner = await ownerToken(a);
    const made = await inviteAndAccept(
      a,
      owner,
      'vic@team.example',
      'viewer',
      'viewer password 99',
    );
    const vic = (await signIn(a, 'vic@team.example', 'viewer password 99')).body.token as string;
    expect((await send(a, 'GET', '/users', { token: vic })).status).toBe(200);
    const off = await send(a, 'PATCH', `/operators/${made.operator.id}`, {
      token: owner,
      body: { disabled: true },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ operator: { status: 'disabled' }, sessions_ended: 1 });
    expect((await send(a, 'GET', '/users', { token: vic })).status).toBe(401);
    expect((await signIn(a, 'vic@team.example', 'viewer password 99')).body.code).toBe(
      'INCORRECT_USER',
    );
    await send(a, 'PATCH', `/operators/${made.operator.id}`, {
      token: owner,
      body: { disabled: false, role: 'admin' },
    });
    const back = await signIn(a, 'vic@team.example', 'viewer password 99');
    expect(back.status).toBe(200);
    expect(
      (await send(a, 'GET', '/auth/whoami', { token: back.body.token })).body.operator.role,
    ).toBe('admin');
    expect((await auditRows('operator.disable'))[0]).toMatchObject({
      operator_email: TEST_ADMIN_EMAIL,
      target: 'vic@team.example',
    });
  });

  it('the last active owner cannot be demoted or disabled (409 LAST_OWNER)', async () => {
    const a = app();
    const owner = await ownerToken(a);
    const me = (await send(a, 'GET', '/auth/whoami', { token: owner })).body.operator.id as number;
    for (const change of [{ role: 'admin' }, { disabled: true }]) {
      const res = await send(a, 'PATCH', `/operators/${me}`, { token: owner, body: change });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('LAST_OWNER');
    }
    // An invited owner who never set a password does not count as active.
    await send(a, 'POST', '/operators', {
      token: owner,
      body: { email: 'o2@team.example', name: 'O2', role: 'owner' },
    });
    expect(
      (await send(a, 'PATCH', `/operators/${me}`, { token: owner, body: { role: 'admin' } }))
        .status,
    ).toBe(409);
  });
});

describe('my account', () => {
  it('lists my sessions and ends one of them', async () => {
    const a = app();
    const first = await ownerToken(a);
    const second = await ownerToken(a);
    const list = await send(a, 'GET', '/auth/sessions', { token: first });
    expect(list.body.sessions).toHaveLength(2);
    const other = list.body.sessions.find((s: { current: boolean }) => !s.current);
    expect(other).toMatchObject({ ip: '198.51.100.7' });
    const end = await send(a, 'DELETE', `/auth/sessions/${other.id}`, { token: first });
    expect(end.status).toBe(200);
    expect((await send(a, 'GET', '/auth/whoami', { token: second })).status).toBe(401);
    expect((await send(a, 'GET', '/auth/whoami', { token: first })).status).toBe(200);
    expect((await auditRows('auth.session_end')).length).toBe(1);
  });

  it('a wrong current password is a 400 (not a sign-out) and changes nothing', async () => {
    const a = app();
    const token = await ownerToken(a);
    const res = await send(a, 'POST', '/auth/password', {
      token,
      body: { current: 'not it', next: 'a brand new password' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INCORRECT_PASSWORD');
    expect((await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe('two-factor sign-in (RFC 6238)', () => {
  async function enrol(a: Hono, token: string): Promise<{ secret: string; codes: string[] }> {
    const setup = await send(a, 'POST', '/auth/totp/setup', { token });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const secret = setup.body.secret as string;
    const wrong = await send(a, 'POST', '/auth/totp/enable', { token, body: { otp: '000000' } });
    expect(wrong.status).toBe(400);
    const on = await send(a, 'POST', '/auth/totp/enable', {
      token,
      body: { otp: totpCode(secret, clock.now.getTime()) },
    });
    expect(on.status).toBe(200);
    expect(on.body.recovery_codes).toHaveLength(10);
    return { secret, codes: on.body.recovery_codes };
  }

  it('asks for the code, refuses a wrong or reused one, accepts ±1 step and a recovery code once', async () => {
    const a = app();
    const token = await ownerToken(a);
    const { secret, codes } = await enrol(a, token);

    const bare = await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    expect(bare.status).toBe(401);
    expect(bare.body.code).toBe('OTP_REQUIRED');
    expect(bare.body.token).toBeUndefined();

    const wrong = await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, { otp: '123456' });
    expect(wrong.body.code).toBe('OTP_INVALID');

    // The enrolment used the current step: the next step's code (one step ahead) is accepted once.
    const ahead = totpCode(secret, clock.now.getTime() + 30_000);
    expect((await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, { otp: ahead })).status).toBe(
      200,
    );
    expect((await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, { otp: ahead })).body.code).toBe(
      'OTP_INVALID',
    );
    // Two steps away is outside the window.
    clock.now = new Date(NOW.getTime() + 120_000);
    const stale = totpCode(secret, NOW.getTime() + 60_000);
    expect((await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, { otp: stale })).body.code).toBe(
      'OTP_INVALID',
    );

    const recovery = codes[3] ?? '';
    const used = await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, {
      recovery_code: recovery.toUpperCase(),
    });
    expect(used.status).toBe(200);
    expect(
      (await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, { recovery_code: recovery })).body
        .code,
    ).toBe('OTP_INVALID');
    const logins = await auditRows('auth.login');
    expect(logins.length).toBeGreaterThanOrEqual(3);
    expect((await auditRows('auth.totp_enable')).length).toBe(1);
  });

  it('code guesses count against the sign-in limit; asking for the code does not', async () => {
    const a = app();
    const token = await ownerToken(a);
    const { secret } = await enrol(a, token);
    const from = '192.0.2.77';
    const attempt = (extra: Record<string, string>) =>
      send(a, 'POST', '/auth/login', {
        from,
        body: { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD, ...extra },
      });
    // The right password without a code is not a failure, however often.
    for (let i = 0; i < 12; i++) expect((await attempt({})).body.code).toBe('OTP_REQUIRED');
    // LOGIN_RATE_MAX (10 in the tests) wrong codes with the right password...
    const valid = new Set(
      [-1, 0, 1].map((step) => totpCode(secret, clock.now.getTime() + step * 30_000)),
    );
    const wrong = Array.from({ length: 13 }, (_, i) => String(100000 + i)).filter(
      (code) => !valid.has(code),
    );
    for (const otp of wrong.slice(0, 10)) {
      expect((await attempt({ otp })).body.code).toBe('OTP_INVALID');
    }
    // ...and this address waits, even with the right code.
    const held = await attempt({ otp: totpCode(secret, clock.now.getTime() + 30_000) });
    expect(held.status).toBe(429);
    expect(held.body.code).toBe('RATE_LIMITED');
  });

  it('an owner can require it: an operator without it may only enrol until they do', async () => {
    const a = app();
    const owner = await ownerToken(a);
    await inviteAndAccept(a, owner, 'sam@team.example', 'support', 'support desk 2026!');
    expect(
      (await send(a, 'PUT', '/auth/policy', { token: owner, body: { require_totp: true } })).status,
    ).toBe(200);
    const sam = (await signIn(a, 'sam@team.example', 'support desk 2026!')).body.token as string;
    const who = await send(a, 'GET', '/auth/whoami', { token: sam });
    expect(who.body.must_enrol_totp).toBe(true);
    const users = await send(a, 'GET', '/users', { token: sam });
    expect(users.status).toBe(403);
    expect(users.body.code).toBe('TOTP_ENROLMENT_REQUIRED');
    await enrol(a, sam);
    expect((await send(a, 'GET', '/users', { token: sam })).status).toBe(200);
    // Turning it off is refused while the policy holds.
    const off = await send(a, 'POST', '/auth/totp/disable', {
      token: sam,
      body: { password: 'support desk 2026!', otp: '000000' },
    });
    expect(off.body.code).toBe('TOTP_REQUIRED_BY_POLICY');
  });
});

describe('the per-account limit is not a lockout', () => {
  const hammer = async (a: Hono) => {
    // 30 wrong passwords for the owner, ten each from three addresses.
    for (let i = 0; i < 30; i++) {
      await send(a, 'POST', '/auth/login', {
        from: `203.0.113.${i % 3}`,
        body: { email: TEST_ADMIN_EMAIL, password: `wrong ${i}` },
      });
    }
  };

  it("the operator's own browser (device cookie) still signs in after 30 failures from other addresses", async () => {
    const a = app();
    const first = await signIn(a, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const device = first.cookies.find((c) => c.startsWith('mg_admin_device='))?.split(';')[0] ?? '';
    expect(device).not.toBe('');
    await hammer(a);
    const stranger = await send(a, 'POST', '/auth/login', {
      from: '192.0.2.50',
      body: { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
    });
    expect(stranger.status).toBe(429);
    const mine = await send(a, 'POST', '/auth/login', {
      from: '192.0.2.51',
      cookie: device,
      body: { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD },
    });
    expect(mine.status).toBe(200);
  });

  it("a correct password with a valid code is never held back by other addresses' failures", async () => {
    const a = app();
    const token = await ownerToken(a);
    const setup = await send(a, 'POST', '/auth/totp/setup', { token });
    await send(a, 'POST', '/auth/totp/enable', {
      token,
      body: { otp: totpCode(setup.body.secret, clock.now.getTime()) },
    });
    await hammer(a);
    clock.now = new Date(NOW.getTime() + 30_000);
    const res = await send(a, 'POST', '/auth/login', {
      from: '192.0.2.60',
      body: {
        email: TEST_ADMIN_EMAIL,
        password: TEST_ADMIN_PASSWORD,
        otp: totpCode(setup.body.secret, clock.now.getTime()),
      },
    });
    expect(res.status).toBe(200);
  });
});

describe('the audit trail is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE; the retention purge deletes only old rows', async () => {
    const a = app();
    await ownerToken(a);
    const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))
      .rows[0]?.n;
    expect(before).toBeGreaterThan(0);
    await expect(db.query("UPDATE audit_log SET outcome = 'forged'")).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(db.exec('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await db.query(
      `INSERT INTO audit_log (at, action, outcome) VALUES (now() - interval '500 days', 'auth.login', 'ok')`,
    );
    expect(await purgeAudit({ db }, 400, new Date())).toBe(1);
    // Even a purge cannot take rows younger than 30 days.
    expect(await purgeAudit({ db }, 0, new Date(Date.now() + 86_400_000))).toBe(0);
    const after = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))
      .rows[0]?.n;
    expect(after).toBe(before);
  });

  it('writes a row per audited change (operator, target, outcome, address, browser); a refused change writes none', async () => {
    // The trail outlives resetDb (it is append-only): only this test's rows are read.
    const since =
      (await db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit_log'))
        .rows[0]?.id ?? 0;
    const a = app();
    const owner = await ownerToken(a);
    await signIn(a, TEST_ADMIN_EMAIL, 'wrong password');
    const made = await inviteAndAccept(
      a,
      owner,
      'sam@team.example',
      'support',
      'support desk 2026!',
    );
    const patch = (body: unknown) =>
      send(a, 'PATCH', `/operators/${made.operator.id}`, { token: owner, body });
    expect((await patch({ role: 'admin' })).status).toBe(200);
    expect((await patch({ disabled: true })).status).toBe(200);
    expect((await patch({ disabled: false })).status).toBe(200);
    expect(
      (await send(a, 'PUT', '/auth/policy', { token: owner, body: { require_totp: false } }))
        .status,
    ).toBe(200);

    // Sam's own account: a password change ending the other session, a session ended by hand,
    // two-factor sign-in on and off.
    const sam = (await signIn(a, 'sam@team.example', 'support desk 2026!')).body.token as string;
    await signIn(a, 'sam@team.example', 'support desk 2026!');
    const changed = await send(a, 'POST', '/auth/password', {
      token: sam,
      body: { current: 'support desk 2026!', next: 'a new desk password 7' },
    });
    expect(changed.body).toEqual({ ok: true, sessions_ended: 1 });
    await signIn(a, 'sam@team.example', 'a new desk password 7');
    const sessions = await send(a, 'GET', '/auth/sessions', { token: sam });
    const other = sessions.body.sessions.find((x: { current: boolean }) => !x.current);
    expect((await send(a, 'DELETE', `/auth/sessions/${other.id}`, { token: sam })).status).toBe(
      200,
    );
    const named = await send(a, 'POST', '/auth/totp/setup', { token: sam, body: { otp: '1' } });
    expect(named.status).toBe(400);
    const setup = await send(a, 'POST', '/auth/totp/setup', { token: sam });
    const secret = setup.body.secret as string;
    await send(a, 'POST', '/auth/totp/enable', {
      token: sam,
      body: { otp: totpCode(secret, clock.now.getTime()) },
    });
    clock.now = new Date(NOW.getTime() + 30_000);
    const off = await send(a, 'POST', '/auth/totp/disable', {
      token: sam,
      body: { password: 'a new desk password 7', otp: totpCode(secret, clock.now.getTime()) },
    });
    expect(off.status).toBe(200);

    // Sam is an admin now: enforce-now, an expiration run, a ping; then signs out.
    const enforce = await send(a, 'POST', '/maintenance/enforce-now', {
      token: sam,
      body: { email: 'ada@example.com' },
    });
    expect(enforce.status).toBe(200);
    const run = await send(a, 'POST', '/maintenance/run-expiration', {
      token: sam,
      body: { dryRun: true },
    });
    expect(run.status).toBe(200);
    expect((await send(a, 'GET', '/maintenance/ping-discourse', { token: sam })).status).toBe(200);
    expect((await send(a, 'POST', '/auth/logout', { token: sam })).status).toBe(200);

    // Refused changes roll back with their transaction: no row.
    const me = (await send(a, 'GET', '/auth/whoami', { token: owner })).body.operator.id as number;
    const lastOwner = await send(a, 'PATCH', `/operators/${me}`, {
      token: owner,
      body: { role: 'viewer' },
    });
    expect(lastOwner.body.code).toBe('LAST_OWNER');
    const weak = await send(a, 'POST', '/auth/password', {
      token: owner,
      body: { current: TEST_ADMIN_PASSWORD, next: 'admin       ' },
    });
    expect(weak.body.code).toBe('WEAK_PASSWORD');

    const rows = (
      await db.query<{
        action: string;
        operator_email: string | null;
        target: string | null;
        outcome: string;
        ip: string | null;
        user_agent: string | null;
      }>(
        `SELECT action, operator_email, target, outcome, ip, user_agent FROM audit_log
          WHERE id > $1 ORDER BY id`,
        [since],
      )
    ).rows;
    const O = TEST_ADMIN_EMAIL;
    const S = 'sam@team.example';
    expect(rows.map((r) => [r.action, r.operator_email, r.target, r.outcome])).toEqual([
      ['auth.login', O, O, 'ok'],
      ['auth.login_failed', O, O, 'failed'],
      ['operator.create', O, S, 'ok'],
      ['operator.invite_accept', S, S, 'ok'],
      ['operator.update', O, S, 'ok'],
      ['operator.disable', O, S, 'ok'],
      ['operator.enable', O, S, 'ok'],
      ['auth.policy_change', O, null, 'ok'],
      ['auth.login', S, S, 'ok'],
      ['auth.login', S, S, 'ok'],
      ['auth.password_change', S, S, 'ok'],
      ['auth.login', S, S, 'ok'],
      ['auth.session_end', S, S, 'ok'],
      ['auth.totp_setup', S, S, 'ok'],
      ['auth.totp_enable', S, S, 'ok'],
      ['auth.totp_disable', S, S, 'ok'],
      ['maintenance.enforce_now', S, 'ada@example.com', 'ok'],
      ['maintenance.run_expiration', S, null, 'ok'],
      ['maintenance.ping_discourse', S, null, 'failed'],
      ['auth.logout', S, S, 'ok'],
    ]);
    for (const r of rows) {
      expect({ action: r.action, ip: r.ip, ua: r.user_agent }).toEqual({
        action: r.action,
        ip: '198.51.100.7',
        ua: 'operators-test/1.0',
      });
    }
  });

  it('records failed sign-ins without the typed email of an unknown account', async () => {
    const a = app();
    await signIn(a, 'nobody@example.com', 'whatever it is');
    await signIn(a, TEST_ADMIN_EMAIL, 'wrong password');
    const rows = await auditRows('auth.login_failed');
    expect(rows.slice(-2)).toEqual([
      { operator_email: null, target: null, outcome: 'failed' },
      { operator_email: TEST_ADMIN_EMAIL, target: TEST_ADMIN_EMAIL, outcome: 'failed' },
    ]);
  });

  it('GET /audit validates its filters with 400s', async () => {
    const a = app();
    const token = await ownerToken(a);
    for (const q of [
      'action=DROP TABLE',
      'from=2026-13-01',
      'operator=not-an-email',
      'pageSize=500',
      'from=2026-11-20&to=2026-11-01',
    ]) {
      expect((await send(a, 'GET', `/audit?${q}`, { token })).status).toBe(400);
    }
  });
});
