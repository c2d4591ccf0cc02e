import type { Db } from '../db/types';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, freshDb, resetDb, testApp, testDeps } from '../testing/app';
import { insertCustomer, insertMember, insertSubscription } from '../testing/fixtures';
import { expectBroadEmailRead, expectTransactionSettings } from '../testing/planner';
import { NOW, seedScenario, snapshot } from '../testing/scenario';
import { USER_SORT_KEYS, usersRoutes, type UserRowJson } from './users';

let db: Db;
let app: Hono;

beforeAll(async () => {
  db = await freshDb();
  app = testApp(testDeps(db, NOW), [usersRoutes]);
}, 120_000);
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await resetDb(db);
  await seedScenario(db);
});

const ids = (body: { rows: UserRowJson[] }) => body.rows.map((r) => r.row_id);

/**
 * 60 more members, cancelled, of the customers 'bulk<n>@bulk.test': so that one match is a small
 * share of the rows and the planner's estimates follow statistics.
 */
async function addBulkMembers(): Promise<void> {
  await db.exec(`
    INSERT INTO customers (email) SELECT 'bulk' || g || '@bulk.test' FROM generate_series(1, 60) g;
    INSERT INTO members (customer_id, mg_status, updated_at)
      SELECT id, 'cancelled', '2026-01-01' FROM customers WHERE email LIKE 'bulk%';
    ANALYZE members;
  `);
}

async function list(qs: string) {
  const res = await call(app, 'GET', `/users${qs ? `?${qs}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    rows: UserRowJson[];
    total: number;
    totalPages: number;
    page: number;
    pageSize: number;
  };
}

describe('GET /users', () => {
  it('answers every member, newest update first, with the docs/api.md row shape', async () => {
    const body = await list('');
    expect(body.total).toBe(5);
    expect(body.totalPages).toBe(1);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(ids(body)).toEqual([4, 2, 1, 3, 5]);
    expect(body.rows.find((r) => r.row_id === 1)).toEqual({
      row_id: 1,
      email: 'ada@example.com',
      provider: 'lemonsqueezy',
      provider_id: 'ls-1',
      provider_status: 'active',
      mg_status: 'active',
      mg_status_label: null,
      cadence: 'monthly',
      start_date: '2026-01-05T10:00:00.000Z',
      expires_at: null,
      current_period_end: '2026-12-05T10:00:00.000Z',
      updated_at: '2026-11-10T00:00:00.000Z',
    });
    // A member without a subscription still has a row, with the subscription columns null.
    expect(body.rows.find((r) => r.row_id === 5)).toMatchObject({
      provider: null,
      cadence: null,
      start_date: null,
    });
  });

  it.each([
    ['row_id=2', [2]],
    ['email=EXAMPLE.com', [4, 2, 1, 5]],
    ['email=%20bob%20', [2]],
    ['email=_', [4]],
    ['email=%25', []],
    ['provider=clickbank', [2]],
    ['provider=lemonsqueezy', [4, 1, 3]],
    ['provider_id=ls-3', [3]],
    ['provider_status=trialing', [3]],
    ['provider_status=past_due', [4]],
    ['mg_status=scheduled', [2]],
    ['mg_status=active', [4, 1, 5]],
    ['mg_status=cancelled', [3]],
    ['cadence=yearly', [4, 2]],
    ['cadence=monthly&provider=lemonsqueezy', [1, 3]],
    ['start_from=2026-01-05&start_to=2026-11-01', [1, 3]],
    ['start_from=2026-01-05%2010:00:01', [3]],
    ['start_to=2025-06-01', [4, 2]],
    ['exp_from=2026-11-19&exp_to=2026-12-01', [4, 2]],
    ['exp_to=2026-11-19', [4, 3]],
    ['exp_to=2026-11-19%2005:59:59', [3]],
    ['exp_from=2026-11-19T06:00:00Z', [4, 2]],
    ['email=example&mg_status=active&cadence=monthly', [1]],
    ['row_id=&email=%20&provider=', [4, 2, 1, 3, 5]],
  ])('filters %s', async (qs, expected) => {
    const body = await list(qs);
    expect(ids(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  const SUBSCRIPTION_KEYS = [
    'provider',
    'provider_id',
    'provider_status',
    'cadence',
    'start_date',
    'current_period_end',
  ];

  /**
   * Oracle: nulls sort as the largest value; ties are broken in the same direction by the
   * subscription id (for subscription columns; null = largest), then by row_id.
   */
  function expectedOrder(
    rows: UserRowJson[],
    sid: Map<number, number | null>,
    key: string,
    dir: 'asc' | 'desc',
  ): number[] {
    const sign = dir === 'asc' ? 1 : -1;
    const cmp = (va: string | number | null, vb: string | number | null) => {
      if (va === null && vb !== null) return 1;
      if (va !== null && vb === null) return -1;
      if (va !== null && vb !== null) return va < vb ? -1 : va > vb ? 1 : 0;
      return 0;
    };
    const value = (r: UserRowJson) =>
      (r as unknown as Record<string, string | number | null>)[key] ?? null;
    return [...rows]
      .sort((a, b) => {
        let c = cmp(value(a), value(b));
        if (c === 0 && SUBSCRIPTION_KEYS.includes(key))
          c = cmp(sid.get(a.row_id) ?? null, sid.get(b.row_id) ?? null);
        return sign * (c !== 0 ? c : a.row_id - b.row_id);
      })
      .map((r) => r.row_id);
  }

  async function subscriptionIds(): Promise<Map<number, number | null>> {
    const r = await db.query<{ id: number; subscription_id: number | null }>(
      'SELECT id, subscription_id FROM members',
    );
    return new Map(r.rows.map((x) => [x.id, x.subscription_id]));
  }

  /** Adds ties whose subscription ids run opposite to their row ids, a null current_period_end and a second member without subscription. */
  async function addTies() {
    const zoe = await insertCustomer(db, 'zoe@example.com');
    const yan = await insertCustomer(db, 'yan@example.com');
    const xia = await insertCustomer(db, 'xia@example.com');
    const common = {
      providerId: '',
      status: 'active',
      cadence: 'monthly' as const,
      startDate: '2026-01-05T10:00:00Z',
      currentPeriodEnd: null,
    };
    const s5 = await insertSubscription(db, { ...common, customerId: zoe, providerId: 'ls-5' });
    const s6 = await insertSubscription(db, { ...common, customerId: yan, providerId: 'ls-6' });
    await insertMember(db, {
      customerId: yan,
      subscriptionId: s6,
      mgStatus: 'active',
      updatedAt: '2026-11-10T00:00:00Z',
    });
    await insertMember(db, {
      customerId: zoe,
      subscriptionId: s5,
      mgStatus: 'active',
      updatedAt: '2026-11-10T00:00:00Z',
    });
    await insertMember(db, {
      customerId: xia,
      subscriptionId: null,
      mgStatus: 'cancelled',
      updatedAt: '2026-11-10T00:00:00Z',
    });
  }

  it.each(USER_SORT_KEYS.flatMap((k) => [[k, 'asc'] as const, [k, 'desc'] as const]))(
    'sorts by %s %s',
    async (key, dir) => {
      for (const variant of ['scenario', 'with ties'] as const) {
        if (variant === 'with ties') await addTies();
        const all = (await list('pageSize=500')).rows;
        const expected = expectedOrder(all, await subscriptionIds(), key, dir);
        const sortParam = `sort=${dir === 'desc' ? '-' : ''}${key}`;
        // '' reads the sort index; 'email=e' (matches everyone) takes the filtered path.
        for (const filter of ['', '&email=e']) {
          const body = await list(`${sortParam}${filter}&pageSize=500`);
          expect(ids(body), `${variant}${filter}`).toEqual(expected);
          // Paging through the same sort in pages of 2 gives the same order and total.
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(body.total / 2); page++) {
            const part = await list(`${sortParam}${filter}&pageSize=2&page=${page}`);
            expect(part.total).toBe(expected.length);
            paged.push(...ids(part));
          }
          expect(paged, `${variant}${filter}, paged`).toEqual(expected);
        }
      }
    },
  );

  it('matches a fragment across the punctuation exactly, never a digit the index stands in for it', async () => {
    // email_trigram_text holds both addresses as 'ann0lee112x0test' (migration 047): the index
    // returns both for any fragment of them, the exact match keeps the right ones.
    for (const email of ['ann.lee+1@x.test', 'ann0lee11@x.test']) {
      const customerId = await insertCustomer(db, email);
      await insertMember(db, {
        customerId,
        subscriptionId: null,
        mgStatus: 'cancelled',
        updatedAt: '2026-11-01T00:00:00Z',
      });
    }
    const emails = async (qs: string) => (await list(qs)).rows.map((r) => r.email);
    expect(await emails('email=n.le')).toEqual(['ann.lee+1@x.test']);
    expect(await emails('email=N0LE')).toEqual(['ann0lee11@x.test']);
    expect(await emails('email=e%2B1%40')).toEqual(['ann.lee+1@x.test']);
    expect(await emails('email=e11')).toEqual(['ann0lee11@x.test']);
    expect((await emails('email=x.t')).sort()).toEqual(['ann.lee+1@x.test', 'ann0lee11@x.test']);
  });

  it('reads an email fragment through its trigram index when the planner expects few matches', async () => {
    await addBulkMembers();
    const steered = ['{"enable_indexonlyscan":"off"}'];
    await expectTransactionSettings(db, NOW, [usersRoutes], '/users', [
      ['email=SAMPLE&pageSize=4', 1, [3], steered], // one member of 65
      ['email=SAMPLE&sort=-email&pageSize=4', 1, [3], steered],
      ['email=SAMPLE&sort=cadence&pageSize=4', 1, [3], []], // the sort reads the subscriptions' cadence
      ['email=bulk.test&pageSize=4', 60, [], []], // 60 of 65: every entry of the email index is tested
      // Across the address's punctuation: 'e0c' is a trigram of the index (migration 047).
      ['email=e.c&pageSize=4', 4, [4, 2, 1, 5], steered],
      ['email=e.&pageSize=4', 5, [4, 2, 1, 3], []], // 'e0': no trigram inside a word
    ]);
  });

  it('counts a fragment in most rows off the email index and reads its page in sort order', async () => {
    await addBulkMembers();
    // 'k.t' runs across a '.', where the joined trigram index (migration 047) would read it, but
    // it is in 60 of the 65 members: no index narrows it, so the list counts it off the email sort
    // index as one LIKE (Where.range) and reads its page in sort order.
    for (const [qs, pattern, order, limit, offset] of [
      ['email=k.t&sort=email&pageSize=4&page=2', '%k.t%', 'm.email, m.id', 4, 4],
      ['email=K.T&sort=-row_id&pageSize=4', '%k.t%', 'm.id DESC', 4, 0],
      [
        'email=bulk.test&sort=-expires_at&pageSize=3&page=3',
        '%bulk.test%',
        'm.expires_at DESC NULLS FIRST, m.id DESC',
        3,
        6,
      ],
    ] as const) {
      await expectBroadEmailRead(db, NOW, [usersRoutes], `/users?${qs}`, 60, {
        sql: `SELECT m.id FROM members m WHERE m.email LIKE $1 ORDER BY ${order} LIMIT $2 OFFSET $3`,
        params: [pattern, limit, offset],
      });
    }
  });

  it('sorts by a few keys as the scenario says (spot checks of the oracle)', async () => {
    expect(ids(await list('sort=email'))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(await list('sort=-expires_at'))).toEqual([5, 1, 2, 4, 3]);
    expect(ids(await list('sort=start_date'))).toEqual([4, 2, 1, 3, 5]);
    expect(ids(await list('sort=mg_status'))).toEqual([1, 2, 4, 5, 3]);
  });

  it('pages stably with total and totalPages', async () => {
    const p1 = await list('pageSize=2&page=1');
    const p2 = await list('pageSize=2&page=2');
    const p3 = await list('pageSize=2&page=3');
    const p4 = await list('pageSize=2&page=4');
    expect([p1.total, p1.totalPages, p3.totalPages]).toEqual([5, 3, 3]);
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual([4, 2, 1, 3, 5]);
    expect(ids(p4)).toEqual([]);
    expect(p4.total).toBe(5);
    // The same with a filter (the filtered query path): a page past the end still reports the total.
    const f3 = await list('email=example&pageSize=2&page=3');
    expect([ids(f3), f3.total, f3.totalPages]).toEqual([[], 4, 2]);
    const f2 = await list('email=example&pageSize=2&page=2');
    expect([ids(f2), f2.total, f2.totalPages]).toEqual([[1, 5], 4, 2]);
  });

  it('answers an empty list as page 1 of 1', async () => {
    const body = await list('email=nobody-here');
    expect(body).toEqual({ rows: [], total: 0, totalPages: 1, page: 1, pageSize: 50 });
  });

  it('accepts pageSize 500 and totalPages rounds up', async () => {
    expect((await list('pageSize=500')).totalPages).toBe(1);
    expect((await list('pageSize=4')).totalPages).toBe(2);
  });

  it.each([
    [
      'sort=bogus',
      /sort must be one of row_id, email, provider, provider_id, provider_status, mg_status, cadence, start_date, expires_at, current_period_end, updated_at/,
    ],
    ['sort=-amount', /sort must be one of/],
    ['start_from=2026-13-01', /start_from must be a UTC date/],
    ['start_to=2026-02-30', /start_to must be a UTC date/],
    ['exp_from=yesterday', /exp_from must be a UTC date/],
    ['exp_to=2026-11-19%2025:00:00', /exp_to must be a UTC date/],
    [
      'start_from=2026-11-02&start_to=2026-11-01',
      /start_from \(2026-11-02\) is after start_to \(2026-11-01\)/,
    ],
    ['exp_from=2026-11-19T00:00:00%2B02:00', /exp_from must be a UTC date/],
    ['page=0', /page must be a whole number from 1/],
    ['page=-1', /page must be a whole number/],
    ['page=1.5', /page must be a whole number/],
    ['pageSize=10000', /pageSize must be a whole number from 1 to 500/],
    ['pageSize=0', /pageSize must be a whole number from 1 to 500/],
    ['pageSize=abc', /pageSize must be a whole number/],
    ['row_id=abc', /row_id must be a positive whole number/],
    ['row_id=0', /row_id must be a positive whole number/],
    ['provider=paypal', /provider must be one of lemonsqueezy, clickbank/],
    ['mg_status=expired', /mg_status must be one of active, scheduled, cancelled/],
    ['cadence=weekly', /cadence must be one of monthly, yearly/],
    ['provider_status=act%20ive', /provider_status must be a status word/],
    [`email=${'x'.repeat(300)}`, /email must be at most 254 characters/],
  ])('refuses %s with a 400 JSON error', async (qs, message) => {
    const res = await call(app, 'GET', `/users?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(message);
  });
});

interface ActionAnswer {
  ok: boolean;
  email: string;
  mg_status: string;
  expires_at: string | null;
  scheduled_expires_at: string | null;
  discourse: unknown;
}

async function member(email: string) {
  const r = await db.query<{ mg_status: string; expires_at: Date | null; updated_at: Date }>(
    'SELECT m.mg_status, m.expires_at, m.updated_at FROM members m JOIN customers c ON c.id = m.customer_id WHERE c.email = $1',
    [email],
  );
  const row = r.rows[0];
  if (!row) throw new Error(`no member ${email}`);
  return {
    mg_status: row.mg_status,
    expires_at: row.expires_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}

async function logs() {
  const r = await db.query<{
    ts: Date;
    level: string;
    msg: string;
    context: Record<string, unknown>;
  }>('SELECT ts, level, msg, context FROM logs ORDER BY id');
  return r.rows.map((x) => ({ ...x, ts: x.ts.toISOString() }));
}

const NOT_CONFIGURED = { skipped: true, reason: 'Discourse not configured' };

describe('POST /users/actions/*', () => {
  it('grant: active without expiry, one access.grant log row, Discourse skipped', async () => {
    const res = await call(app, 'POST', '/users/actions/grant', { email: ' Carol@Sample.org ' });
    expect(res.status).toBe(200);
    expect(res.body as ActionAnswer).toEqual({
      ok: true,
      email: 'carol@sample.org',
      mg_status: 'active',
      expires_at: null,
      scheduled_expires_at: null,
      discourse: NOT_CONFIGURED,
    });
    expect(await member('carol@sample.org')).toEqual({
      mg_status: 'active',
      expires_at: null,
      updated_at: NOW.toISOString(),
    });
    expect(await logs()).toEqual([
      {
        ts: NOW.toISOString(),
        level: 'info',
        msg: 'access.grant',
        context: {
          email: 'carol@sample.org',
          action: 'grant',
          mg_status: 'active',
          expires_at: null,
          previous: { mg_status: 'cancelled', expires_at: '2026-11-02T00:00:00.000Z' },
          actor: 'admin@example.com',
        },
      },
    ]);
    // The audit row names the operator, in the same transaction as the change.
    const audit = await db.query<{ operator_email: string; target: string; detail: unknown }>(
      "SELECT operator_email, target, detail FROM audit_log WHERE action = 'access.grant' ORDER BY id DESC LIMIT 1",
    );
    expect(audit.rows[0]).toEqual({
      operator_email: 'admin@example.com',
      target: 'carol@sample.org',
      detail: {
        before: { mg_status: 'cancelled', expires_at: '2026-11-02T00:00:00.000Z' },
        after: { mg_status: 'active', expires_at: null },
      },
    });
  });

  it('grant clears a scheduled revocation', async () => {
    await call(app, 'POST', '/users/actions/grant', { email: 'bob@example.com' });
    expect(await member('bob@example.com')).toMatchObject({
      mg_status: 'active',
      expires_at: null,
    });
  });

  it('grant_on_date: active until the date, scheduled_expires_at = until', async () => {
    const res = await call(app, 'POST', '/users/actions/grant_on_date', {
      email: 'carol@sample.org',
      until: '2027-01-01 09:00:00',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mg_status: 'active',
      expires_at: '2027-01-01T09:00:00.000Z',
      scheduled_expires_at: '2027-01-01T09:00:00.000Z',
    });
    expect(await member('carol@sample.org')).toMatchObject({
      mg_status: 'active',
      expires_at: '2027-01-01T09:00:00.000Z',
    });
    const [log] = await logs();
    expect(log).toMatchObject({
      level: 'info',
      msg: 'access.grant_on_date',
      context: { action: 'grant_on_date', expires_at: '2027-01-01T09:00:00.000Z' },
    });
  });

  it('revoke_now: cancelled with expires_at = now, nothing scheduled', async () => {
    const res = await call(app, 'POST', '/users/actions/revoke_now', { email: 'ada@example.com' });
    expect(res.body).toEqual({
      ok: true,
      email: 'ada@example.com',
      mg_status: 'cancelled',
      expires_at: NOW.toISOString(),
      scheduled_expires_at: null,
      discourse: NOT_CONFIGURED,
    });
    expect(await member('ada@example.com')).toMatchObject({
      mg_status: 'cancelled',
      expires_at: NOW.toISOString(),
    });
    expect((await logs()).map((l) => l.msg)).toEqual(['access.revoke_now']);
  });

  it('revoke_now on a cancelled user keeps the original revocation instant', async () => {
    const res = await call(app, 'POST', '/users/actions/revoke_now', { email: 'carol@sample.org' });
    expect(res.status).toBe(200);
    expect(res.body.expires_at).toBe('2026-11-02T00:00:00.000Z');
    expect(await member('carol@sample.org')).toMatchObject({
      mg_status: 'cancelled',
      expires_at: '2026-11-02T00:00:00.000Z',
    });
  });

  it('revoke_deferred: stays active until the current period end', async () => {
    const res = await call(app, 'POST', '/users/actions/revoke_deferred', {
      email: 'ada@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mg_status: 'active',
      expires_at: '2026-12-05T10:00:00.000Z',
      scheduled_expires_at: '2026-12-05T10:00:00.000Z',
      discourse: NOT_CONFIGURED,
    });
    expect(await member('ada@example.com')).toMatchObject({
      mg_status: 'active',
      expires_at: '2026-12-05T10:00:00.000Z',
    });
    // The Users list now reports ada as scheduled.
    expect(ids(await list('mg_status=scheduled'))).toEqual([1, 2]);
  });

  it('revoke_deferred falls back to the customer’s latest subscription when the member links none', async () => {
    await insertSubscription(db, {
      customerId: 5,
      providerId: 'ls-old',
      startDate: '2025-01-01T00:00:00Z',
      currentPeriodEnd: '2026-11-25T00:00:00Z',
    });
    await insertSubscription(db, {
      customerId: 5,
      providerId: 'ls-new',
      startDate: '2026-10-01T00:00:00Z',
      currentPeriodEnd: '2026-12-01T00:00:00Z',
    });
    const res = await call(app, 'POST', '/users/actions/revoke_deferred', {
      email: 'erin@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.scheduled_expires_at).toBe('2026-12-01T00:00:00.000Z');
  });

  it('revoke_on_date: active until the date', async () => {
    const res = await call(app, 'POST', '/users/actions/revoke_on_date', {
      email: 'erin@example.com',
      date: '2026-11-21 09:00',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mg_status: 'active',
      expires_at: '2026-11-21T09:00:00.000Z',
      scheduled_expires_at: '2026-11-21T09:00:00.000Z',
    });
    expect(await member('erin@example.com')).toMatchObject({
      mg_status: 'active',
      expires_at: '2026-11-21T09:00:00.000Z',
    });
  });

  it.each([
    ['grant', { email: 'nobody@example.com' }, 404, /^No user with email nobody@example.com$/],
    ['revoke_now', { email: 'NOBODY@example.com' }, 404, /^No user with email nobody@example.com$/],
    ['grant', {}, 400, /email is required/],
    ['grant', { email: 42 }, 400, /email must be a string/],
    ['grant', { email: 'not-an-email' }, 400, /'not-an-email' is not an email address/],
    ['grant', [], 400, /must be a JSON object/],
    ['grant', '{"email":', 400, /not valid JSON/],
    ['grant', '', 400, /A JSON object body is required/],
    ['grant_on_date', { email: 'ada@example.com' }, 400, /until is required/],
    ['grant_on_date', { email: 'ada@example.com', until: 20270101 }, 400, /until must be a string/],
    [
      'grant_on_date',
      { email: 'ada@example.com', until: '2027-13-01 00:00:00' },
      400,
      /until must be a UTC date-time/,
    ],
    [
      'grant_on_date',
      { email: 'ada@example.com', until: '2026-11-20 11:59:59' },
      400,
      /until 2026-11-20T11:59:59.000Z is not in the future/,
    ],
    [
      'revoke_on_date',
      { email: 'ada@example.com', until: '2027-01-01 00:00:00' },
      400,
      /date is required/,
    ],
    [
      'revoke_on_date',
      { email: 'ada@example.com', date: '2026-11-20 12:00:00' },
      400,
      /date .* is not in the future.*revoke_now/,
    ],
    [
      'revoke_on_date',
      { email: 'carol@sample.org', date: '2027-01-01 00:00:00' },
      409,
      /Access for carol@sample.org is already cancelled/,
    ],
    ['revoke_deferred', { email: 'carol@sample.org' }, 409, /already cancelled/],
    [
      'revoke_deferred',
      { email: 'erin@example.com' },
      400,
      /erin@example.com has no current billing period end/,
    ],
    [
      'revoke_deferred',
      { email: 'dave_x@example.com' },
      400,
      /current billing period of dave_x@example.com already ended at 2026-03-01T00:00:00.000Z/,
    ],
    ['grant_now', { email: 'ada@example.com' }, 404, /Unknown action 'grant_now'/],
  ])('%s %j → %i and nothing written', async (action, body, status, message) => {
    const before = await snapshot(db);
    const res = await call(app, 'POST', `/users/actions/${action}`, body);
    expect(res.status).toBe(status);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('lists field problems under issues', async () => {
    const res = await call(app, 'POST', '/users/actions/grant_on_date', {
      email: 'x',
      until: 'soon',
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: 'email', message: "'x' is not an email address" },
      {
        path: 'until',
        message: "until must be a UTC date-time 'YYYY-MM-DD HH:MM:SS' (got 'soon')",
      },
    ]);
  });
});
