import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './auth/password';
import { ConfigError, loadConfig, parseFxRates } from './config';
import { argvOverrides } from './main';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'mg-config-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** loadConfig's rejection, as {variable, message}. */
async function failure(env: Record<string, string>) {
  try {
    await loadConfig({ DATA_DIR: 'memory', ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return { variable: (err as ConfigError).variable, message: (err as Error).message };
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig defaults', () => {
  it('applies every documented default', async () => {
    const config = await loadConfig({ DATA_DIR: 'memory' });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: 'memory',
      apiPrefix: '/api/admin',
      staticDir: 'dist',
      adminEmail: 'admin@example.com',
      sessionTtlS: 43_200,
      reportingCurrency: 'USD',
      fxRates: { USD: 1, EUR: 1.08, GBP: 1.27 },
      seedCustomers: 3000,
      seedValue: 42,
      discourse: null,
      lemonSqueezyApiKey: null,
      clickbankDeveloperKey: null,
      clickbankClerkKey: null,
      loginRateLimit: { maxAttempts: 10, windowS: 900 },
      trustProxy: false,
      logLevel: 'info',
      lemonSqueezyApiUrl: 'https://api.lemonsqueezy.com',
      clickbankApiUrl: 'https://api.clickbank.com',
      clickbankSecretKey: null,
      logRetentionDays: 30,
      logMaxRows: 1_000_000,
      statsCacheS: 15,
      outbox: { maxAttempts: 12, pollMs: 5000, waitMs: 2000 },
      expirationIntervalS: 300,
      // Loopback demo by default, with loopback-appropriate cookie and HSTS settings.
      host: '127.0.0.1',
      demoMode: true,
      sessionIdleS: 1800,
      cookieSecure: false,
      hstsMaxAge: 0,
      trustedProxyHops: 0,
      loginAccountRateMax: 30,
      loginHashConcurrency: 2,
    });
    expect(config.jwtSecret).toHaveLength(32);
    // The demo password 'admin' is kept only as a scrypt hash (N=2^17, r=8, p=1).
    expect(config.adminPasswordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(config.adminPasswordHash).not.toContain('admin');
    expect(await verifyPassword('admin', config.adminPasswordHash)).toBe(true);
  });

  it('reads the forum outbox and scheduler settings; 0 turns the scheduler off', async () => {
    const config = await loadConfig({
      DATA_DIR: 'memory',
      OUTBOX_MAX_ATTEMPTS: '3',
      OUTBOX_POLL_MS: '250',
      OUTBOX_WAIT_MS: '0',
      EXPIRATION_INTERVAL_S: '0',
    });
    expect(config.outbox).toEqual({ maxAttempts: 3, pollMs: 250, waitMs: 0 });
    expect(config.expirationIntervalS).toBe(0);
    expect(await failure({ OUTBOX_MAX_ATTEMPTS: '0' })).toMatchObject({
      variable: 'OUTBOX_MAX_ATTEMPTS',
    });
    expect(await failure({ OUTBOX_WAIT_MS: '60000' })).toMatchObject({
      variable: 'OUTBOX_WAIT_MS',
    });
    expect(await failure({ EXPIRATION_INTERVAL_S: '-5' })).toMatchObject({
      variable: 'EXPIRATION_INTERVAL_S',
    });
  });

  it('defaults DATA_DIR to ./.data', async () => {
    // With JWT_SECRET given, nothing is written to the data folder.
    const config = await loadConfig({ JWT_SECRET: 'y'.repeat(32) });
    expect(config.dataDir).toBe('./.data');
  });

  it('gives a new random JWT secret per process in memory mode', async () => {
    const a = await loadConfig({ DATA_DIR: 'memory' });
    const b = await loadConfig({ DATA_DIR: 'memory' });
    expect(Buffer.from(a.jwtSecret).equals(Buffer.from(b.jwtSecret))).toBe(false);
  });
});

describe('loadConfig from the environment', () => {
  it('reads every variable', async () => {
    const config = await loadConfig({
      PORT: '9090',
      DATA_DIR: 'memory',
      API_PREFIX: '/backend/admin/',
      STATIC_DIR: '/srv/console',
      ADMIN_EMAIL: 'Ops@Example.org',
      ADMIN_PASSWORD: 's3cret!',
      JWT_SECRET: 'x'.repeat(40),
      SESSION_TTL_S: '600',
      REPORTING_CURRENCY: 'eur',
      FX_RATES: 'USD=0.92, GBP=1.17',
      SEED_CUSTOMERS: '100000',
      SEED: '7',
      DISCOURSE_URL: 'https://forum.example.com/',
      DISCOURSE_API_KEY: 'key',
      DISCOURSE_GROUP_ID: '42',
      DISCOURSE_TIMEOUT_MS: '2500',
      LEMONSQUEEZY_API_KEY: 'ls-key',
      CLICKBANK_DEVELOPER_KEY: 'DEV-1',
      CLICKBANK_CLERK_KEY: 'API-1',
      LOGIN_RATE_MAX: '5',
      LOGIN_RATE_WINDOW_S: '60',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      SITE_URL: 'https://mg.example.org/',
      FORUM_URL: 'https://forum.mg.example.org',
    });
    expect(config).toMatchObject({
      port: 9090,
      apiPrefix: '/backend/admin',
      staticDir: '/srv/console',
      adminEmail: 'ops@example.org',
      sessionTtlS: 600,
      reportingCurrency: 'EUR',
      fxRates: { EUR: 1, USD: 0.92, GBP: 1.17 },
      seedCustomers: 100_000,
      seedValue: 7,
      discourse: {
        baseUrl: 'https://forum.example.com',
        apiKey: 'key',
        apiUsername: 'system',
        groupId: 42,
        timeoutMs: 2500,
      },
      lemonSqueezyApiKey: 'ls-key',
      siteUrl: 'https://mg.example.org/',
      forumUrl: 'https://forum.mg.example.org',
      clickbankDeveloperKey: 'DEV-1',
      clickbankClerkKey: 'API-1',
      loginRateLimit: { maxAttempts: 5, windowS: 60 },
      trustProxy: true,
      logLevel: 'warn',
    });
    expect(new TextDecoder().decode(config.jwtSecret)).toBe('x'.repeat(40));
    expect(await verifyPassword('s3cret!', config.adminPasswordHash)).toBe(true);
    expect(await verifyPassword('admin', config.adminPasswordHash)).toBe(false);
  });

  it('accepts a ready scrypt hash in ADMIN_PASSWORD_HASH', async () => {
    const hash = await hashPassword('from-a-hash');
    const config = await loadConfig({
      DATA_DIR: 'memory',
      ADMIN_PASSWORD_HASH: hash,
      ADMIN_PASSWORD: 'ignored',
    });
    expect(config.adminPasswordHash).toBe(hash);
    expect(await verifyPassword('from-a-hash', config.adminPasswordHash)).toBe(true);
  });

  it('leaves Discourse off unless URL, key and group id are all set', async () => {
    const partial = await loadConfig({
      DATA_DIR: 'memory',
      DISCOURSE_URL: 'https://forum.example.com',
      DISCOURSE_API_KEY: 'k',
    });
    expect(partial.discourse).toBeNull();
    const full = await loadConfig({
      DATA_DIR: 'memory',
      DISCOURSE_URL: 'https://forum.example.com',
      DISCOURSE_API_KEY: 'k',
      DISCOURSE_GROUP_ID: '3',
      DISCOURSE_API_USERNAME: 'bot',
    });
    expect(full.discourse).toEqual({
      baseUrl: 'https://forum.example.com',
      apiKey: 'k',
      apiUsername: 'bot',
      groupId: 3,
      timeoutMs: 10_000,
    });
  });

  it('generates the JWT secret once into DATA_DIR/jwt-secret (mode 0600) and reuses it', async () => {
    const d = path.join(tempDir(), 'data');
    const a = await loadConfig({ DATA_DIR: d });
    const file = path.join(d, 'jwt-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = await loadConfig({ DATA_DIR: d });
    expect(Buffer.from(b.jwtSecret).equals(Buffer.from(a.jwtSecret))).toBe(true);
    expect(Buffer.from(a.jwtSecret).toString('hex')).toBe(readFileSync(file, 'utf8').trim());
  });
});

describe('loadConfig validation (fails fast, naming the variable)', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT', 'PORT must be a whole number between 0 and 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT', 'PORT must be a whole number between 0 and 65535, got "70000"'],
    [{ PORT: '-1' }, 'PORT', 'PORT must be a whole number between 0 and 65535, got "-1"'],
    [
      { FX_RATES: 'EUR:1.08' },
      'FX_RATES',
      'FX_RATES must look like "EUR=1.08,GBP=1.27"; cannot read "EUR:1.08"',
    ],
    [
      { FX_RATES: 'EUR=0' },
      'FX_RATES',
      'FX_RATES: the rate for EUR must be a positive number, got "0"',
    ],
    [
      { FX_RATES: 'EURO=1.1' },
      'FX_RATES',
      'FX_RATES must look like "EUR=1.08,GBP=1.27"; cannot read "EURO=1.1"',
    ],
    [
      { REPORTING_CURRENCY: 'EUR' },
      'FX_RATES',
      'FX_RATES must be set when REPORTING_CURRENCY is EUR (the defaults convert into USD)',
    ],
    [
      { REPORTING_CURRENCY: 'dollars' },
      'REPORTING_CURRENCY',
      'REPORTING_CURRENCY must be an ISO 4217 code such as USD, got "DOLLARS"',
    ],
    [
      { SESSION_TTL_S: '12h' },
      'SESSION_TTL_S',
      'SESSION_TTL_S must be a whole number between 60 and 2592000, got "12h"',
    ],
    [
      { SEED_CUSTOMERS: 'lots' },
      'SEED_CUSTOMERS',
      'SEED_CUSTOMERS must be a whole number between 0 and 2000000, got "lots"',
    ],
    [{ SEED: '1.5' }, 'SEED', 'SEED must be a whole number between 0 and 4294967295, got "1.5"'],
    [
      { API_PREFIX: 'api/admin' },
      'API_PREFIX',
      'API_PREFIX must be a path such as /api/admin, got "api/admin"',
    ],
    [
      { API_PREFIX: '/admin' },
      'API_PREFIX',
      'API_PREFIX cannot be /admin: the console is served there',
    ],
    [
      { ADMIN_EMAIL: 'admin' },
      'ADMIN_EMAIL',
      'ADMIN_EMAIL must look like an email address, got "admin"',
    ],
    [{ ADMIN_PASSWORD: '' }, 'ADMIN_PASSWORD', 'ADMIN_PASSWORD must not be empty'],
    [
      { ADMIN_PASSWORD_HASH: 'plain' },
      'ADMIN_PASSWORD_HASH',
      "ADMIN_PASSWORD_HASH must be 'scrypt$N$r$p$saltBase64$hashBase64' (see server/auth/password.ts)",
    ],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET', 'JWT_SECRET must be at least 32 characters long'],
    [
      { DISCOURSE_URL: 'forum.example.com' },
      'DISCOURSE_URL',
      'DISCOURSE_URL must be an http(s) URL, got "forum.example.com"',
    ],
    [
      { DISCOURSE_GROUP_ID: 'staff' },
      'DISCOURSE_GROUP_ID',
      'DISCOURSE_GROUP_ID must be a whole number between 1 and 9007199254740991, got "staff"',
    ],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY', 'TRUST_PROXY must be true or false, got "maybe"'],
    [
      { SITE_URL: 'mg.example.org' },
      'SITE_URL',
      'SITE_URL must be an http(s) URL, got "mg.example.org"',
    ],
    [
      { FORUM_URL: 'javascript:alert(1)' },
      'FORUM_URL',
      'FORUM_URL must be an http(s) URL, got "javascript:alert(1)"',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL',
      'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "loud"',
    ],
    [
      { LEMONSQUEEZY_API_URL: 'ftp://x' },
      'LEMONSQUEEZY_API_URL',
      'LEMONSQUEEZY_API_URL must be an http(s) URL, got "ftp://x"',
    ],
    [
      { CLICKBANK_API_URL: 'nope' },
      'CLICKBANK_API_URL',
      'CLICKBANK_API_URL must be an http(s) URL, got "nope"',
    ],
    [
      { STATS_CACHE_S: '-1' },
      'STATS_CACHE_S',
      'STATS_CACHE_S must be a whole number between 0 and 3600, got "-1"',
    ],
    [
      { LOG_RETENTION_DAYS: '0' },
      'LOG_RETENTION_DAYS',
      'LOG_RETENTION_DAYS must be a whole number between 1 and 3650, got "0"',
    ],
  ])('%j → ConfigError(%s)', async (env, variable, message) => {
    expect(await failure(env)).toEqual({ variable, message });
  });

  it('rejects a corrupted jwt-secret file', async () => {
    const d = tempDir();
    writeFileSync(path.join(d, 'jwt-secret'), 'not hex', { mode: 0o600 });
    await expect(loadConfig({ DATA_DIR: d })).rejects.toThrow(
      /jwt-secret is not a 64-character hex secret/,
    );
  });
});

describe('parseFxRates', () => {
  it('always includes the reporting currency at rate 1 and upper-cases codes', () => {
    expect(parseFxRates('eur=1.08,gbp=1.27,', 'USD')).toEqual({ USD: 1, EUR: 1.08, GBP: 1.27 });
    expect(parseFxRates('', 'USD')).toEqual({ USD: 1 });
    expect(() => parseFxRates('USD=2', 'USD')).toThrow(ConfigError);
  });
});

describe('command-line flags', () => {
  it('maps --seed-customers, --seed and --port to their variables', () => {
    expect(argvOverrides(['--seed-customers', '100000', '--seed=9', '--port', '0'])).toEqual({
      SEED_CUSTOMERS: '100000',
      SEED: '9',
      PORT: '0',
    });
    expect(() => argvOverrides(['--verbose'])).toThrow(/Unknown argument "--verbose"/);
    expect(() => argvOverrides(['--seed'])).toThrow(/needs a value/);
  });
});
