/**
 * The forum outbox end to end: jobs written with the
 * access change, a worker that retries 5xx/time-outs with back-off and honours a 429's
 * wait_seconds exactly, per-email order also with two workers, leases, nothing lost across a
 * restart, pending invites withdrawn on revoke, the expiration scheduler, and the /status
 * figures. The clock is a pinned, hand-advanced instant: no test sleeps for a back-off.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppDeps, ServerConfig } from '../context';
import type { Db } from '../db/types';
import { openDatabase } from '../db';
import { applyAccessAction } from '../access/actions';
import { EXPIRATION_LOCK_KEY } from '../access/expiration';
import { runExpirationJob, expirationJobStatus } from '../maintenance/expirationJob';
import { startExpirationScheduler } from '../maintenance/scheduler';
import { computeAdminStatus } from '../stats';
import { discourseConfig, freshDb, resetDb, testDeps } from '../testing/app';
import {
  fakeForum,
  startFakeDiscourse,
  type FakeDiscourse,
  type FakeForum,
} from '../testing/fakeDiscourse';
import { NOW, seedScenario } from '../testing/scenario';
import { enqueueForumJob } from './enqueue';
import { forumOutboxDiag } from './status';
import { ForumWorker, retryDelayMs, type ForumWorkerOptions } from './worker';

let db: Db;
let fake: FakeDiscourse | null = null;
let forum: FakeForum;
/** The pinned clock (ms since epoch); tests move it forward by hand. */
let clock = NOW.getTime();

const WORKER: ForumWorkerOptions = { random: () => 0.5, retryBaseMs: 5000, maxAttempts: 3 };

beforeAll(async () => {
  db = await freshDb();
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  await db.exec(`DELETE FROM meta WHERE key = 'expiration_last_run'`);
  await seedScenario(db);
  clock = NOW.getTime();
  forum = fakeForum({
    'ada@example.com': 'ada',
    'bob@example.com': 'bob',
    'carol@sample.org': 'carol',
    'dave_x@example.com': 'dave',
  });
  fake = await startFakeDiscourse((req) => forum.reply(req));
});
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/** Deps on `database` with Discourse at the fake, the hand-moved clock, and no answer wait. */
function depsOn(database: Db, overrides: Partial<ServerConfig> = {}): AppDeps {
  return {
    ...testDeps(database, NOW, {
      discourse: discourseConfig(fake?.url ?? 'http://127.0.0.1:9', { timeoutMs: 1000 }),
      outbox: { waitMs: 0 },
      ...overrides,
    }),
    now: () => new Date(clock),
  };
}

async function act(
  deps: AppDeps,
  kind: Parameters<typeof applyAccessAction>[1]['kind'],
  email: string,
  at: Date | null = null,
) {
  return applyAccessAction(deps, { kind, email, at });
}

async function jobs(database: Db = db) {
  const r = await database.query<{
    id: number;
    email: string;
    action: string;
    reason: string;
    state: string;
    attempts: number;
    next_attempt_at: Date;
  }>(
    'SELECT id, email, action, reason, state, attempts, next_attempt_at FROM forum_outbox ORDER BY id',
  );
  return r.rows.map((j) => ({ ...j, id: Number(j.id) }));
}

const rateLimited = (waitSeconds: number) => ({
  status: 429,
  body: {
    errors: [
      'You’ve performed this action too many times. Please wait 37 seconds before trying again.',
    ],
    error_type: 'rate_limit',
    extras: { wait_seconds: waitSeconds, time_left: `${waitSeconds} seconds` },
  },
});
const unavailable = { status: 503, body: { errors: ['Service Unavailable'] } };

describe('jobs are written with the access change', () => {
  it('grant and revoke_now write their job in the action; scheduled revocations write none', async () => {
    const deps = depsOn(db);
    const granted = await act(deps, 'grant', 'carol@sample.org');
    expect(granted.discourse).toEqual({
      queued: true,
      job_id: 1,
      reason: 'the forum is updated in the background',
    });
    await act(deps, 'revoke_now', 'ada@example.com');
    await act(deps, 'grant_on_date', 'erin@example.com', new Date('2027-01-01T00:00:00Z'));
    await act(deps, 'revoke_deferred', 'bob@example.com');
    await act(deps, 'revoke_on_date', 'ada@example.com', new Date('2027-01-01T00:00:00Z')).catch(
      () => undefined, // ada is cancelled now: 409, nothing written
    );
    expect((await jobs()).map((j) => [j.email, j.action, j.reason, j.state])).toEqual([
      ['carol@sample.org', 'grant', 'access.grant', 'pending'],
      ['ada@example.com', 'revoke', 'access.revoke_now', 'pending'],
      ['erin@example.com', 'grant', 'access.grant_on_date', 'pending'],
    ]);
  });

  it('a transaction that fails writes no job (and a refused action writes none)', async () => {
    await expect(
      db.transaction(async (tx) => {
        await enqueueForumJob(tx, {
          email: 'ada@example.com',
          action: 'grant',
          reason: 't',
          at: NOW,
        });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const deps = depsOn(db);
    await expect(act(deps, 'grant', 'ghost@example.com')).rejects.toMatchObject({ status: 404 });
    await expect(
      act(deps, 'grant_on_date', 'ada@example.com', new Date('2020-01-01T00:00:00Z')),
    ).rejects.toMatchObject({ status: 400 });
    expect(await jobs()).toEqual([]);
  });

  it('without Discourse settings the answer says so at once and the worker completes the job as skipped', async () => {
    const deps = depsOn(db, { discourse: null });
    const res = await act(deps, 'grant', 'carol@sample.org');
    expect(res.discourse).toEqual({ skipped: true, reason: 'Discourse not configured' });
    const ran = await new ForumWorker(deps, WORKER).runDue();
    expect(ran.map((r) => [r.state, r.outcome])).toEqual([
      ['done', { skipped: true, reason: 'Discourse not configured' }],
    ]);
    expect(fake?.requests).toEqual([]);
  });
});

describe('the worker', () => {
  it('retries a 5xx with exponential back-off, keeps each email in order, and lets other emails pass', async () => {
    const deps = depsOn(db);
    const worker = new ForumWorker(deps, WORKER);
    await act(deps, 'grant', 'carol@sample.org'); // job 1
    await act(deps, 'revoke_now', 'carol@sample.org'); // job 2, must wait for job 1
    await act(deps, 'revoke_now', 'ada@example.com'); // job 3, another email
    forum.faults.push(unavailable);

    const first = await worker.runDue();
    expect(first.map((r) => [r.id, r.state])).toEqual([
      [1, 'pending'],
      [3, 'done'],
    ]);
    // 5000 ms × 2^0, jitter factor 1 (random 0.5).
    expect(first[0]?.next_attempt_at?.toISOString()).toBe('2026-11-20T12:00:05.000Z');
    expect(forum.effects).toEqual(['revoke ada@example.com']);

    clock += 4999;
    expect(await worker.runDue()).toEqual([]);
    clock += 1;
    forum.faults.push(unavailable);
    const second = await worker.runDue();
    expect(second.map((r) => [r.id, r.state])).toEqual([[1, 'pending']]);
    // Second counted attempt: 10 s.
    expect(second[0]?.next_attempt_at?.toISOString()).toBe('2026-11-20T12:00:15.000Z');

    clock += 10_000;
    const third = await worker.runDue();
    expect(third.map((r) => [r.id, r.state])).toEqual([
      [1, 'done'],
      [2, 'done'],
    ]);
    expect(forum.effects).toEqual([
      'revoke ada@example.com',
      'grant carol@sample.org',
      'revoke carol@sample.org',
    ]);
    const warns = await db.query<{ context: { job_id: number; attempt: number; status: number } }>(
      `SELECT context FROM logs WHERE level = 'warn' AND msg = 'discourse.error' ORDER BY id`,
    );
    expect(warns.rows.map((w) => [w.context.job_id, w.context.attempt, w.context.status])).toEqual([
      [1, 1, 503],
      [1, 2, 503],
    ]);
  });

  it("honours a 429's wait_seconds exactly, pauses its claims meanwhile, and does not count it as an attempt", async () => {
    const deps = depsOn(db);
    const worker = new ForumWorker(deps, { ...WORKER, maxAttempts: 1 });
    await act(deps, 'grant', 'carol@sample.org');
    await act(deps, 'grant', 'ada@example.com');
    forum.faults.push(rateLimited(37));

    const first = await worker.runDue();
    // Paused: ada's job, due, is not even tried while the limit lasts.
    expect(first.map((r) => [r.email, r.state])).toEqual([['carol@sample.org', 'pending']]);
    expect(first[0]?.next_attempt_at?.toISOString()).toBe('2026-11-20T12:00:37.000Z');
    expect(first[0]?.outcome).toMatchObject({ ok: false, status: 429, wait_seconds: 37 });

    clock += 36_999;
    expect(await worker.runDue()).toEqual([]);
    clock += 1;
    const after = await worker.runDue();
    // maxAttempts 1, yet the job still ran after its 429: rate limits are not attempts.
    // (Due order: ada's job has been due since 12:00:00, carol's since 12:00:37.)
    expect(after.map((r) => [r.email, r.state])).toEqual([
      ['ada@example.com', 'done'],
      ['carol@sample.org', 'done'],
    ]);
    const rows = await db.query<{ attempts: number; rate_limited: number }>(
      'SELECT attempts, rate_limited FROM forum_outbox WHERE id = 1',
    );
    expect(rows.rows[0]).toEqual({ attempts: 2, rate_limited: 1 });
  });

  it('fails a job after maxAttempts, or at once on a permanent 4xx; a failed job does not block later jobs of its email', async () => {
    const deps = depsOn(db);
    const worker = new ForumWorker(deps, { ...WORKER, maxAttempts: 2 });
    await act(deps, 'grant', 'carol@sample.org'); // 1: 503, 503 → failed
    await act(deps, 'revoke_now', 'carol@sample.org'); // 2: runs after 1 failed
    await act(deps, 'grant', 'ada@example.com'); // 3: 422 → failed at once
    // Requests in order: 1's lookup, 3's lookup, then (5 s later) 1's lookup again.
    forum.faults.push(
      unavailable,
      { status: 422, body: { errors: ['Invalid group'] } },
      unavailable,
    );

    const first = await worker.runDue();
    expect(first.map((r) => [r.id, r.state])).toEqual([
      [1, 'pending'],
      [3, 'failed'],
    ]);
    clock += 5000;
    const later = await worker.runDue();
    expect(later.map((r) => [r.id, r.state])).toEqual([
      [1, 'failed'],
      [2, 'done'],
    ]);
    expect((await jobs()).map((j) => [j.id, j.state, j.attempts])).toEqual([
      [1, 'failed', 2],
      [2, 'done', 1],
      [3, 'failed', 1],
    ]);
    expect(forum.effects).toEqual(['revoke carol@sample.org']);
  });

  it('a job whose runner died is claimed again when its lease runs out; the late runner cannot overwrite', async () => {
    const deps = depsOn(db);
    const dead = new ForumWorker(deps, { ...WORKER, leaseMs: 60_000 });
    const alive = new ForumWorker(deps, { ...WORKER, leaseMs: 60_000 });
    await act(deps, 'grant', 'carol@sample.org');
    await act(deps, 'revoke_now', 'carol@sample.org');
    const claimed = await dead.claim();
    expect(claimed?.id).toBe(1);
    // Leased: neither it nor the later job of the same email runs.
    expect(await alive.runDue()).toEqual([]);
    clock += 60_000;
    const ran = await alive.runDue();
    expect(ran.map((r) => [r.id, r.state])).toEqual([
      [1, 'done'],
      [2, 'done'],
    ]);
    if (!claimed) throw new Error('unreachable');
    const late = await dead.attempt(claimed);
    expect(late.recorded).toBe(false);
    expect((await jobs()).map((j) => [j.id, j.state, j.attempts])).toEqual([
      [1, 'done', 2],
      [2, 'done', 1],
    ]);
    expect(forum.effects).toEqual([
      'grant carol@sample.org',
      'revoke carol@sample.org',
      'grant carol@sample.org', // the late runner's call: at-least-once, recorded nowhere
    ]);
  });

  it('two workers over one database never run a job twice nor out of order', async () => {
    const a = new ForumWorker(depsOn(db), { ...WORKER, maxAttempts: 20 });
    const b = new ForumWorker(depsOn(db), { ...WORKER, maxAttempts: 20 });
    const deps = depsOn(db);
    const emails = ['ada@example.com', 'bob@example.com', 'carol@sample.org', 'dave_x@example.com'];
    const expected = new Map<string, string[]>();
    for (let round = 0; round < 5; round++) {
      for (const email of emails) {
        const kind = round % 2 === 0 ? 'grant' : 'revoke_now';
        await act(deps, kind, email);
        expected.set(email, [
          ...(expected.get(email) ?? []),
          `${kind === 'grant' ? 'grant' : 'revoke'} ${email}`,
        ]);
      }
    }
    // Every 7th call answers 503 (retried after the back-off).
    let calls = 0;
    const base = forum.reply;
    forum.reply = (req) => (++calls % 7 === 0 ? unavailable : base(req));
    const runs: number[] = [];
    const byWorker = { a: 0, b: 0 };
    for (let i = 0; i < 50 && (await jobs()).some((j) => j.state === 'pending'); i++) {
      const [ra, rb] = await Promise.all([a.runDue(), b.runDue()]);
      byWorker.a += ra.length;
      byWorker.b += rb.length;
      expect([...ra, ...rb].every((r) => r.recorded)).toBe(true);
      runs.push(...[...ra, ...rb].filter((r) => r.state === 'done').map((r) => r.id));
      clock += 60_000;
    }
    expect(calls).toBeGreaterThan(7); // some attempts did fail and were retried
    expect(byWorker.a).toBeGreaterThan(0);
    expect(byWorker.b).toBeGreaterThan(0);
    expect((await jobs()).every((j) => j.state === 'done')).toBe(true);
    expect([...runs].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const email of emails) {
      expect(forum.effects.filter((e) => e.endsWith(` ${email}`))).toEqual(expected.get(email));
    }
  });
});

describe('revoke withdraws pending invites', () => {
  it('an invited address (no account yet) loses its invite on revoke_now', async () => {
    const deps = depsOn(db);
    const worker = new ForumWorker(deps, WORKER);
    await act(deps, 'grant', 'erin@example.com');
    await worker.runDue();
    expect(forum.invites.map((i) => i.email)).toEqual(['erin@example.com']);
    await act(deps, 'revoke_now', 'erin@example.com');
    const [ran] = await worker.runDue();
    expect(ran?.outcome).toEqual({ ok: true, status: 200, invites_removed: 1 });
    expect(forum.invites).toEqual([]);
    expect(forum.effects).toEqual(['invite erin@example.com', 'uninvite erin@example.com']);
  });
});

describe('nothing is lost across a restart', () => {
  it('jobs pending in a DATA_DIR database survive closing and reopening, and run afterwards', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mg-outbox-'));
    try {
      let disk = await openDatabase(dir);
      await seedScenario(disk);
      await act(depsOn(disk), 'grant', 'carol@sample.org');
      await act(depsOn(disk), 'revoke_now', 'ada@example.com');
      await disk.close();

      disk = await openDatabase(dir);
      try {
        expect((await jobs(disk)).map((j) => j.state)).toEqual(['pending', 'pending']);
        const ran = await new ForumWorker(depsOn(disk), WORKER).runDue();
        expect(ran.map((r) => r.state)).toEqual(['done', 'done']);
        expect(forum.effects).toEqual(['grant carol@sample.org', 'revoke ada@example.com']);
      } finally {
        await disk.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the expiration scheduler', () => {
  it('applies due dated and deferred revocations with trigger scheduler and writes their revoke jobs', async () => {
    const deps = depsOn(db, { expirationIntervalS: 0 });
    await act(deps, 'revoke_deferred', 'ada@example.com'); // until 2026-12-05 10:00
    await act(deps, 'revoke_on_date', 'erin@example.com', new Date('2026-12-01T00:00:00Z'));
    expect(await jobs()).toEqual([]);
    const scheduler = startExpirationScheduler(deps);
    try {
      clock = new Date('2026-12-05T10:00:00Z').getTime();
      const result = await scheduler.tick();
      expect(result?.affected).toEqual([
        'dave_x@example.com',
        'bob@example.com',
        'erin@example.com',
        'ada@example.com',
      ]);
      expect((await jobs()).map((j) => [j.email, j.action, j.reason])).toEqual([
        ['dave_x@example.com', 'revoke', 'expiration.scheduler'],
        ['bob@example.com', 'revoke', 'expiration.scheduler'],
        ['erin@example.com', 'revoke', 'expiration.scheduler'],
        ['ada@example.com', 'revoke', 'expiration.scheduler'],
      ]);
      expect((await expirationJobStatus(db)).last_run).toMatchObject({
        trigger: 'scheduler',
        ok: true,
        processed: 4,
      });
      await new ForumWorker(deps, WORKER).runDue();
      expect(forum.effects).toEqual([
        'revoke dave_x@example.com',
        'revoke bob@example.com',
        'revoke ada@example.com',
      ]);
      // Nothing more is due.
      expect((await scheduler.tick())?.processed).toBe(0);
    } finally {
      await scheduler.stop();
    }
  });

  it('a run while another holds the database lock is refused with 409 (PostgreSQL: another instance)', async (ctx) => {
    // PGlite has one session, in which advisory locks are re-entrant: only a pool can show it.
    if (db.kind !== 'postgres') ctx.skip();
    const deps = depsOn(db);
    const before = (await expirationJobStatus(db)).last_run;
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [EXPIRATION_LOCK_KEY]);
      await expect(
        runExpirationJob(deps, { dryRun: false, trigger: 'scheduler' }),
      ).rejects.toMatchObject({
        status: 409,
      });
    });
    // Nothing ran here, so the last run is not replaced by a failure.
    expect((await expirationJobStatus(db)).last_run).toEqual(before);
  });
});

describe('backlog and failures in /status and diag', () => {
  it('counts pending jobs, the oldest age, unresolved failures and the last error', async () => {
    const deps = depsOn(db);
    const worker = new ForumWorker(deps, { ...WORKER, maxAttempts: 1 });
    await act(deps, 'grant', 'carol@sample.org'); // fails (503, max 1)
    clock += 30_000;
    await act(deps, 'grant', 'ada@example.com'); // still pending
    forum.faults.push(unavailable);
    await worker.runOne();
    clock += 15_000;
    const status = await computeAdminStatus(db, deps.config, new Date(clock));
    expect(status).toMatchObject({
      db_ok: true,
      forum_pending: 1,
      forum_oldest_pending_s: 15,
      forum_failed: 1,
      forum_last_error: 'Service Unavailable',
      forum_last_error_at: '2026-11-20T12:00:30.000Z',
    });
    const diag = await forumOutboxDiag(db, new Date(clock));
    expect(diag).toMatchObject({
      pending: 1,
      failed: 1,
      failed_total: 1,
      recent_failures: [
        { id: 1, email: 'carol@sample.org', action: 'grant', attempts: 1, status: 503 },
      ],
    });
    // A later successful job of carol resolves her failure.
    await act(deps, 'revoke_now', 'carol@sample.org');
    await worker.runDue();
    expect((await computeAdminStatus(db, deps.config, new Date(clock))).forum_failed).toBe(0);
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base, jitters by ±25 % and caps', () => {
    const opts = { retryBaseMs: 1000, retryMaxMs: 10_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, { ...opts, random: () => 0.5 }))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelayMs(2, { ...opts, random: () => 0 })).toBe(1500);
    expect(retryDelayMs(2, { ...opts, random: () => 0.999999 })).toBe(2500);
    expect(retryDelayMs(30, { ...opts, random: () => 0.999999 })).toBe(10_000);
  });
});
