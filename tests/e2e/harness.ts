/**
 * Shared by the Metrics and Integrated Tracking end-to-end specs: a `test` that fails on a
 * Content-Security-Policy violation or an uncaught page error, and reading the reference server's
 * own answers with the signed-in page's token, so a spec can compare what the console shows with
 * what the API says (CONTRACT.md paths under /api/admin, Bearer auth).
 */
import { test as base, expect, type Locator, type Page, type Request } from '@playwright/test';
import { storedToken, watchCspViolations } from './support';

/**
 * Playwright's `test`, failing any test whose page reported a Content-Security-Policy violation
 * or threw an uncaught error, so the screens are known to work under the server's CSP.
 */
export const test = base.extend<{ pageProblems: void }>({
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

/**
 * A StatCard's figure (the line under its label) inside `scope`: a locator, so
 * `expect(…).toHaveText(…)` waits for the figure to settle (screens keep the previous figures
 * while a new answer loads).
 */
export function cardFigure(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('region', { name: label, exact: true }).locator('h3 + p');
}

/** Query parameters; '' and undefined are left out, as the console's client leaves blanks out. */
export type ApiParams = Record<string, string | number | undefined>;

/** `path` under /api/admin/ with the non-blank `params` as its query string. */
export function apiUrl(path: string, params: ApiParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return `/api/admin/${path.replace(/^\//, '')}${query ? `?${query}` : ''}`;
}

/**
 * GET /api/admin/{path}?{params} with the page's stored admin token; expects a 2xx and answers
 * the parsed JSON. Fails the test when the page holds no token or the answer is not OK.
 */
export async function apiGet(page: Page, path: string, params: ApiParams = {}): Promise<unknown> {
  const token = await storedToken(page);
  expect(token, 'the page holds an admin token').toBeTruthy();
  const url = apiUrl(path, params);
  const answer = await page.request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok(), `GET ${url} → ${answer.status()}`).toBe(true);
  return answer.json();
}

/** The query parameters of a request the page made, as a plain object. */
export function requestParams(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url()).searchParams);
}

/** True for a GET the page makes to /api/admin/{path} (any query). */
export function isApiRequest(path: string): (request: Request) => boolean {
  return (request) =>
    request.method() === 'GET' && new URL(request.url()).pathname === `/api/admin/${path}`;
}
