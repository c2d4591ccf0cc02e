import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { E2E_LEMONSQUEEZY_WEBHOOK_SECRET, signIn, watchCspViolations } from './support';

/**
 * End to end: a signed LemonSqueezy delivery and a forged one posted to the reference server are
 * both in the webhook inbox. The Webhooks screen finds the signed one by its email, its drawer
 * shows the payload and what it changed, and a replay by the (owner) operator is a duplicate.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const lsTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

test('a signed delivery is on the Webhooks screen with its payload, and replays as a duplicate', async ({
  page,
  baseURL,
}) => {
  const violations = watchCspViolations(page);
  const n = Date.now();
  const email = `e2e-inbox-${n.toString(36)}@example.com`;
  const fixture = JSON.parse(
    readFileSync(
      path.join(here, '..', 'msw', 'provider', 'lemonsqueezy-subscription.json'),
      'utf8',
    ),
  ) as { type: string; id: string; attributes: Record<string, unknown> };
  const now = new Date();
  const body = JSON.stringify({
    meta: { event_name: 'subscription_created', test_mode: false },
    data: {
      ...fixture,
      id: String(80_000_000 + (n % 9_000_000)),
      attributes: {
        ...fixture.attributes,
        user_email: email,
        variant_name: 'Monthly',
        status: 'active',
        renews_at: lsTime(new Date(now.getTime() + 30 * 86_400_000)),
        ends_at: null,
        created_at: lsTime(now),
        updated_at: lsTime(now),
      },
    },
  });
  const url = new URL('/webhooks/lemonsqueezy', baseURL).toString();
  const signature = createHmac('sha256', E2E_LEMONSQUEEZY_WEBHOOK_SECRET)
    .update(body)
    .digest('hex');
  const headers = { 'Content-Type': 'application/json', 'X-Event-Name': 'subscription_created' };
  const signed = await page.request.post(url, {
    data: body,
    headers: { ...headers, 'X-Signature': signature },
  });
  expect(signed.status()).toBe(200);
  const forged = await page.request.post(url, {
    data: body,
    headers: { ...headers, 'X-Signature': '0'.repeat(64) },
  });
  expect(forged.status()).toBe(401);

  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Webhooks', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Webhook deliveries' });

  // The forged delivery is kept too, as refused.
  await page.getByLabel('Outcome').selectOption('refused_signature');
  await expect(page).toHaveURL(/outcome=refused_signature/);
  await expect(table.getByRole('row').nth(1)).toContainText('401');

  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Email').fill(email);
  await expect(page).toHaveURL(/email=/);
  const row = table.getByRole('row', { name: new RegExp(email.replace('.', '\\.')) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('subscription_created');
  await expect(row).toContainText('Applied');

  await row.getByRole('button', { name: /View delivery/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Webhook delivery' });
  await expect(drawer.getByRole('region', { name: 'Payload' })).toContainText(email);
  await expect(drawer).toContainText('access.grant');
  await drawer.getByRole('button', { name: 'Replay' }).click();
  await expect(drawer.getByRole('status').filter({ hasText: 'Already applied' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  expect(violations).toEqual([]);
});
