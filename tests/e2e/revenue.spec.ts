/**
 * End to end: the Revenue screen (docs/metrics.md) on the reference server's seeded data. Opened
 * from the sidebar, the cards show figures, the MRR movements chart's data table lists its
 * buckets, and a filter change is kept in the URL and reaches GET /metrics/revenue. The seeded
 * amounts change with the day the database was made, so only the figures' shapes are asserted.
 * The harness's `test` fails on any CSP violation or uncaught page error.
 */
import { expect, type Page } from '@playwright/test';
import { cardFigure, isApiRequest, requestParams, test } from './harness';
import { signIn } from './support';

/** Signs in and opens Revenue from the sidebar; answers the page's first figures request. */
async function openRevenue(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const revenueRequest = page.waitForRequest(isApiRequest('metrics/revenue'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Revenue', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Revenue', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/revenue$/);
  return revenueRequest;
}

const MONEY = /^-?\$[\d,]+(\.\d\d)?$/;
const PERCENT_OR_DASH = /^(-?[\d,]+\.\d%|—)$/;

test('Revenue shows its cards and the movements data table, and keeps a filter in the URL', async ({
  page,
}) => {
  const first = await openRevenue(page);
  expect(requestParams(first)).toMatchObject({
    from: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    to: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
  });

  await expect(cardFigure(page, 'MRR now')).toHaveText(MONEY);
  await expect(cardFigure(page, 'Net new MRR')).toHaveText(MONEY);
  await expect(cardFigure(page, 'ARPA')).toHaveText(/^(-?\$[\d,]+(\.\d\d)?|—)$/);
  for (const label of ['Customer churn', 'MRR churn', 'NRR'])
    await expect(cardFigure(page, label), label).toHaveText(PERCENT_OR_DASH);
  // The seed has customers paying every month, so MRR now is more than nothing.
  await expect(cardFigure(page, 'MRR now')).not.toHaveText('$0');

  const movements = page.getByRole('region', { name: 'MRR movements', exact: true });
  await movements.getByText('Data table', { exact: true }).click();
  const table = movements.getByRole('table');
  await expect(table).toBeVisible();
  // A header row and at least one bucket row.
  await expect
    .poll(async () => table.getByRole('row').count(), { message: 'data table rows' })
    .toBeGreaterThan(1);
  await expect(table.getByRole('row').nth(1).getByRole('cell').last()).toHaveText(MONEY);

  const next = page.waitForRequest(
    (request) =>
      isApiRequest('metrics/revenue')(request) && requestParams(request).interval === 'month',
  );
  await page.getByLabel('Period', { exact: true }).selectOption('180d');
  await expect(page).toHaveURL(/[?&]period=180d(&|$)/);
  await page.getByLabel('Interval', { exact: true }).selectOption('month');
  await expect(page).toHaveURL(/[?&]period=180d&interval=month$/);
  const params = requestParams(await next);
  const days =
    (Date.parse(`${params.to}T00:00:00Z`) - Date.parse(`${params.from}T00:00:00Z`)) / 86_400_000;
  expect(days).toBe(179);
  await expect(cardFigure(page, 'MRR now')).toHaveText(MONEY);
  await expect(table.getByRole('row').nth(1).getByRole('rowheader')).toHaveText(/^\d{4}-\d\d-01$/);

  // The filters survive a reload: they live in the address, not in memory.
  await page.reload();
  await expect(page.getByLabel('Period', { exact: true })).toHaveValue('180d');
  await expect(page.getByLabel('Interval', { exact: true })).toHaveValue('month');
  await expect(cardFigure(page, 'MRR now')).toHaveText(MONEY);
});
