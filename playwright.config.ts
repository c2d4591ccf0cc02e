import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/chromium';
import { E2E_ADMIN, E2E_FORUM_URL, E2E_LEMONSQUEEZY_WEBHOOK_SECRET } from './tests/e2e/support';

/**
 * End-to-end tests: the built console (dist/) served by the compiled reference server
 * (dist-server/main.js) exactly as `npm start` serves it, on a throw-away data folder seeded with
 * the demo data, driven in Debian's Chromium. `npm run build` must have run first (the test
 * command does it).
 */
const port = Number(process.env.E2E_PORT ?? 8091);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'mg-e2e-'));

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/e2e.json' }]] : [['list']],
  use: {
    baseURL: `http://localhost:${port}/admin/`,
    timezoneId: 'UTC',
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 900 } },
    },
  ],
  webServer: {
    // The compiled server, exactly as `npm start` runs it in production (no TypeScript runner).
    command: 'node scripts/build-server.mjs && node dist-server/main.js',
    url: `http://localhost:${port}/api/admin/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_CUSTOMERS: '3000',
      SEED: '42',
      LOG_LEVEL: 'warn',
      LEMONSQUEEZY_WEBHOOK_SECRET: E2E_LEMONSQUEEZY_WEBHOOK_SECRET,
      // The header's Forum link: run-time configuration that the server inlines into each
      // document (tests/e2e/delivery.spec.ts checks it reaches the console).
      FORUM_URL: E2E_FORUM_URL,
      // The maintenance spec applies the seeded due revocations by hand: no scheduled run may
      // apply them first, however long the suite takes.
      EXPIRATION_INTERVAL_S: '0',
    },
  },
});
