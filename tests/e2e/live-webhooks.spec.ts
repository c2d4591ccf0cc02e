import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_LEMONSQUEEZY_WEBHOOK_SECRET, signIn, watchCspViolations } from './support';

/**
 * End to end: a signed LemonSqueezy sale posted to the reference server's
 * POST /webhooks/lemonsqueezy reaches the signed-in console — the new customer is in Users and
 * Subscriptions, and (with sound on) the console plays /admin/sounds/new-sub.mp3 from the live
 * stream (§4 Sound alerts). The delivery is built from the provider's example Subscription object
 * (tests/msw/provider/lemonsqueezy-subscription.json) and signed here, as the store signs it.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

/** LemonSqueezy's time format ('2026-11-20T12:00:00.000000Z'). */
const lsTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** A unique buyer per run, so reruns on a reused data folder stay independent. */
function buyer(): { email: string; subscriptionId: string } {
  const n = Date.now();
  return {
    email: `e2e-live-${n.toString(36)}@example.com`,
    subscriptionId: String(90_000_000 + (n % 9_000_000)),
  };
}

/** Posts a signed subscription_created for `email` → the server's answer status. */
async function postSignedSale(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  subscriptionId: string,
): Promise<number> {
  const fixture = JSON.parse(
    readFileSync(
      path.join(here, '..', 'msw', 'provider', 'lemonsqueezy-subscription.json'),
      'utf8',
    ),
  ) as { type: string; id: string; attributes: Record<string, unknown> };
  const now = new Date();
  const data = {
    ...fixture,
    id: subscriptionId,
    attributes: {
      ...fixture.attributes,
      user_email: email,
      user_name: 'Live Buyer',
      product_name: 'Pro Membership',
      variant_name: 'Monthly',
      status: 'active',
      renews_at: lsTime(new Date(now.getTime() + 30 * 86_400_000)),
      ends_at: null,
      created_at: lsTime(now),
      updated_at: lsTime(now),
    },
  };
  const body = JSON.stringify({ meta: { event_name: 'subscription_created' }, data });
  const signature = createHmac('sha256', E2E_LEMONSQUEEZY_WEBHOOK_SECRET)
    .update(body)
    .digest('hex');
  const res = await request.post(new URL('/webhooks/lemonsqueezy', baseURL).toString(), {
    data: body,
    headers: {
      'Content-Type': 'application/json',
      'X-Event-Name': 'subscription_created',
      'X-Signature': signature,
    },
  });
  return res.status();
}

async function expectInUsersAndSubscriptions(page: Page, email: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users', exact: true })).toBeVisible();
  await page.getByRole('search', { name: 'Users filters' }).getByLabel('Email').fill(email);
  await expect(page.getByRole('cell', { name: email }).first()).toBeVisible();

  await nav.getByRole('link', { name: 'Subscriptions', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Subscriptions', exact: true }),
  ).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await expect(page.getByRole('button', { name: `View details for ${email}` })).toBeVisible();
}

test('a signed LemonSqueezy sale posted to the server shows the new customer in Users and Subscriptions', async ({
  page,
  request,
  baseURL,
}) => {
  const violations = watchCspViolations(page);
  const { email, subscriptionId } = buyer();
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  expect(await postSignedSale(request, baseURL!, email, subscriptionId)).toBe(200);
  await expectInUsersAndSubscriptions(page, email);
  expect(violations).toEqual([]);
});

test('a forged sale is refused and never reaches the console', async ({
  page,
  request,
  baseURL,
}) => {
  const email = `e2e-forged-${Date.now().toString(36)}@example.com`;
  const res = await request.post(new URL('/webhooks/lemonsqueezy', baseURL).toString(), {
    data: JSON.stringify({
      meta: { event_name: 'subscription_created' },
      data: { type: 'subscriptions', id: '1', attributes: { user_email: email } },
    }),
    headers: { 'Content-Type': 'application/json', 'X-Signature': '0'.repeat(64) },
  });
  expect(res.status()).toBe(401);
  await page.goto('login');
  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Users', exact: true })
    .click();
  await page.getByRole('search', { name: 'Users filters' }).getByLabel('Email').fill(email);
  await expect(page.getByText('No users found.')).toBeVisible();
});

test('with sound on, a signed LemonSqueezy sale rings new-sub.mp3 and the customer appears in Users and Subscriptions', async ({
  page,
  request,
  baseURL,
}) => {
  // Record every audible play() of a media element (the console primes its sounds with muted
  // plays when sound is turned on; those do not count).
  await page.addInitScript(() => {
    const played: string[] = [];
    (window as unknown as { __played: string[] }).__played = played;
    const original = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
      if (!this.muted) played.push(new URL(this.currentSrc || this.src, location.href).pathname);
      return original.call(this);
    };
  });
  const played = () =>
    page.evaluate(() => (window as unknown as { __played: string[] }).__played.slice());

  const { email, subscriptionId } = buyer();
  // The stream opens once signed in: wait for it before the sale is posted.
  const streamOpen = page.waitForResponse(
    (r) => r.url().includes('/api/admin/events/stream') && r.status() === 200,
  );
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const sound = page.getByRole('switch', { name: 'Sound alerts' });
  if ((await sound.getAttribute('aria-checked')) !== 'true') await sound.click();
  await expect(sound).toHaveAttribute('aria-checked', 'true');
  await streamOpen;
  expect(await played()).toEqual([]);

  expect(await postSignedSale(request, baseURL!, email, subscriptionId)).toBe(200);
  await expect.poll(played, { timeout: 10_000 }).toContain('/admin/sounds/new-sub.mp3');
  await expectInUsersAndSubscriptions(page, email);
});
