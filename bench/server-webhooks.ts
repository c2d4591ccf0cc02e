/**
 * Webhook ingest benchmark: 1,000 deliveries, p95 ingest latency and p95 latency from delivery
 * to the live-event fan-out. Printed, never asserted.
 *
 * `npx tsx bench/server-webhooks.ts` (BENCH_DELIVERIES, default 1000; BENCH_CUSTOMERS seeded first,
 * default 3000) on an in-memory PGlite: a mix of signed LemonSqueezy deliveries (new subscriptions
 * and renewal invoices) and encrypted ClickBank notifications (SALE and BILL), posted one after the
 * other through the whole app (`app.request`, no network). Ingest = request in → 200 answer out.
 * Fan-out = request in → the delivery's first `NOTIFY live_events` reaching a `LISTEN` on the
 * database (what every event stream subscribes to). Stream = request in → the delivery's
 * subscription.new / subscription.renewal frame read from an open
 * `GET /api/admin/events/stream` (signed in with a real session), i.e. what the console hears.
 */
import { pino } from 'pino';
import { createApp } from '../server/app';
import type { AppDeps } from '../server/context';
import { openDatabase } from '../server/db';
import { seedDemoData } from '../server/seed';
import { testConfig } from '../server/testing/app';
import { SseReader } from '../server/testing/sse';
import { testSessionToken } from '../server/testing/deps';
import {
  clickbankNotification,
  encryptedClickbankBody,
  lemonSqueezyInvoice,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../server/webhooks/deliveries';
import { percentile } from './support';

const deliveries = Number(process.env.BENCH_DELIVERIES ?? 1000);
const customers = Number(process.env.BENCH_CUSTOMERS ?? 3000);
const LS_SECRET = 'bench-lemonsqueezy-secret';
const CB_KEY = 'BENCHKEY12345678';

const db = await openDatabase('memory');
const t0 = performance.now();
if (customers > 0) await seedDemoData(db, { customers, seed: 42, now: new Date() });
console.log(`seeded ${customers} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const deps: AppDeps = {
  db,
  config: testConfig({ lemonSqueezyWebhookSecret: LS_SECRET, clickbankSecretKey: CB_KEY }),
  log: pino({ level: 'silent' }),
  now: () => new Date(),
};
const app = createApp(deps);

// One open event stream, as a signed-in console holds; frames resolve the waiter of their
// `type|email` (each delivery below emits exactly one subscription.* event for its buyer).
const token = await testSessionToken(db, deps.config, new Date());
const streamRes = await app.request(`${deps.config.apiPrefix}/events/stream`, {
  headers: { authorization: `Bearer ${token}` },
});
if (streamRes.status !== 200 || !streamRes.body)
  throw new Error(`event stream answered ${streamRes.status}`);
const sse = new SseReader(streamRes.body);
const waiting = new Map<string, () => void>();
let streamOpen = true;
const streamLoop = (async () => {
  while (streamOpen) {
    const frame = await sse.nextEvent(60_000).catch(() => null);
    if (frame === null) break;
    const msg = JSON.parse(frame.data ?? '{}') as { type?: string; email?: string };
    const key = `${msg.type}|${msg.email}`;
    waiting.get(key)?.();
    waiting.delete(key);
  }
})();

let notified: (() => void) | null = null;
await db.listen('live_events', () => {
  notified?.();
  notified = null;
});

/** The live event the i-th delivery must produce on the stream: `type|email`. */
function expectedEvent(i: number): string {
  const n = Math.floor(i / 4);
  const email = i % 4 < 2 ? `bench-${n}@example.com` : `cb-bench-${n}@example.com`;
  return `${i % 2 === 0 ? 'subscription.new' : 'subscription.renewal'}|${email}`;
}

/** The i-th delivery: [path, body, headers]. */
function delivery(i: number): [string, string, Record<string, string>] {
  const now = new Date();
  const n = Math.floor(i / 4);
  const email = `bench-${n}@example.com`;
  switch (i % 4) {
    case 0: {
      const d = signedLemonSqueezyDelivery(
        'subscription_created',
        lemonSqueezySubscription(String(70_000_000 + n), {
          user_email: email,
          product_name: 'Pro Membership',
          created_at: lsTime(now),
          updated_at: lsTime(now),
        }),
        LS_SECRET,
        { campaign: 'bench' },
      );
      return ['/webhooks/lemonsqueezy', d.body, d.headers];
    }
    case 1: {
      const d = signedLemonSqueezyDelivery(
        'subscription_payment_success',
        lemonSqueezyInvoice(String(80_000_000 + n), {
          subscription_id: 70_000_000 + n,
          user_email: email,
          billing_reason: 'renewal',
          total: 1900,
          at: now,
        }),
        LS_SECRET,
      );
      return ['/webhooks/lemonsqueezy', d.body, d.headers];
    }
    case 2:
      return [
        '/webhooks/clickbank',
        encryptedClickbankBody(
          clickbankNotification({
            type: 'SALE',
            receipt: `BN${String(n).padStart(6, '0')}`,
            email: `cb-${email}`,
            at: now,
            affiliate: 'benchaff',
            trackingCode: 'tid1',
          }),
          CB_KEY,
        ),
        { 'Content-Type': 'application/json' },
      ];
    default:
      return [
        '/webhooks/clickbank',
        encryptedClickbankBody(
          clickbankNotification({
            type: 'BILL',
            receipt: `BN${String(n).padStart(6, '0')}-B1`,
            email: `cb-${email}`,
            at: now,
            basicTime: true,
          }),
          CB_KEY,
        ),
        { 'Content-Type': 'application/json' },
      ];
  }
}

const ingest: number[] = [];
const fanOut: number[] = [];
const toStream: number[] = [];
const started = performance.now();
for (let i = 0; i < deliveries; i++) {
  const [path, body, headers] = delivery(i);
  const t = performance.now();
  const seen = new Promise<number>((resolve) => {
    notified = () => resolve(performance.now() - t);
  });
  const heard = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`delivery ${i}: no ${expectedEvent(i)} frame`)),
      10_000,
    );
    waiting.set(expectedEvent(i), () => {
      clearTimeout(timer);
      resolve(performance.now() - t);
    });
  });
  const res = await app.request(path, { method: 'POST', headers, body });
  ingest.push(performance.now() - t);
  if (res.status !== 200)
    throw new Error(`delivery ${i} answered ${res.status}: ${await res.text()}`);
  await res.text();
  fanOut.push(await seen);
  toStream.push(await heard);
}
streamOpen = false;
await sse.cancel();
await streamLoop;
const total = performance.now() - started;
const ms = (v: number) => `${v.toFixed(1)} ms`;
console.log(
  `${deliveries} deliveries (LemonSqueezy created + renewal, ClickBank SALE + BILL) in ${(total / 1000).toFixed(1)} s ` +
    `(${((deliveries / total) * 1000).toFixed(0)}/s, one at a time)`,
);
console.log(
  `ingest latency  p50 ${ms(percentile(ingest, 50))}  p95 ${ms(percentile(ingest, 95))}  max ${ms(Math.max(...ingest))}`,
);
console.log(
  `delivery → NOTIFY live_events at a LISTEN  p50 ${ms(percentile(fanOut, 50))}  p95 ${ms(percentile(fanOut, 95))}`,
);
console.log(
  `delivery → frame on an open event stream  p50 ${ms(percentile(toStream, 50))}  p95 ${ms(percentile(toStream, 95))}  max ${ms(Math.max(...toStream))}`,
);
const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM live_events');
console.log(`live_events written: ${rows.rows[0]?.n}`);
await db.close();
