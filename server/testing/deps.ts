/**
 * Helpers for server tests: a complete ServerConfig without reading the environment, AppDeps with
 * a silent logger and a pinned clock, and a database double that is "down".
 */
import type { Db } from '../db/types';
import { pino } from 'pino';
import { hashPassword } from '../auth/password';
import { ensureBootstrapOwner } from '../auth/operators';
import type { Role } from '../auth/roles';
import { createSession } from '../auth/session';
import type { AppDeps, ServerConfig } from '../context';

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
    // A low scrypt cost keeps tests fast; production hashes use N=2^17 (server/auth/password.ts).
    adminPasswordHash: await hashPassword(TEST_ADMIN_PASSWORD, { N: 2 ** 12 }),
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

/**
 * The id of operator `email` with `role`, created (password = config.adminPasswordHash) when
 * missing; the configured admin email is the bootstrap owner.
 */
export async function testOperator(
  db: Db,
  config: ServerConfig,
  now: Date,
  email = config.adminEmail,
  role: Role = 'owner',
): Promise<number> {
  await ensureBootstrapOwner(db, config, now);
  const res = await db.query<{ id: number }>(
    `INSERT INTO operators (email, name, role, password_hash, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (email) DO UPDATE SET role = operators.role
     RETURNING id::int AS id`,
    [email.toLowerCase(), email.split('@')[0] ?? email, role, config.adminPasswordHash, now],
  );
  return res.rows[0]!.id;
}

/**
 * A signed session token for operator `email` (created with `role` when missing; the configured
 * admin is the bootstrap owner) at `now` with its server-side session row (what a successful
 * sign-in creates), for tests that call protected routes without signing in.
 */
export async function testSessionToken(
  db: Db,
  config: ServerConfig,
  now: Date,
  email = config.adminEmail,
  role: Role = 'owner',
): Promise<string> {
  const id = await testOperator(db, config, now, email, role);
  return (await createSession(db, config, { id, email: email.toLowerCase() }, now)).token;
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
