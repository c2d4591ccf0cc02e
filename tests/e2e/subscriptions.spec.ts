import { expect, test, type Page } from '@playwright/test';
import { signIn, watchCspViolations } from './support';

/**
 * End to end on the reference server's seeded data: the Subscriptions list, and the
 * detail drawer for a LemonSqueezy subscription and for a ClickBank one with its orders (§2).
 */
async function openSubscriptions(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Subscriptions', exact: true })
    .click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Subscriptions', exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Click an email to view details.')).toBeVisible();
}

async function openFirstOfProvider(page: Page, provider: 'lemonsqueezy' | 'clickbank') {
  await page.getByLabel('Provider', { exact: true }).selectOption(provider);
  await expect(page).toHaveURL(new RegExp(`provider=${provider}`));
  const view = page.getByRole('button', { name: /^View details for / }).first();
  await expect(view).toBeVisible();
  await view.click();
  const drawer = page.getByRole('dialog', { name: 'Subscription details' });
  await expect(drawer).toBeVisible();
  return { drawer, view };
}

test('a LemonSqueezy subscription opens its whole record in the drawer, and focus returns on close', async ({
  page,
}) => {
  const violations = watchCspViolations(page);
  await openSubscriptions(page);
  const { drawer, view } = await openFirstOfProvider(page, 'lemonsqueezy');
  for (const section of [
    'Core',
    'Customer / Marketing',
    'Payment',
    'Trial & Billing',
    'Metadata',
    'Provider payload',
  ]) {
    await expect(drawer.getByRole('heading', { name: section, exact: true })).toBeVisible();
  }
  await expect(drawer.getByText('lemonsqueezy').first()).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Order details' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(view).toBeFocused();
  expect(violations).toEqual([]);
});

test('a ClickBank subscription shows its order details from the local order records', async ({
  page,
}) => {
  await openSubscriptions(page);
  const { drawer } = await openFirstOfProvider(page, 'clickbank');
  await expect(drawer.getByRole('heading', { name: 'Order details', exact: true })).toBeVisible();
  await expect(drawer.getByText('Latest order')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).first().click();
  await expect(drawer).toBeHidden();
});
