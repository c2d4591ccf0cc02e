/**
 * Delivery end to end, on the production build served by the compiled server: hashed assets go
 * out brotli- or gzip-compressed by Accept-Encoding (immutable, Vary), source maps, compressed
 * copies by name and the mock service worker are not published, and the sign-in page's JavaScript
 * stays within its 130 KiB on the wire with brotli (a byte count of the build, deterministic; the
 * Lighthouse budgets are printed by `npm run bench`, never asserted).
 */
import { expect, test } from '@playwright/test';
import { E2E_FORUM_URL, signIn } from './support';

/** The budget for the sign-in page's JavaScript on the wire (brotli), bytes. */
const SIGN_IN_JS_BUDGET_BYTES = 130 * 1024;

test('the entry script is served brotli, gzip or as is by Accept-Encoding; no maps, no mock worker', async ({
  request,
}) => {
  const html = await (await request.get('/admin/')).text();
  const entry = /src="(\/admin\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
  expect(entry, 'the entry script in index.html').toBeDefined();

  for (const [accept, coding] of [
    ['br', 'br'],
    ['gzip, br;q=0.5', 'gzip'],
    ['identity', undefined],
  ] as const) {
    const res = await request.get(entry!, { headers: { 'Accept-Encoding': accept } });
    expect(res.status(), accept).toBe(200);
    expect(res.headers()['content-encoding'], accept).toBe(coding);
    expect(res.headers()['vary'], accept).toBe('Accept-Encoding');
    expect(res.headers()['cache-control'], accept).toBe('public, max-age=31536000, immutable');
    expect(res.headers()['content-type'], accept).toBe('text/javascript; charset=utf-8');
    expect((await res.text()).length, accept).toBeGreaterThan(1000); // decoded by the client
  }

  const map = await request.get(`${entry!}.map`);
  expect(map.status()).toBe(404);
  for (const copy of [`${entry!}.br`, `${entry!}.gz`])
    expect((await request.get(copy)).status(), copy).toBe(404);
  const worker = await request.get('/admin/mockServiceWorker.js');
  expect(await worker.text()).not.toContain('Mock Service Worker');
});

test('the sign-in page loads at most 130 KiB of JavaScript on the wire with brotli', async ({
  browser,
}) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'br' } });
  const page = await context.newPage();
  const sizes: Promise<{ url: string; body: number; encoding?: string }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    sizes.push(
      response
        .request()
        .sizes()
        .then((s) => ({
          url: response.url(),
          body: s.responseBodySize,
          encoding: response.headers()['content-encoding'],
        })),
    );
  });
  await page.goto('login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const scripts = await Promise.all(sizes);
  await context.close();
  const total = scripts.reduce((t, s) => t + s.body, 0);
  const entry = scripts.find((s) => /\/assets\/index-[\w-]+\.js$/.test(s.url));
  expect(entry?.encoding, 'the entry chunk travels brotli-compressed').toBe('br');
  expect(total, JSON.stringify(scripts, null, 1)).toBeLessThanOrEqual(SIGN_IN_JS_BUDGET_BYTES);
});

test('a signed-in load of the dashboard asks for its stats once, with the inlined configuration', async ({
  page,
}) => {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();

  // A fresh load of /admin/: the dashboard route's loader starts GET /stats while the screen's
  // code loads, and the screen's query takes that answer instead of asking again. The run-time
  // configuration comes inlined in the document: /admin/config.js is not requested at all.
  const requests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('/config.js')) requests.push('config.js');
    if (pathname.endsWith('/stats')) requests.push('stats');
  });
  await page.reload();
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requests).toEqual(['stats']);
  // The inlined configuration is the one the console runs with (the server's FORUM_URL).
  await expect(page.getByRole('banner').getByRole('link', { name: /^Forum/ })).toHaveAttribute(
    'href',
    E2E_FORUM_URL,
  );
});

test('the sign-in page and the dashboard load no chart code; the Metrics screen does', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const chartChunk = (list: string[]) => list.some((p) => /\/assets\/charts-[\w-]+\.js$/.test(p));
  await page.goto('login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(chartChunk(scripts), scripts.join('\n')).toBe(false);
  await signIn(page);
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(chartChunk(scripts), scripts.join('\n')).toBe(false);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Metrics', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Metrics' })).toBeVisible();
  await expect.poll(() => chartChunk(scripts)).toBe(true);
});
