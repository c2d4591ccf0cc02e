/**
 * Issue 10 "Delivery" end to end, on the production build served by the compiled server: hashed
 * assets go out brotli- or gzip-compressed by Accept-Encoding (immutable, Vary), source maps and
 * the mock service worker are not published, and the sign-in page's JavaScript stays within its
 * 110 KiB on the wire with brotli (a byte count of the build, deterministic; the timing budgets
 * are printed by `npm run bench`, never asserted).
 */
import { expect, test } from '@playwright/test';
import { E2E_FORUM_URL, signIn } from './support';

/** Issue 10's budget for the sign-in page's JavaScript on the wire (brotli), bytes. */
const SIGN_IN_JS_BUDGET_BYTES = 110 * 1024;

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
  const worker = await request.get('/admin/mockServiceWorker.js');
  expect(await worker.text()).not.toContain('Mock Service Worker');
});

test('the sign-in page loads at most 110 KiB of JavaScript on the wire with brotli', async ({
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

test('a signed-in load of the dashboard fetches its code with the page and asks for its stats once', async ({
  page,
}) => {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();

  // A fresh load of /admin/: the route document preloads the dashboard's code (the planned
  // start-up chunk, with the shell) with the entry (issue 10, dashboard LCP), the stats are
  // requested as the entry starts, and the dashboard's query takes that answer instead of asking
  // again. The run-time configuration comes inlined in the document: /admin/config.js (never
  // cached, and waited for by the entry) is not requested at all.
  const requests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('/config.js')) requests.push('config.js');
    if (pathname.endsWith('/stats') || /\/assets\/start-/.test(pathname))
      requests.push(pathname.endsWith('/stats') ? 'stats' : 'dashboard code');
  });
  await page.reload();
  await expect(page.getByRole('region', { name: 'MRR', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requests).toEqual(['dashboard code', 'stats']);
  // The inlined configuration is the one the console runs with (the server's FORUM_URL).
  await expect(page.getByRole('banner').getByRole('link', { name: /^Forum/ })).toHaveAttribute(
    'href',
    E2E_FORUM_URL,
  );
});

test("each address gets its route's document: its chunks preloaded, the sign-in page none of the shell's", async ({
  request,
}) => {
  const html = async (p: string) => (await request.get(p)).text();
  const preloads = (doc: string) =>
    [
      ...doc.matchAll(
        /<link rel="modulepreload" crossorigin href="\/admin\/assets\/([\w-]+?)-[\w-]{8}\.js">/g,
      ),
    ].map((m) => m[1]);
  const fonts = (doc: string) =>
    [...doc.matchAll(/<link rel="preload" as="font" type="font\/woff2" crossorigin href="[^"]+">/g)]
      .length;

  // The start-up chunk plan (scripts/route-documents.ts): the shell and the dashboard in 'start',
  // the code the sign-in page shares with the console in 'common' and React DOM in 'libs', both
  // of which the entry imports, so every document (index.html's part of it) preloads them;
  // 'start' only the signed-in routes'.
  const dashboard = await html('/admin/');
  expect(preloads(dashboard)).toEqual(expect.arrayContaining(['start', 'common', 'libs']));
  expect(preloads(dashboard)).not.toContain('UsersScreen');
  expect(preloads(dashboard)).not.toContain('LoginScreen');
  expect(preloads(await html('/admin/users/42'))).toEqual(
    expect.arrayContaining(['start', 'common', 'libs', 'UsersScreen']),
  );
  const login = await html('/admin/login');
  expect(preloads(login)).toEqual(expect.arrayContaining(['LoginScreen', 'common', 'libs']));
  expect(preloads(login)).not.toContain('start');
  const plain = preloads(await html('/admin/no-such-screen')); // index.html
  expect(plain).toEqual(expect.arrayContaining(['common', 'libs']));
  for (const chunk of ['start', 'LoginScreen', 'UsersScreen']) expect(plain).not.toContain(chunk);
  for (const doc of [dashboard, login, await html('/admin/no-such-screen')])
    expect(fonts(doc)).toBe(3); // Inter 400, 600 and 700, Latin
});

test("React DOM's module-level sentinel errors are built without a stack", async ({ request }) => {
  // scripts/react-sentinels.ts: with an inspector attached (every LCP measurement at 4× CPU),
  // building them as Errors re-parses React DOM's whole module to number the stack's lines.
  const dashboard = await (await request.get('/admin/')).text();
  const libs = /href="(\/admin\/assets\/libs-[\w-]{8}\.js)"/.exec(dashboard)?.[1];
  expect(libs, "the dashboard document preloads React DOM's 'libs' chunk").toBeDefined();
  const code = await (await request.get(libs!)).text();
  expect(code).toContain('Object.create(Error.prototype)');
  // The sentinels' React error codes (formatProdErrorMessage's argument, minified names aside).
  for (const errorCode of [460, 461, 474, 519, 542]) {
    expect(code, `sentinel ${errorCode}`).not.toMatch(
      new RegExp(`\\bError\\([\\w$]+\\(${errorCode}\\)\\)`),
    );
    expect(code, `sentinel ${errorCode}`).toMatch(
      new RegExp(`[\\w$]+\\([\\w$]+\\(${errorCode}\\)\\)`),
    );
  }
});
