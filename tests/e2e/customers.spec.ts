import { expect, test } from '@playwright/test';
import { E2E_ADMIN, signIn, watchCspViolations } from './support';

/**
 * End to end on the reference server's seeded data (docs/api.md "Customers", "Search"): a
 * ClickBank receipt pasted into the command palette opens its customer's page, an access action
 * taken there shows at the top of the customer's timeline with the operator who took it.
 */
test('Ctrl+K and a pasted ClickBank receipt open the customer, and revoking there tops the timeline with the operator', async ({
  page,
}) => {
  const violations = watchCspViolations(page);
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  // A seeded ClickBank subscription's id is its initial receipt.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Subscriptions', exact: true })
    .click();
  await page.getByLabel('Provider', { exact: true }).selectOption('clickbank');
  await expect(page).toHaveURL(/provider=clickbank/);
  const firstRow = page.getByRole('row').filter({ hasText: 'clickbank' }).first();
  await expect(firstRow).toBeVisible();
  const receipt = (await firstRow.getByRole('cell').nth(3).innerText()).trim();
  expect(receipt).toMatch(/^[A-Z0-9]{8,}/);

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Find anything' });
  await expect(palette).toBeVisible();
  await expect(palette.getByRole('combobox')).toBeFocused();
  await palette.getByRole('combobox').fill(receipt);
  const best = palette.getByRole('option').first();
  await expect(best).toContainText(receipt);
  await expect(best).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/admin\/customers\//);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText('@');
  const email = (await heading.innerText()).trim();
  await expect(page.getByRole('region', { name: 'Subscriptions' })).toContainText(receipt);

  // The operator's earlier access entries for this customer (a re-run of the suite on one
  // server has some), counted once the timeline has loaded.
  const timeline = page.getByRole('region', { name: 'Timeline' });
  const entries = timeline.getByRole('listitem');
  await expect(entries.first()).toBeVisible();
  const byOperator = entries
    .filter({ hasText: `by ${E2E_ADMIN.email}` })
    .filter({ hasText: /^\S+ \S+Access/ });
  const before = await byOperator.count();

  await page.getByRole('button', { name: `Edit access for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Revoke now' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /Revoke/ })
    .click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `${email}:` })
      .filter({ hasText: /OK|Done, but/ }),
  ).toBeVisible();

  // The action's entries (its audit row as an access entry, and the log line that names the
  // customer) lead the timeline; the access one names the operator.
  await expect(byOperator).toHaveCount(before + 1);
  const leading = (await entries.allInnerTexts()).slice(0, 3).join('\n');
  expect(leading).toMatch(/Access[\s\S]*by e2e-admin@example\.com/);
  // The Access chip keeps it alone at the top, and the choice is in the address.
  await timeline.getByRole('button', { name: 'Access', exact: true }).click();
  await expect(page).toHaveURL(/kind=access/);
  const newest = entries.first();
  await expect(newest).toContainText('Access');
  await expect(newest).toContainText(`by ${E2E_ADMIN.email}`);
  expect(violations).toEqual([]);
});
