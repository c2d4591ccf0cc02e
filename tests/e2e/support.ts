/**
 * Shared by the end-to-end tests and playwright.config.ts: the administrator the reference server
 * is started with (ADMIN_EMAIL / ADMIN_PASSWORD on a throw-away DATA_DIR), and small helpers to
 * drive the built console under /admin.
 */
import { expect, type Page } from '@playwright/test';

/** The e2e administrator; playwright.config.ts passes it to the server's environment. */
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-Secret-pass-1' } as const;

/**
 * The LemonSqueezy webhook signing secret the e2e server is started with
 * (LEMONSQUEEZY_WEBHOOK_SECRET in playwright.config.ts), so specs can sign deliveries.
 */
export const E2E_LEMONSQUEEZY_WEBHOOK_SECRET = 'e2e-lemonsqueezy-webhook-secret-0123456789';
/** The e2e server's FORUM_URL: the header's Forum link (run-time configuration). */
export const E2E_FORUM_URL = 'https://forum.e2e.example.org/';

/** localStorage key of the admin token (src/domain/types.ts TOKEN_STORAGE_KEY). */
export const TOKEN_KEY = 'mg_admin_token';

/**
 * Fills the login form and presses 'Sign in' (the page must be on /admin/login). The Email field's
 * pre-filled value (the run-time configuration's in demo mode, else the console's default) is
 * replaced with the e2e admin's.
 */
export async function signIn(page: Page, password: string = E2E_ADMIN.password): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The stored admin token of the page, or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
}

/**
 * Collects Content-Security-Policy violations reported on the page's console (Chromium logs them
 * as errors mentioning 'Content Security Policy') and page-level securitypolicyviolation events.
 */
export function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
