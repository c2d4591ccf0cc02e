/**
 * Security suite, hostile-value fuzz: where server/security/fuzz.test.ts sends malformed requests
 * that no route can use, this one sends well-formed requests — signed in, same-origin, JSON bodies
 * — whose values are hostile: NUL and other control characters, unpaired surrogates, prototype
 * keys (`__proto__`, `constructor`, `prototype`, …) as values and as keys, extreme and malformed
 * dates, and very long strings, in every query parameter a route reads, in path parameters and
 * in body fields, over every route the app registers (fixed seed, printed). It also sends
 * authentic provider deliveries — LemonSqueezy bodies signed with the configured secret and
 * ClickBank notifications encrypted with the configured key — whose text fields, keys and
 * times are hostile.
 *
 * Required: no answer has a status ≥ 500, and no 'error' row (e.g. 'Unhandled server error')
 * reaches the logs table. Every authentic delivery answered 200 (not a duplicate) is recorded: it
 * wrote its one 'webhook.*' logs row. Unlike the malformed fuzz, requests here may be valid and
 * change data (an action on 'constructor@example.com' is a real action): that is the point.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { ServerConfig } from '../context';
import type { Db } from '../db/types';
import { flushDbLogs } from '../logging';
import { freshDb } from '../testing/app';
import { makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';
import { NOW, seedScenario } from '../testing/scenario';
import {
  clickbankNotification,
  encryptedClickbankBody,
  lemonSqueezyInvoice,
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../webhooks/deliveries';
import type { LemonSqueezyEvent } from '../webhooks/lemonsqueezy';

const SEED = 20261122;
const RUNS = 5_000;
const WEBHOOK_RUNS = 600;
const LS_SECRET = 'fuzz-lemonsqueezy-signing-secret';
const CB_KEY = 'FUZZSECRETKEY123';
const DAY = 86_400_000;

let db: Db;
let config: ServerConfig;
let app: Hono;
let token: string;
let routes: { method: string; path: string }[];
let staticDir: string;

beforeAll(async () => {
  db = await freshDb();
  await seedScenario(db);
  staticDir = mkdtempSync(path.join(tmpdir(), 'mg-fuzz-hostile-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  config = await makeTestConfig({
    sessionIdleS: 30 * 24 * 3600,
    staticDir,
    lemonSqueezyWebhookSecret: LS_SECRET,
    clickbankSecretKey: CB_KEY,
    // Every sign-in attempt below is refused anyway; a roomy limit keeps them reaching validation.
    loginRateLimit: { maxAttempts: 1_000_000, windowS: 900 },
  });
  app = createApp(makeTestDeps(db, config, { now: NOW }));
  token = await testSessionToken(db, config, NOW);
  const seen = new Set<string>();
  routes = [];
  for (const r of app.routes) {
    // Signing out would end the fuzzer's own session.
    if (/\/logout$/.test(r.path)) continue;
    for (const method of r.method === 'ALL' ? ['GET', 'POST'] : [r.method]) {
      const key = `${method} ${r.path}`;
      if (!seen.has(key)) routes.push({ method, path: r.path });
      seen.add(key);
    }
  }
  routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}, 120_000);
afterAll(async () => {
  await db?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

/** Every query parameter some route reads (docs/api.md), and the body fields the actions take. */
const QUERY_NAMES = [
  'page',
  'pageSize',
  'sort',
  'sortKey',
  'sortDir',
  'row_id',
  'email',
  'provider',
  'provider_id',
  'provider_status',
  'mg_status',
  'cadence',
  'status',
  'type',
  'plan',
  'source',
  'affiliate',
  'subid',
  'receipt',
  'order_id',
  'q',
  'level',
  'limit',
  'from',
  'to',
  'time_from',
  'time_to',
  'start_from',
  'start_to',
  'exp_from',
  'exp_to',
  'renew_from',
  'renew_to',
  'dryRun',
  'which',
  'lastEventId',
];
const BODY_NAMES = ['email', 'until', 'date', 'dryRun', 'password', 'which'];

const PROTO_WORDS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];
const CONTROLS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u001f',
  '\u007f',
];
const DATES = [
  '9999-12-31 23:59:59',
  '9999-12-31',
  '0000-01-01',
  '0001-01-01 00:00:00',
  '1969-12-31 23:59:59',
  '1970-01-01',
  '1970-01-01T00:00:00+14:00',
  '2100-12-31 23:59:59',
  '2100-12-31T23:59:59-14:00',
  '2101-01-01',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20',
  '+010000-01-01T00:00:00Z',
  '99999-01-01',
  '2026-02-30',
  '2026-13-01',
  '2026-00-10 24:00:00',
  '2026-01-01T25:61:61Z',
  '2026-01-01T00:00:00-99:99',
  '2026-1-1',
  'NaN',
  'Infinity',
  '1e308',
  '2026-01-01\u000000:00:00',
];

/** Text with hostile parts: controls, surrogates and prototype words mixed into plausible text. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTO_WORDS),
  fc.constantFrom(...PROTO_WORDS).map((w) => `${w}@example.com`),
  fc.constantFrom(...DATES),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .tuple(
      fc.constantFrom(
        'ada@example.com',
        'ls-1',
        'CBREC1',
        'pro',
        'clickbank',
        'active',
        '2026-11-01',
        'x',
      ),
      fc.constantFrom(...CONTROLS, '\ud800', '\udfff', '\u2028', '\ufeff', '%00', "'; --", '\\'),
      fc.nat(20),
    )
    .map(([base, bad, at]) => {
      const i = at % (base.length + 1);
      return `${base.slice(0, i)}${bad}${base.slice(i)}`;
    }),
  fc
    .tuple(
      fc.constantFrom('a', '\u0000', '%', '_', 'é', '😀', '@', ' '),
      fc.constantFrom(300, 5_000, 70_000),
    )
    .map(([ch, n]) => ch.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Percent-encodes `text` as UTF-8, an unpaired surrogate as the (invalid) bytes it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')]
      .map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`)
      .join('');
  }
}

/** A JSON value made of hostile parts (strings, and objects whose keys may be prototype words). */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  fc.constantFrom(null, true, false, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.array(hostileText, { maxLength: 3 }),
  fc
    .array(fc.tuple(fc.constantFrom(...PROTO_WORDS, 'email'), hostileText), { maxLength: 3 })
    .map((pairs) => Object.fromEntries(pairs)),
);

/** A JSON object body as text: known and prototype keys with hostile values (keys written as data). */
const hostileBody = fc
  .array(fc.tuple(fc.constantFrom(...BODY_NAMES, ...PROTO_WORDS), hostileValue), {
    minLength: 1,
    maxLength: 4,
  })
  .map(
    (pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`,
  );

const hostileRequest = fc.record({
  route: fc.nat(),
  params: fc.array(hostileText, { minLength: 4, maxLength: 4 }),
  query: fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES, ...PROTO_WORDS), hostileText), {
    minLength: 1,
    maxLength: 4,
  }),
  body: hostileBody,
  rawTail: fc.constantFrom('', '&email=%00', '&q=%ED%A0%80', '&from=%FF', '&__proto__[x]=1'),
});

describe(`hostile-value fuzz: ${RUNS} signed-in requests across every route (seed ${SEED})`, () => {
  it('answers none with a status ≥ 500 and logs no error', async () => {
    console.log(`hostile fuzz seed ${SEED}, ${RUNS} runs, ${routes.length} method × path pairs`);
    const statuses = new Map<number, number>();
    const reached = new Set<string>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (r) => {
        const route = routes[r.route % routes.length] ?? { method: 'GET', path: '/' };
        reached.add(`${route.method} ${route.path}`);
        let i = 0;
        const pathname = route.path
          .replace(/:[A-Za-z_]+(\{[^}]*\})?/g, () => encode(r.params[i++ % r.params.length] ?? 'x'))
          .replace(/\*/g, () => encode(r.params[i++ % r.params.length] ?? 'x'));
        const query = r.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&') + r.rawTail;
        const headers: Record<string, string> = {
          authorization: `Bearer ${token}`,
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
        };
        const init: RequestInit = { method: route.method, headers };
        if (route.method !== 'GET' && route.method !== 'HEAD') {
          headers['content-type'] = 'application/json';
          init.body = r.body;
        }
        const req = new Request(`http://localhost${pathname}?${query}`, init);
        const res = await app.fetch(req, {
          incoming: { socket: { remoteAddress: '198.51.100.7' } },
        });
        if (res.headers.get('content-type')?.startsWith('text/event-stream'))
          await res.body?.cancel();
        else await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) {
          throw new Error(
            `${route.method} ${pathname}?${query.slice(0, 300)} answered ${res.status}`,
          );
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `hostile fuzz: ${RUNS} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    await flushDbLogs(db);
    const errors = await db.query<{ msg: string; context: unknown }>(
      "SELECT msg, context FROM logs WHERE level = 'error'",
    );
    expect(errors.rows).toEqual([]);
    // Every route was reached, and the values got past authentication into the routes' own
    // validation (some were even valid).
    expect(reached.size).toBe(routes.length);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 10);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 10);
  }, 600_000);
});

/** A string-valued spot in a delivery: the object holding it and its key. */
type Spot = { holder: Record<string, unknown>; key: string };

/** Every string value reachable in `value` (objects and arrays), in a stable order. */
function stringSpots(value: unknown, out: Spot[] = []): Spot[] {
  if (value === null || typeof value !== 'object') return out;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out.push({ holder: value as Record<string, unknown>, key });
    else stringSpots(v, out);
  }
  return out;
}

/** Every object reachable in `value`, `value` first. */
function objects(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (value === null || typeof value !== 'object') return out;
  if (!Array.isArray(value)) out.push(value as Record<string, unknown>);
  for (const v of Object.values(value)) objects(v, out);
  return out;
}

const edit = fc.record({
  pick: fc.nat(),
  mode: fc.constantFrom('replace', 'insert', 'insert', 'key'),
  text: hostileText,
  at: fc.nat(40),
});

/** Applies hostile edits to `value` in place: replace a string, insert into one, or add a hostile key. */
function applyEdits(
  value: unknown,
  edits: (typeof edit extends fc.Arbitrary<infer T> ? T : never)[],
) {
  for (const e of edits) {
    if (e.mode === 'key') {
      const all = objects(value);
      const target = all[e.pick % all.length];
      if (target)
        Object.defineProperty(target, e.text.slice(0, 40), {
          value: e.text,
          enumerable: true,
          configurable: true,
          writable: true,
        });
      continue;
    }
    const spots = stringSpots(value);
    const spot = spots[e.pick % spots.length];
    if (!spot) continue;
    const old = String(spot.holder[spot.key]);
    const i = e.at % (old.length + 1);
    spot.holder[spot.key] =
      e.mode === 'replace' ? e.text : `${old.slice(0, i)}${e.text}${old.slice(i)}`;
  }
}

const EMAILS = [
  'fuzz.a@example.com',
  'Fuzz.B@Example.com',
  'ada@example.com',
  'constructor@example.com',
];

/** A LemonSqueezy delivery (event + data + custom data) from one of the shapes the endpoint handles. */
function lemonSqueezyTemplate(
  n: number,
  id: number,
): {
  event: LemonSqueezyEvent;
  data: unknown;
  custom: Record<string, unknown>;
} {
  const email = EMAILS[n % EMAILS.length] ?? 'fuzz@example.com';
  const at = new Date(NOW.getTime() - ((n % 50) + 1) * 3_600_000);
  const custom = { utm_source: 'newsletter', campaign: 'spring', affiliate: 'aff1', subid: 's1' };
  const sub = (status: string) =>
    lemonSqueezySubscription(String(9000 + (id % 40)), {
      user_email: email,
      user_name: 'Fuzz Buyer',
      product_name: 'Pro Membership',
      variant_name: 'Monthly',
      status,
      renews_at: lsTime(new Date(at.getTime() + 30 * DAY)),
      ends_at: status === 'cancelled' ? lsTime(new Date(at.getTime() + 10 * DAY)) : null,
      created_at: lsTime(at),
      updated_at: lsTime(new Date(at.getTime() + id)),
    });
  switch (n % 6) {
    case 0:
      return { event: 'subscription_created', data: sub('active'), custom };
    case 1:
      return { event: 'subscription_updated', data: sub('past_due'), custom };
    case 2:
      return { event: 'subscription_cancelled', data: sub('cancelled'), custom };
    case 3:
      return {
        event: 'subscription_payment_success',
        data: lemonSqueezyInvoice(String(5000 + id), {
          subscription_id: 9000 + (id % 40),
          user_email: email,
          billing_reason: id % 2 === 0 ? 'initial' : 'renewal',
          total: 1900,
          at,
        }),
        custom,
      };
    case 4:
      return {
        event: 'order_created',
        data: lemonSqueezyOrder(String(7000 + id), { user_email: email, total: 1900, at }),
        custom,
      };
    default:
      return {
        event: 'order_refunded',
        data: lemonSqueezyOrder(String(7000 + id), {
          user_email: email,
          total: 1900,
          at,
          refunded: true,
        }),
        custom,
      };
  }
}

/** A ClickBank notification of one of the handled transaction types. */
function clickbankTemplate(n: number, id: number): Record<string, unknown> {
  const types = [
    'SALE',
    'BILL',
    'RFND',
    'CGBK',
    'CANCEL-REBILL',
    'UNCANCEL-REBILL',
    'INSF',
    'TEST',
  ];
  const type = types[n % types.length] ?? 'SALE';
  const receipt = `FZ${String(id % 30).padStart(4, '0')}${type === 'BILL' ? `-B${(id % 5) + 1}` : ''}`;
  return clickbankNotification({
    type,
    receipt,
    email: EMAILS[n % EMAILS.length] ?? 'fuzz@example.com',
    at: new Date(NOW.getTime() - ((n % 40) + 1) * DAY + id * 1000),
    affiliate: 'topaff',
    trackingCode: 'fb_ads_1',
    nextPaymentAt: new Date(NOW.getTime() + 20 * DAY),
    vendorVariables: { campaign: 'spring', v1: 'x' },
  });
}

const deliveryArb = fc.record({
  provider: fc.constantFrom('lemonsqueezy', 'clickbank'),
  shape: fc.nat(),
  edits: fc.array(edit, { minLength: 1, maxLength: 4 }),
});

describe(`signed-webhook fuzz: ${WEBHOOK_RUNS} authentic deliveries with hostile text (seed ${SEED})`, () => {
  it('answers none with a status ≥ 500 and records every accepted one', async () => {
    await flushDbLogs(db);
    const logsBefore = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM logs WHERE msg LIKE 'webhook.%'",
    );
    const inboxBefore = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries',
    );
    const statuses = new Map<number, number>();
    let accepted = 0;
    let id = 0;
    await fc.assert(
      fc.asyncProperty(deliveryArb, async (d) => {
        id++;
        let res: Response;
        if (d.provider === 'lemonsqueezy') {
          const t = lemonSqueezyTemplate(d.shape, id);
          const delivery = { meta: { event_name: t.event, custom_data: t.custom }, data: t.data };
          applyEdits(delivery, d.edits);
          const signed = signedLemonSqueezyDelivery(
            t.event,
            delivery.data,
            LS_SECRET,
            delivery.meta.custom_data,
          );
          res = await app.request('/webhooks/lemonsqueezy', {
            method: 'POST',
            headers: signed.headers,
            body: signed.body,
          });
        } else {
          const n = clickbankTemplate(d.shape, id);
          applyEdits(n, d.edits);
          res = await app.request('/webhooks/clickbank', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: encryptedClickbankBody(n, CB_KEY),
          });
        }
        const body = (await res.json()) as {
          ok?: boolean;
          duplicate?: boolean;
          ignored?: string;
          invalid?: string;
        };
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) throw new Error(`${d.provider} delivery answered ${res.status}`);
        // Every delivery is authentic: each is acknowledged, whatever its edits did to it, unless
        // an edit made it too large to be read (and so verified) at all.
        expect([200, 413]).toContain(res.status);
        // An ignored delivery (an edited event name or role) and an invalid one (an edit that
        // broke a field) are acknowledged but write no log row.
        if (
          res.status === 200 &&
          !body.duplicate &&
          body.ignored === undefined &&
          body.invalid === undefined
        )
          accepted++;
      }),
      { seed: SEED, numRuns: WEBHOOK_RUNS, endOnFailure: true },
    );
    console.log(
      `signed-webhook fuzz: ${WEBHOOK_RUNS} deliveries; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ${accepted} accepted`,
    );
    await flushDbLogs(db);
    const logsAfter = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM logs WHERE msg LIKE 'webhook.%'",
    );
    expect((logsAfter.rows[0]?.n ?? 0) - (logsBefore.rows[0]?.n ?? 0)).toBe(accepted);
    // The inbox keeps every delivery, whatever its answer.
    const inboxAfter = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries',
    );
    expect((inboxAfter.rows[0]?.n ?? 0) - (inboxBefore.rows[0]?.n ?? 0)).toBe(WEBHOOK_RUNS);
    const errors = await db.query("SELECT msg FROM logs WHERE level = 'error'");
    expect(errors.rows).toEqual([]);
    // Most deliveries stay acceptable after their edits: the fuzz exercises the write path.
    expect(accepted).toBeGreaterThan(WEBHOOK_RUNS / 4);
  }, 600_000);
});
