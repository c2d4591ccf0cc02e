import { expect, test, type Page } from '@playwright/test';
import { signIn, watchCspViolations } from './support';

/**
 * End to end on the reference server's seeded logs (§2 Logs): the latest entries, a level filter
 * and a search, each agreeing with GET /logs itself.
 */
async function openLogs(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
  await expect(page.getByText('Server application logs (latest first).')).toBeVisible();
}

/** GET /api/admin/logs with the page's token. */
async function apiLogs(page: Page, query: Record<string, string>) {
  const token = await page.evaluate(() => localStorage.getItem('mg_admin_token'));
  const answer = await page.request.get(`/api/admin/logs?${new URLSearchParams(query)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as {
    rows: { ts: string; level: string; msg: string }[];
    total: number;
    totalPages: number;
  };
}

const table = (page: Page) => page.getByRole('table', { name: 'Server logs' });
const pager = (page: Page) => page.getByRole('navigation', { name: 'Log pages' });

test('Logs shows the seeded entries, latest first, filters by level and searches', async ({
  page,
}) => {
  const violations = watchCspViolations(page);
  await openLogs(page);

  // The first page equals the API's, newest first, timestamps in UTC to the second.
  const all = await apiLogs(page, { page: '1', pageSize: '50' });
  expect(all.total).toBeGreaterThan(50);
  await expect(pager(page)).toContainText(`Total: ${all.total.toLocaleString('en-US')}`);
  await expect(pager(page)).toContainText(`Page 1 of ${all.totalPages}`);
  const firstRow = table(page).getByRole('row').nth(1);
  await expect(firstRow).toContainText(all.rows[0]!.msg);
  await expect(firstRow.getByRole('cell').first()).toHaveText(
    all.rows[0]!.ts.slice(0, 19).replace('T', ' '),
  );
  await expect(page.getByLabel('Auto-refresh')).toBeChecked();

  // Level: warn. Every row's badge reads warn; the total is the API's.
  await page.getByLabel('Level').selectOption('warn');
  await expect(page).toHaveURL(/level=warn/);
  const warn = await apiLogs(page, { page: '1', pageSize: '50', level: 'warn' });
  expect(warn.total).toBeGreaterThan(0);
  await expect(pager(page)).toContainText(`Total: ${warn.total.toLocaleString('en-US')}`);
  const levels = await table(page)
    .getByRole('row')
    .locator('td[data-column="level"]')
    .allInnerTexts();
  // Rows beyond the first screenful are rendered as they scroll into view (virtualised); the
  // table still announces every match.
  expect(levels.length).toBeGreaterThan(0);
  expect(new Set(levels)).toEqual(new Set(['warn']));
  await expect(table(page)).toHaveAttribute('aria-rowcount', String(warn.total + 1));

  // Search (message, context), debounced: the rows all mention it.
  await page.getByLabel('Search (message, context)').fill('rate limited');
  await expect(page).toHaveURL(/q=rate\+limited/);
  const searched = await apiLogs(page, {
    page: '1',
    pageSize: '50',
    level: 'warn',
    q: 'rate limited',
  });
  expect(searched.total).toBeGreaterThan(0);
  await expect(pager(page)).toContainText(`Total: ${searched.total.toLocaleString('en-US')}`);
  const messages = await table(page).locator('td[data-column="msg"]').allInnerTexts();
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) expect(message.toLowerCase()).toContain('rate limited');

  // A context opens as JSON under 'view'.
  await table(page).getByText('view').first().click();
  await expect(table(page).getByRole('region', { name: 'Context' }).first()).toBeVisible();

  // Clear returns to every level, page 1.
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(pager(page)).toContainText(`Total: ${all.total.toLocaleString('en-US')}`);
  expect(violations).toEqual([]);
});
