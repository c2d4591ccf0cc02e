/**
 * End to end: the Metrics screen (§2 Metrics, §4 period presets) on the reference server's
 * seeded data. The six cards show what GET /metrics/overview answers for the default 28 days,
 * formatted with the console's own formatters (§9: churn with one decimal, Est. Revenue in whole
 * USD); choosing 'Last 90 days' puts the period in the URL and the cards follow the API's answer
 * for that range. The ISR summary panel shows GET /isr-metrics/summary for the same days (§5:
 * from + ' 00:00:00', to + ' 23:59:59'), and Active agrees with the dashboard (/stats).
 */
import { expect, type Page } from '@playwright/test';
import { formatCount, formatCurrency, formatPercent } from '../../src/domain/format';
import {
  metricsIsrSummaryRange,
  normaliseMetricsOverview,
  periodRange,
  type DayRange,
  type MetricsOverview,
} from '../../src/domain/metrics';
import { normaliseStats } from '../../src/domain/stats';
import { apiGet, cardFigure, isApiRequest, requestParams, test } from './harness';
import { signIn } from './support';

/** Signs in and opens Metrics from the sidebar; answers the page's first overview request. */
async function openMetrics(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const overviewRequest = page.waitForRequest(isApiRequest('metrics/overview'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Metrics', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Metrics', exact: true })).toBeVisible();
  return overviewRequest;
}

/** The API's overview for a range, normalised as the console reads it. */
async function overviewOf(page: Page, range: DayRange): Promise<MetricsOverview> {
  return normaliseMetricsOverview(await apiGet(page, 'metrics/overview', { ...range }));
}

/** The six §2 cards as the console must word them for `m` over `range`. */
function expectedCards(m: MetricsOverview): Record<string, string> {
  const t = m.totals;
  return {
    Active: formatCount(t.totalActive),
    New: formatCount(t.totalNewInRange),
    Renewals: formatCount(t.totalRenewalsInRange),
    Cancellations: formatCount(t.totalCancellationsInRange),
    Churn: formatPercent(t.churnRate),
    'Est. Revenue': formatCurrency(t.estimatedRevenueCents, 'USD', 0),
  };
}

/** Waits until every card shows its expected figure, and the New card's hint is the range. */
async function expectCards(page: Page, m: MetricsOverview, range: DayRange) {
  const view = page.getByRole('region', { name: 'Metrics', exact: true });
  for (const [label, figure] of Object.entries(expectedCards(m))) {
    await expect(cardFigure(view, label), label).toHaveText(figure);
  }
  await expect(
    view.getByRole('region', { name: 'New', exact: true }).locator('h3 + p + p'),
  ).toHaveText(`${range.from} → ${range.to}`);
}

/** The ISR panel's Total revenue card equals GET /isr-metrics/summary for the metrics days. */
async function expectIsrPanel(page: Page, range: DayRange) {
  const summary = (await apiGet(page, 'isr-metrics/summary', {
    ...metricsIsrSummaryRange(range),
  })) as { total_amount_cents: number; total_events: number };
  expect(summary.total_events, 'seeded ISR events in the range').toBeGreaterThan(0);
  const panel = page.getByRole('region', { name: 'ISR summary', exact: true });
  await expect(cardFigure(panel, 'Total revenue')).toHaveText(
    formatCurrency(summary.total_amount_cents, 'USD', 2),
  );
  await expect(
    panel.getByRole('region', { name: 'Total revenue', exact: true }).locator('h3 + p + p'),
  ).toHaveText(`${formatCount(summary.total_events)} events`);
}

test('Metrics shows the default 28-day figures of /metrics/overview, and 90 days updates them', async ({
  page,
}) => {
  const firstRequest = await openMetrics(page);

  // §4: 28d = today minus 27 days through today, UTC; the screen asked for exactly that.
  const days28 = periodRange('28d', new Date());
  expect(requestParams(firstRequest)).toMatchObject({ ...days28 });
  await expect(page.getByLabel('Period', { exact: true })).toHaveValue('28d');

  const m28 = await overviewOf(page, days28);
  // Seeded demo data: the figures are real ones, so a screen showing zeros or dashes would fail.
  expect(m28.totals.totalNewInRange ?? 0).toBeGreaterThan(0);
  expect(m28.totals.estimatedRevenueCents ?? 0).toBeGreaterThan(0);
  await expectCards(page, m28, days28);
  await expectIsrPanel(page, days28);

  // Active now agrees with the dashboard's Active (Total).
  const stats = normaliseStats(await apiGet(page, 'stats'));
  expect(m28.totals.totalActive).toBe(stats.activeTotal);

  // Five charts, each with its accessible name.
  for (const title of [
    'Total subscriptions vs providers (daily)',
    'Total amount vs providers (daily)',
    'Daily trend: New vs Renewals vs Cancellations',
    'New subscriptions by provider (daily)',
    'Active subscriptions by provider',
    'Active subscriptions by plan',
  ]) {
    await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
  }

  // Switch to 90 days: the URL carries it, the screen asks for it, the cards follow the API.
  const days90 = periodRange('90d', new Date());
  const nextRequest = page.waitForRequest(
    (request) =>
      isApiRequest('metrics/overview')(request) && requestParams(request).from === days90.from,
  );
  await page.getByLabel('Period', { exact: true }).selectOption('90d');
  await expect(page).toHaveURL(/[?&]period=90d(&|$)/);
  expect(requestParams(await nextRequest)).toMatchObject({ ...days90 });

  const m90 = await overviewOf(page, days90);
  // A longer range holds more revenue, so the update is visible on the cards.
  expect(m90.totals.estimatedRevenueCents ?? 0).toBeGreaterThan(
    m28.totals.estimatedRevenueCents ?? 0,
  );
  await expectCards(page, m90, days90);
  await expectIsrPanel(page, days90);

  // The period survives a reload (the filters live in the URL).
  await page.reload();
  await expect(page.getByLabel('Period', { exact: true })).toHaveValue('90d');
  await expectCards(page, m90, days90);
});

test('the sign-in page and the dashboard load no chart code; Metrics loads the chart chunk', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const chartScripts = () => scripts.filter((p) => /\/assets\/charts-[\w-]+\.js$/.test(p));

  await page.goto('login');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length, 'the sign-in page loaded its scripts').toBeGreaterThan(0);
  expect(chartScripts(), 'chart code on the sign-in page').toEqual([]);

  await signIn(page);
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(chartScripts(), 'chart code on the dashboard').toEqual([]);

  // The control: the chart chunk exists and is what Metrics fetches, so the checks above can fail.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Metrics', exact: true })
    .click();
  await expect(
    page.getByRole('region', { name: 'Active subscriptions by plan', exact: true }),
  ).toBeVisible();
  expect(chartScripts()).toHaveLength(1);
});
