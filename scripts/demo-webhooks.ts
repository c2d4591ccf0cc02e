/**
 * Demo sender: `npm run demo:webhooks [-- --url http://127.0.0.1:8080]
 * [--interval 2000] [--data-dir ./.data]` posts correctly signed LemonSqueezy deliveries and
 * encrypted ClickBank Instant Notifications to a running reference server, a couple of seconds
 * apart, so the console can be watched reacting: new sales (sound, feed, figures), a renewal and a
 * cancellation. Every run uses fresh ids and e-mail addresses, so it can be repeated.
 *
 * Secrets: LEMONSQUEEZY_WEBHOOK_SECRET and CLICKBANK_SECRET_KEY from the environment, else the files
 * the server generated in DATA_DIR (lemonsqueezy-webhook-secret, clickbank-secret-key). Target:
 * --url, else WEBHOOK_DEMO_URL, else http://127.0.0.1:$PORT (PORT default 8080).
 * Prints each delivery and the server's answer; exits 1 when a delivery is not answered 200.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLICKBANK_SECRET_KEY_FILE, LEMONSQUEEZY_WEBHOOK_SECRET_FILE } from '../server/config';
import {
  clickbankNotification,
  encryptedClickbankBody,
  lemonSqueezyInvoice,
  lemonSqueezyOrder,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../server/webhooks/deliveries';
import type { LemonSqueezyEvent } from '../server/webhooks/lemonsqueezy';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    interval: { type: 'string', default: '2000' },
    'data-dir': { type: 'string' },
  },
});

const baseUrl = (
  values.url ??
  process.env.WEBHOOK_DEMO_URL ??
  `http://127.0.0.1:${process.env.PORT ?? '8080'}`
).replace(/\/+$/, '');
const intervalMs = Math.max(0, Number(values.interval) || 0);
const dataDir = values['data-dir'] ?? process.env.DATA_DIR ?? './.data';

/** The secret from `envName`, else the file the server generated in DATA_DIR; exits with a hint when neither exists. */
function secret(envName: string, file: string): string {
  const fromEnv = process.env[envName]?.trim();
  if (fromEnv) return fromEnv;
  if (dataDir === 'memory') {
    console.error(
      `${envName} is not set and DATA_DIR=memory keeps no secret file: set ${envName} for both.`,
    );
    process.exit(2);
  }
  const full = path.join(dataDir, file);
  try {
    return readFileSync(full, 'utf8').trim();
  } catch {
    console.error(
      `${envName} is not set and ${full} does not exist: start the server once (it generates the file) or set ${envName}.`,
    );
    process.exit(2);
  }
}

const lsSecret = secret('LEMONSQUEEZY_WEBHOOK_SECRET', LEMONSQUEEZY_WEBHOOK_SECRET_FILE);
const cbKey = secret('CLICKBANK_SECRET_KEY', CLICKBANK_SECRET_KEY_FILE);

const run = Date.now().toString(36);
const runNumber = Date.now() % 1_000_000_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let failures = 0;

async function postJson(
  pathName: string,
  body: string,
  headers: Record<string, string>,
  label: string,
): Promise<void> {
  try {
    const res = await fetch(`${baseUrl}${pathName}`, { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status !== 200) failures++;
    console.log(
      `${res.status === 200 ? '✓' : '✗'} ${label}\n    → ${res.status} ${text.slice(0, 300)}`,
    );
  } catch (err) {
    failures++;
    console.log(
      `✗ ${label}\n    → ${err instanceof Error ? err.message : String(err)} (is the server running at ${baseUrl}?)`,
    );
  }
}

async function lemon(
  event: LemonSqueezyEvent,
  data: unknown,
  label: string,
  custom?: Record<string, unknown>,
) {
  const d = signedLemonSqueezyDelivery(event, data, lsSecret, custom);
  await postJson('/webhooks/lemonsqueezy', d.body, d.headers, `LemonSqueezy ${event}: ${label}`);
}

async function clickbank(n: Record<string, unknown>, label: string) {
  await postJson(
    '/webhooks/clickbank',
    encryptedClickbankBody(n, cbKey),
    { 'Content-Type': 'application/json' },
    `ClickBank ${String(n.transactionType)}: ${label}`,
  );
}

/** A LemonSqueezy sale as the store reports it: the subscription, its order and its first invoice. */
async function lemonSale(n: number, plan: string, cents: number, email: string): Promise<string> {
  const now = new Date();
  const subscriptionId = String(runNumber * 10 + n);
  const orderId = String(runNumber * 10 + n);
  const sub = lemonSqueezySubscription(subscriptionId, {
    user_email: email,
    user_name: `Demo Buyer ${n}`,
    product_name: `${plan} Membership`,
    variant_name: 'Monthly',
    order_id: Number(orderId),
    status: 'active',
    renews_at: lsTime(new Date(now.getTime() + 30 * 86_400_000)),
    ends_at: null,
    created_at: lsTime(now),
    updated_at: lsTime(now),
  });
  const custom = { campaign: 'demo', affiliate: n % 2 ? 'demo-affiliate' : undefined };
  await lemon('subscription_created', sub, `${email} (${plan})`, custom);
  await lemon(
    'order_created',
    lemonSqueezyOrder(orderId, { user_email: email, total: cents, at: now }),
    `${email} $${cents / 100}`,
    custom,
  );
  await lemon(
    'subscription_payment_success',
    lemonSqueezyInvoice(`${orderId}1`, {
      subscription_id: subscriptionId,
      user_email: email,
      billing_reason: 'initial',
      total: cents,
      at: now,
    }),
    `${email} initial payment`,
  );
  return subscriptionId;
}

async function main(): Promise<void> {
  console.log(`Sending demo webhooks to ${baseUrl} (every ${intervalMs} ms)\n`);
  const ls1 = `demo-${run}-1@example.com`;
  const ls2 = `demo-${run}-2@example.com`;
  const cb1 = `demo-${run}-3@example.com`;
  const receipt = `D${run.toUpperCase().slice(-7)}`.padEnd(8, '0');

  const sub1 = await lemonSale(1, 'Pro', 1900, ls1);
  await sleep(intervalMs);

  await clickbank(
    clickbankNotification({
      type: 'SALE',
      receipt,
      email: cb1,
      at: new Date(),
      amount: 29,
      affiliate: 'cb-demo-aff',
      trackingCode: 'demo_tid',
      title: 'Premium Membership (Monthly)',
      sku: 'mg-premium-m',
      nextPaymentAt: new Date(Date.now() + 30 * 86_400_000),
      vendorVariables: { campaign: 'demo' },
    }),
    `${cb1} receipt ${receipt}`,
  );
  await sleep(intervalMs);

  const sub2 = await lemonSale(2, 'Basic', 999, ls2);
  await sleep(intervalMs);

  const now = new Date();
  await lemon(
    'subscription_payment_success',
    lemonSqueezyInvoice(`${sub1}2`, {
      subscription_id: sub1,
      user_email: ls1,
      billing_reason: 'renewal',
      total: 1900,
      at: now,
    }),
    `${ls1} renewal`,
    { campaign: 'demo' },
  );
  await sleep(intervalMs);

  await clickbank(
    clickbankNotification({
      type: 'BILL',
      receipt: `${receipt}-B1`,
      email: cb1,
      at: new Date(),
      amount: 29,
      basicTime: true,
      title: 'Premium Membership (Monthly)',
      sku: 'mg-premium-m',
      nextPaymentAt: new Date(Date.now() + 30 * 86_400_000),
    }),
    `${cb1} rebill ${receipt}-B1`,
  );
  await sleep(intervalMs);

  const cancelledAt = new Date();
  await lemon(
    'subscription_cancelled',
    lemonSqueezySubscription(sub2, {
      user_email: ls2,
      user_name: 'Demo Buyer 2',
      product_name: 'Basic Membership',
      variant_name: 'Monthly',
      status: 'cancelled',
      cancelled: true,
      renews_at: lsTime(new Date(cancelledAt.getTime() + 30 * 86_400_000)),
      ends_at: lsTime(new Date(cancelledAt.getTime() + 30 * 86_400_000)),
      created_at: lsTime(new Date(cancelledAt.getTime() - 3 * intervalMs - 1000)),
      updated_at: lsTime(cancelledAt),
    }),
    `${ls2} (access until the end of the paid month)`,
  );

  console.log(failures === 0 ? '\nAll deliveries accepted.' : `\n${failures} deliveries failed.`);
  process.exitCode = failures === 0 ? 0 : 1;
}

void main();
