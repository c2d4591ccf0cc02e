import { expect, test, type Page } from '@playwright/test';
import { signIn, storedToken } from './support';

/**
 * End to end on the reference server's seeded data (§2 Maintenance): the dry run lists the
 * seeded due users, Cancel in the confirmation applies nothing, Run now applies them and a second
 * dry run shows 0; a ping with nothing configured shows the not-configured summary.
 */
async function openMaintenance(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Maintenance', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Maintenance' })).toBeVisible();
}

/** The server's own dry run (the same call the console makes), with the stored token. */
async function serverPreview(page: Page): Promise<{ affected_count: number; affected: string[] }> {
  const token = await storedToken(page);
  const res = await page.request.get('/api/admin/maintenance/run-expiration?dryRun=true', {
    headers: { Authorization: `Bearer ${token ?? ''}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { affected_count: number; affected: string[] };
}

const card = (page: Page) => page.getByRole('region', { name: 'Expire cancelled access' });

test('dry run shows the seeded due users; Cancel applies nothing; Run now applies them and a second dry run shows 0', async ({
  page,
}) => {
  await openMaintenance(page);
  const due = await serverPreview(page);
  expect(due.affected_count).toBeGreaterThan(0);
  const n = due.affected_count;
  const users = n === 1 ? 'user' : 'users';

  await card(page).getByRole('button', { name: 'Dry run' }).click();
  await expect(card(page).getByText(`${n} ${users} would lose access.`)).toBeVisible();
  await expect(card(page).getByRole('cell', { name: due.affected[0], exact: true })).toBeVisible();

  // Cancel: nothing is applied.
  await card(page).getByRole('button', { name: 'Run now' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Run expiration now?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await serverPreview(page)).affected_count).toBe(n);

  // Yes, run now: applied, then a second dry run shows 0.
  await card(page).getByRole('button', { name: 'Run now' }).click();
  await dialog.getByRole('button', { name: 'Yes, run now' }).click();
  await expect(card(page).getByRole('heading', { name: 'Expiration applied' })).toBeVisible();
  await expect(card(page).getByText(`${n} processed · ${n} affected.`)).toBeVisible();
  await card(page).getByRole('button', { name: 'Dry run' }).click();
  await expect(card(page).getByText('0 users would lose access.')).toBeVisible();
  expect((await serverPreview(page)).affected_count).toBe(0);
});

test('a ping with nothing configured shows the not-configured summary', async ({ page }) => {
  await openMaintenance(page);
  const pings = page.getByRole('region', { name: 'Pings' });
  await pings.getByRole('button', { name: 'Ping forum' }).click();
  await expect(pings.getByRole('status')).toHaveText(
    'Forum (Discourse): ok: false · reason: Discourse not configured',
  );
  await pings.getByLabel('ClickBank variant').selectOption('secret');
  await pings.getByRole('button', { name: 'Ping ClickBank' }).click();
  await expect(
    pings.getByText('ok: false · reason: CLICKBANK_SECRET_KEY not configured', { exact: false }),
  ).toBeVisible();
});
