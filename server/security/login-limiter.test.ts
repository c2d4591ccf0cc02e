/**
 * Security suite, sign-in limiting: a parallel burst is limited because
 * attempts are reserved before the password is verified; per client and per account; the client
 * is read from a configured number of trusted proxy hops; the LRU stays bounded; saturated
 * password checks answer 429, never 5xx; the sign-in body is capped at 4 KiB.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { clientAddress, MAX_LOGIN_BODY_BYTES } from '../auth/routes';
import { createSemaphore, createSlidingWindowLimiter, type Semaphore } from '../auth/rateLimit';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { freshDb } from '../testing/app';
import {
  makeTestConfig,
  makeTestDeps,
  TEST_ADMIN_EMAIL,
  TEST_ADMIN_PASSWORD,
} from '../testing/deps';

const T0 = new Date('2026-11-20T09:00:00.000Z');
const socket = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

let db: Db;
let config: ServerConfig;
beforeAll(async () => {
  db = await freshDb();
  config = await makeTestConfig({ loginRateLimit: { maxAttempts: 10, windowS: 900 } });
}, 120_000);
afterAll(async () => {
  await db?.close();
});

/** A semaphore that counts how many password checks were let through. */
function countingSlots(): Semaphore & { granted: number } {
  const inner = createSemaphore(2);
  const slots = {
    granted: 0,
    acquire: async (waitMs: number) => {
      const release = await inner.acquire(waitMs);
      if (release) slots.granted++;
      return release;
    },
    active: () => inner.active(),
  };
  return slots;
}

function attempt(
  app: Hono,
  opts: { password?: string; email?: string; address?: string; xff?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.xff) headers['x-forwarded-for'] = opts.xff;
  return app.request(
    '/api/admin/auth/login',
    {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email: opts.email ?? TEST_ADMIN_EMAIL,
        password: opts.password ?? 'wrong password',
      }),
    },
    socket(opts.address ?? '198.51.100.1'),
  );
}

describe('a parallel burst of wrong passwords', () => {
  it('verifies at most the limit and answers the rest 429 with Retry-After', async () => {
    const slots = countingSlots();
    const app = createApp(makeTestDeps(db, config, { now: T0 }), { auth: { hashSlots: slots } });
    const answers = await Promise.all(Array.from({ length: 40 }, () => attempt(app)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(slots.granted).toBe(10);
    const refused = answers.find((r) => r.status === 429);
    expect(refused?.headers.get('retry-after')).toBe('900');
    expect(await refused?.json()).toEqual({
      error: 'rate_limited',
      ok: false,
      code: 'RATE_LIMITED',
      message: 'Too many sign-in attempts. Try again in 900 seconds.',
      retry_after_s: 900,
    });
    // Even the right password is refused now, and not verified.
    expect((await attempt(app, { password: TEST_ADMIN_PASSWORD })).status).toBe(429);
    expect(slots.granted).toBe(10);
  });

  it('limits per account across many client addresses', async () => {
    const slots = countingSlots();
    const perAccount = { ...config, loginAccountRateMax: 5 };
    const app = createApp(makeTestDeps(db, perAccount, { now: T0 }), {
      auth: { hashSlots: slots },
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(app, { address: `203.0.113.${i + 1}` })),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
    expect(slots.granted).toBe(5);
    // Another account from a fresh address is not affected.
    expect((await attempt(app, { email: 'x@example.com', address: '203.0.113.99' })).status).toBe(
      401,
    );
  });

  it('a success forgets the client failures but counts nothing itself', async () => {
    const small = { ...config, loginRateLimit: { maxAttempts: 3, windowS: 60 } };
    const app = createApp(makeTestDeps(db, small, { now: T0 }));
    expect((await attempt(app)).status).toBe(401);
    expect((await attempt(app)).status).toBe(401);
    expect((await attempt(app, { password: TEST_ADMIN_PASSWORD })).status).toBe(200);
    // The two failures were forgotten: three more are allowed before the limit.
    for (let i = 0; i < 3; i++) expect((await attempt(app)).status).toBe(401);
    expect((await attempt(app)).status).toBe(429);
  });

  it('answers 429 (never 5xx) when the password checks are saturated, without counting', async () => {
    const full: Semaphore = { acquire: () => Promise.resolve(null), active: () => 2 };
    const app = createApp(makeTestDeps(db, config, { now: T0 }), { auth: { hashSlots: full } });
    const res = await attempt(app, { password: TEST_ADMIN_PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('spoofed X-Forwarded-For', () => {
  it('with 0 trusted hops the header is ignored: rotating it does not escape the limit', async () => {
    const small = { ...config, loginRateLimit: { maxAttempts: 3, windowS: 900 } };
    const app = createApp(makeTestDeps(db, small, { now: T0 }));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await attempt(app, { xff: `10.0.0.${i}`, address: '198.51.100.50' })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it('with 1 trusted hop the proxy-appended (rightmost) entry is the client, not the leftmost', async () => {
    const small = {
      ...config,
      trustedProxyHops: 1,
      loginRateLimit: { maxAttempts: 3, windowS: 900 },
    };
    const app = createApp(makeTestDeps(db, small, { now: T0 }));
    const statuses: number[] = [];
    // The attacker forges the left part; the proxy (socket 10.0.0.1) appends the real address.
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await attempt(app, { xff: `192.0.2.${i}, 203.0.113.77`, address: '10.0.0.1' })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // A different real client behind the same proxy is not limited.
    expect((await attempt(app, { xff: '203.0.113.78', address: '10.0.0.1' })).status).toBe(401);
  });

  it('TRUST_PROXY=true still means one hop', async () => {
    const legacy = {
      ...config,
      trustProxy: true,
      loginRateLimit: { maxAttempts: 1, windowS: 900 },
    };
    const app = createApp(makeTestDeps(db, legacy, { now: T0 }));
    expect((await attempt(app, { xff: 'forged, 203.0.113.5', address: '10.0.0.1' })).status).toBe(
      401,
    );
    expect((await attempt(app, { xff: 'other, 203.0.113.5', address: '10.0.0.1' })).status).toBe(
      429,
    );
  });

  it('clientAddress picks the n-th entry from the right and falls back sensibly', async () => {
    const probe = async (hops: number, xff?: string) => {
      const app = new Hono();
      app.get('/', (c) => c.text(clientAddress(c, hops)));
      const res = await app.request(
        '/',
        { headers: xff ? { 'x-forwarded-for': xff } : {} },
        socket('10.9.9.9'),
      );
      return res.text();
    };
    expect(await probe(0, 'a, b, c')).toBe('10.9.9.9');
    expect(await probe(1, 'a, b, c')).toBe('c');
    expect(await probe(2, 'a, b, c')).toBe('b');
    expect(await probe(5, 'a, b, c')).toBe('a');
    expect(await probe(1)).toBe('10.9.9.9');
    expect(await probe(1, ' , ')).toBe('10.9.9.9');
  });
});

describe('bounded memory', () => {
  it('keeps at most maxKeys keys, evicting the least recently used, without scans', () => {
    const limiter = createSlidingWindowLimiter(2, 60_000, 100);
    for (let i = 0; i < 10_000; i++) limiter.record(`k${i}`, i);
    expect(limiter.size()).toBe(100);
    // The newest keys are kept, the oldest evicted.
    expect(limiter.check('k9999', 10_000)).toEqual({ allowed: true });
    limiter.record('k9999', 10_001);
    expect(limiter.check('k9999', 10_002)).toMatchObject({ allowed: false });
  });

  it('reserve is check+record in one step; release gives the attempt back', () => {
    const limiter = createSlidingWindowLimiter(1, 1000);
    const first = limiter.reserve('a', 0);
    expect(first.allowed).toBe(true);
    expect(limiter.reserve('a', 1)).toEqual({ allowed: false, retryAfterS: 1 });
    if (first.allowed) first.reservation.release();
    expect(limiter.reserve('a', 2).allowed).toBe(true);
  });

  it('the hashing semaphore lets `slots` through, queues briefly, refuses beyond the queue', async () => {
    const sem = createSemaphore(1, 1);
    const a = await sem.acquire(1000);
    expect(a).not.toBeNull();
    const waiting = sem.acquire(5000);
    expect(await sem.acquire(1000)).toBeNull(); // queue full
    a?.();
    const b = await waiting;
    expect(b).not.toBeNull();
    expect(await sem.acquire(10)).toBeNull(); // timed out
    b?.();
    expect(sem.active()).toBe(0);
  });
});

describe('sign-in body limit', () => {
  it(`answers 413 JSON for a body over ${MAX_LOGIN_BODY_BYTES} bytes, before any check`, async () => {
    const app = createApp(makeTestDeps(db, config, { now: T0 }));
    const res = await app.request(
      '/api/admin/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: 'x'.repeat(5000) }),
      },
      socket('198.51.100.200'),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'payload_too_large',
      message: `Request body exceeds ${MAX_LOGIN_BODY_BYTES} bytes`,
    });
  });
});
