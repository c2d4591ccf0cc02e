/**
 * End to end: the built console (dist/) under /admin, served by the reference server on a
 * fresh seeded database (playwright.config.ts), driven in Chromium.
 * Covers §2 Routing (guard, remembered deep link, unknown paths), §2 Login and §8 (codes),
 * §2 Dashboard against the database's own figures, §4 Session (log out), CONTRACT.md (401 →
 * login), and the security headers with no CSP violation while the console runs.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { formatCount, formatCurrency, formatOneDecimal } from '../../src/domain/format';
import { normaliseStats } from '../../src/domain/stats';
import { E2E_ADMIN, TOKEN_KEY, signIn, storedToken, watchCspViolations } from './support';

/**
 * Every test fails on a Content-Security-Policy violation or an uncaught page error, so the
 * console is known to work under the server's CSP.
 */
const test = base.extend<{ pageProblems: void }>({
  pageProblems: [
    async ({ page }, use) => {
      const csp = watchCspViolations(page);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use();
      expect(csp, 'Content Security Policy violations').toEqual([]);
      expect(errors, 'uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** The /admin/... URL of an in-app path, as a regular expression anchored at the end. */
function at(pathAndQuery: string): RegExp {
  const escaped = `/admin${pathAndQuery}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^https?://[^/]+${escaped}$`);
}

/** Signs in from /admin/login and waits for the dashboard. */
async function signInToDashboard(page: Page) {
  await page.goto('login');
  await signIn(page);
  await expect(page).toHaveURL(at('/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

/** A card's figure (the line under its label), whitespace normalised. */
async function cardText(page: Page, label: string): Promise<string> {
  const text = await page
    .getByRole('region', { name: label, exact: true })
    .locator('h3 + p')
    .textContent();
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

test('serves /admin/ with the security headers', async ({ page }) => {
  const response = await page.request.get('/admin/');
  expect(response.status()).toBe(200);
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect([
    'no-referrer',
    'same-origin',
    'strict-origin',
    'strict-origin-when-cross-origin',
  ]).toContain(headers['referrer-policy']);
});

test('signs in with the configured credentials, shows the database figures, and logs out', async ({
  page,
}) => {
  await page.goto('login');
  // Outside demo mode the run-time configuration, which is public, does not publish the admin
  // email: the form pre-fills the console's own default username (§2 Login screen), never the
  // configured one.
  await expect(page.getByLabel('Email')).toHaveValue('admin@example.com');
  await expect(page.getByLabel('Email')).not.toHaveValue(E2E_ADMIN.email);
  await signIn(page);
  await expect(page).toHaveURL(at('/'));
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Dashboard · MG Admin Console');

  // What the database holds, read with the page's own token, formatted with the console's rules.
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  const answer = await page.request.get('/api/admin/stats', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBe(true);
  const stats = normaliseStats(await answer.json());
  expect(stats.activeTotal).toBeGreaterThan(0);

  const expected: Record<string, string> = {
    MRR: formatCurrency(stats.mrrCents, stats.currency, 2),
    ARR: formatCurrency(stats.arrCents, stats.currency, 2),
    Today: `${formatCount(stats.newToday)} new · ${formatCount(stats.renewalsToday)} renewals · ${formatCount(stats.cancellationsToday)} cancels`,
    Currency: stats.currency,
    'Active (Total)': formatCount(stats.activeTotal),
    'Active (Monthly)': formatCount(stats.activeMonthly),
    'Active (Yearly)': formatCount(stats.activeYearly),
    'Scheduled Cancellations': formatCount(stats.scheduledCancellations),
    'Avg Days Remaining': formatOneDecimal(stats.avgDaysRemaining),
  };
  if (stats.totalSubscribers !== 0)
    expected['Total Subscribers'] = formatCount(stats.totalSubscribers);
  if (stats.totalRevenueCents !== 0)
    expected['Total Revenue'] = formatCurrency(stats.totalRevenueCents, stats.currency, 0);
  for (const [label, value] of Object.entries(expected)) {
    expect(await cardText(page, label), label).toBe(value);
  }
  const dashboard = page.getByRole('region', { name: 'Dashboard', exact: true });
  await expect(dashboard.getByRole('region')).toHaveCount(Object.keys(expected).length);

  // The session cookie (for the event stream) is set before logging out, and the token works…
  const sessionCookie = async () =>
    (await page.context().cookies()).find((c) => c.name === 'mg_admin_session');
  expect(await sessionCookie()).toBeTruthy();
  const bearer = { Authorization: `Bearer ${token}` };
  const before = await page.request.get('/api/admin/auth/whoami', { headers: bearer });
  expect((await before.json()).ok).toBe(true);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(at('/login'));
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  // …and after: the console called the server's logout, which cleared the cookie and revoked the
  // session, so even a copy of the old token is refused.
  expect(await sessionCookie()).toBeUndefined();
  const after = await page.request.get('/api/admin/auth/whoami', { headers: bearer });
  expect(after.status()).toBe(401);
});

test("a wrong password shows 'Incorrect password' and stays signed out", async ({ page }) => {
  await page.goto('login');
  await signIn(page, 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Incorrect password');
  await expect(page.getByLabel('Password')).toBeFocused();
  await expect(page).toHaveURL(at('/login'));
  expect(await storedToken(page)).toBeNull();
});

test('a guarded deep link goes to sign-in and back to the deep link afterwards', async ({
  page,
}) => {
  await page.goto('settings?tab=general#top');
  await expect(page).toHaveURL(at('/login'));
  await signIn(page);
  await expect(page).toHaveURL(at('/settings?tab=general#top'));
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('main')).toBeFocused();
});

test('after logging out, a guarded page asks to sign in and returns there', async ({ page }) => {
  await signInToDashboard(page);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(at('/login'));

  await page.goto('settings');
  await expect(page).toHaveURL(at('/login'));
  await signIn(page);
  await expect(page).toHaveURL(at('/settings'));
  await expect(page.getByText('Environment and integration settings will go here.')).toBeVisible();
});

test('an unknown path redirects to /admin/', async ({ page }) => {
  await signInToDashboard(page);
  const entries = await page.evaluate(() => history.length);
  await page.goto('nope');
  await expect(page).toHaveURL(at('/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // The redirect replaced /admin/nope's history entry rather than adding one after it.
  expect(await page.evaluate(() => history.length)).toBe(entries + 1);
});

test('a 401 (the session is gone) sends the operator to sign in, then back', async ({
  page,
  context,
}) => {
  await signInToDashboard(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page).toHaveURL(at('/'));

  // Delete the session: a garbage token and no session cookie.
  await page.evaluate((key) => localStorage.setItem(key, 'garbage-token'), TOKEN_KEY);
  await context.clearCookies();
  await page.goto('?from=test');

  await expect(page).toHaveURL(at('/login'));
  await expect(page.getByRole('alert')).toHaveText(
    'Your session has expired. Please sign in again.',
  );
  expect(await storedToken(page)).toBeNull();

  await signIn(page);
  await expect(page).toHaveURL(at('/?from=test'));
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
});

test('every sidebar entry opens its screen under /admin, with its title in the browser tab', async ({
  page,
}) => {
  await page.goto('login');
  await expect(page).toHaveTitle('Admin Login · MG Admin Console');
  await signInToDashboard(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const screens: [string, string, string][] = [
    ['Metrics', '/metrics', 'Metrics'],
    ['Users', '/users', 'Users'],
    ['Subscriptions', '/subscriptions', 'Subscriptions'],
    ['Integrated Tracking', '/isr', 'Integrated Tracking (First-Party)'],
    ['Webhooks', '/webhooks', 'Webhooks'],
    ['Logs', '/logs', 'Logs'],
    ['Audit', '/audit', 'Audit'],
    ['Settings', '/settings', 'Settings'],
    ['Maintenance', '/maintenance', 'Maintenance'],
    ['Dashboard', '/', 'Dashboard'],
  ];
  for (const [label, path, title] of screens) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(at(path));
    await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`${title} · MG Admin Console`);
  }
});

test('a screen whose code cannot be loaded shows the error page, focused, until the operator goes elsewhere', async ({
  page,
}) => {
  await signInToDashboard(page);
  // A stale or unreachable chunk (e.g. after a deploy): the Users screen's code fails to load.
  await page.route(/\/assets\/UsersScreen-[\w-]+\.js$/, (route) => route.abort());
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Users', exact: true })
    .click();
  const heading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByRole('link', { name: 'Reload the console' })).toHaveAttribute(
    'href',
    '/admin/',
  );
  // Back: the location changes, the error page clears and the dashboard is shown again.
  await page.goBack();
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await expect(heading).toBeHidden();
});
