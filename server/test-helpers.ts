/**
 * Helpers for server tests: a complete ServerConfig without reading the environment, AppDeps with
 * a silent logger and a pinned clock, and a database double that is "down".
 */
import type { Db } from './db/types';
import { pino } from 'pino';
import { hashPassword } from './auth/password';
import type { AppDeps, ServerConfig } from './context';

/** Password of the admin in makeTestConfig. */
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';
/** Email of the admin in makeTestConfig. */
export const TEST_ADMIN_EMAIL = 'admin@example.com';

/** A ServerConfig for tests (in-memory data dir, fixed 32-byte JWT secret, USD with EUR/GBP rates), with overrides. */
export async function makeTestConfig(overrides: Partial<ServerConfig> = {}): Promise<ServerConfig> {
  return {
    port: 0,
    dataDir: 'memory',
    apiPrefix: '/api/admin',
    staticDir: 'dist',
    adminEmail: TEST_ADMIN_EMAIL,
    adminPasswordHash: await hashPassword(TEST_ADMIN_PASSWORD),
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
    sessionTtlS: 3600,
    reportingCurrency: 'USD',
    fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 },
    seedCustomers: 0,
    seedValue: 42,
    discourse: null,
    lemonSqueezyApiKey: null,
    clickbankDeveloperKey: null,
    clickbankClerkKey: null,
    loginRateLimit: { maxAttempts: 10, windowS: 900 },
    trustProxy: false,
    logLevel: 'silent',
    ...overrides,
  };
}

/** AppDeps over `db` with a silent logger and a clock that answers `clock.now` (mutable by the test). */
export function makeTestDeps(db: Db, config: ServerConfig, clock: { now: Date }): AppDeps {
  return { db, config, log: pino({ level: 'silent' }), now: () => clock.now };
}

/** A stand-in Db whose every query rejects, as a database that is down does. */
export function downDatabase(): Db {
  const fail = () => Promise.reject(new Error('PGlite is closed'));
  return { query: fail, exec: fail, transaction: fail } as unknown as Db;
}
