/**
 * Reads the server configuration from the environment once at start-up. Every variable has a
 * documented default; an invalid value fails fast with a ConfigError naming the variable.
 * The admin password is hashed here (scrypt) and only the hash is kept.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { hashPassword, isStrongPasswordHash, parsePasswordHash } from './auth/password';
import { passwordProblem } from './auth/passwordPolicy';
import type { DiscourseConfig, ServerConfig } from './context';
import { DEFAULT_STATS_CACHE_S } from './stats/cache';
import { DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUTS } from './db/workload';

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    /** The environment variable at fault, e.g. 'PORT'. */
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Default fixed FX rates into USD (1 EUR = 1.08 USD, 1 GBP = 1.27 USD). */
export const DEFAULT_FX_RATES = 'EUR=1.08,GBP=1.27';
/** Name of the file under DATA_DIR that keeps the generated JWT secret (mode 0600). */
export const JWT_SECRET_FILE = 'jwt-secret';

function text(env: Env, name: string): string | null {
  const value = env[name];
  if (value == null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw == null) return fallback;
  if (!/^\d+$/.test(raw)) {
    throw new ConfigError(
      name,
      `${name} must be a whole number between ${min} and ${max}, got "${raw}"`,
    );
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(
      name,
      `${name} must be a whole number between ${min} and ${max}, got "${raw}"`,
    );
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw == null) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `${name} must be true or false, got "${raw}"`);
}

/** The demo password of demo mode (no ADMIN_PASSWORD / ADMIN_PASSWORD_HASH set). */
export const DEMO_PASSWORD = 'admin';
/** Shortest ADMIN_PASSWORD accepted on a non-loopback HOST. */
export const MIN_EXPOSED_PASSWORD_LENGTH = 12;
/** Default HSTS max-age (s) outside loopback: 180 days. */
export const DEFAULT_HSTS_MAX_AGE = 15_552_000;

/** True for an interface only this machine can reach: 127.0.0.0/8, ::1, 'localhost'. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped?.[1] != null && mapped[1].startsWith('127.');
}

function hostSetting(env: Env): string {
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(bare)) {
    throw new ConfigError('HOST', `HOST must be an IP address or a host name, got "${host}"`);
  }
  return bare;
}

/**
 * Parses 'EUR=1.08,GBP=1.27' into {EUR: 1.08, GBP: 1.27} (units of the reporting currency per
 * unit of the key). Throws ConfigError('FX_RATES') on a malformed pair, a non-ISO code or a
 * rate that is not a positive finite number.
 */
export function parseFxRates(raw: string, reportingCurrency: string): Record<string, number> {
  const rates: Record<string, number> = { [reportingCurrency]: 1 };
  for (const part of raw.split(',')) {
    const pair = part.trim();
    if (!pair) continue;
    const m = /^([A-Za-z]{3})\s*=\s*([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)$/.exec(pair);
    if (!m) {
      throw new ConfigError(
        'FX_RATES',
        `FX_RATES must look like "EUR=1.08,GBP=1.27"; cannot read "${pair}"`,
      );
    }
    const code = (m[1] ?? '').toUpperCase();
    const rate = Number(m[2]);
    if (!Number.isFinite(rate) || rate <= 0) {
      throw new ConfigError(
        'FX_RATES',
        `FX_RATES: the rate for ${code} must be a positive number, got "${m[2]}"`,
      );
    }
    if (code === reportingCurrency && rate !== 1) {
      throw new ConfigError(
        'FX_RATES',
        `FX_RATES: the reporting currency ${code} must have rate 1, got ${rate}`,
      );
    }
    rates[code] = rate;
  }
  return rates;
}

function apiPrefix(env: Env): string {
  const raw = text(env, 'API_PREFIX') ?? '/api/admin';
  const prefix = raw.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) {
    throw new ConfigError(
      'API_PREFIX',
      `API_PREFIX must be a path such as /api/admin, got "${raw}"`,
    );
  }
  if (prefix === '/admin') {
    throw new ConfigError('API_PREFIX', 'API_PREFIX cannot be /admin: the console is served there');
  }
  return prefix;
}

/** An optional absolute http(s) URL setting (trimmed), or null when unset; anything else is a ConfigError. */
function httpUrl(env: Env, name: string): string | null {
  const url = text(env, name);
  if (url == null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new ConfigError(name, `${name} must be an http(s) URL, got "${url}"`);
  }
  return url;
}

function discourse(env: Env): DiscourseConfig | null {
  const url = httpUrl(env, 'DISCOURSE_URL');
  const apiKey = text(env, 'DISCOURSE_API_KEY');
  const groupRaw = text(env, 'DISCOURSE_GROUP_ID');
  const timeoutMs = integer(env, 'DISCOURSE_TIMEOUT_MS', 10_000, 100, 120_000);
  const groupId =
    groupRaw == null ? null : integer(env, 'DISCOURSE_GROUP_ID', 0, 1, Number.MAX_SAFE_INTEGER);
  if (url == null || apiKey == null || groupId == null) return null;
  return {
    baseUrl: url.replace(/\/+$/, ''),
    apiKey,
    apiUsername: text(env, 'DISCOURSE_API_USERNAME') ?? 'system',
    groupId,
    timeoutMs,
  };
}

/**
 * Creates DATA_DIR with mode 0700; an existing folder that group or others can
 * read or enter is tightened to 0700, with a warning naming the old mode.
 */
export async function ensurePrivateDataDir(
  dataDir: string,
  warn: (message: string) => void,
): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const info = await stat(dataDir);
  if ((info.mode & 0o077) !== 0) {
    await chmod(dataDir, 0o700);
    warn(
      `DATA_DIR ${dataDir} was open to group or others (mode ${(info.mode & 0o777).toString(8)}); tightened to 700`,
    );
  }
}

/**
 * Makes everything inside DATA_DIR private to the server's user: files 0600, folders 0700
 * (symbolic links are left alone). PGlite unpacks its initial cluster with files open to everyone
 * (0666) and rewrites its relation cache files 0644 at every start, so startServer runs this once
 * the database is open; files PostgreSQL creates later are 0600 already. → the number of entries
 * tightened.
 */
export async function restrictDataDirContents(dataDir: string): Promise<number> {
  let tightened = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      const mode = (await lstat(full)).mode & 0o777;
      const want = entry.isDirectory() ? 0o700 : 0o600;
      if ((mode & 0o077) !== 0) {
        await chmod(full, mode & want);
        tightened++;
      }
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(dataDir);
  return tightened;
}

async function jwtSecret(
  env: Env,
  dataDir: string,
  warn: (message: string) => void,
): Promise<Uint8Array> {
  const given = env.JWT_SECRET;
  if (given != null && given !== '') {
    const bytes = new TextEncoder().encode(given);
    if (bytes.length < 32) {
      throw new ConfigError('JWT_SECRET', 'JWT_SECRET must be at least 32 characters long');
    }
    return bytes;
  }
  if (dataDir === 'memory') return new Uint8Array(randomBytes(32));
  const file = path.join(dataDir, JWT_SECRET_FILE);
  await ensurePrivateDataDir(dataDir, warn);
  try {
    // 'wx': create only if absent, so two processes starting together keep one secret.
    await writeFile(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const info = await stat(file);
  if ((info.mode & 0o077) !== 0) {
    // Fixed, not refused: the secret is ours (generated here); say so.
    await chmod(file, 0o600);
    warn(
      `${file} was readable by group or others (mode ${(info.mode & 0o777).toString(8)}); tightened to 600`,
    );
  }
  const stored = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{64}$/i.test(stored)) {
    throw new ConfigError(
      'JWT_SECRET',
      `${file} is not a 64-character hex secret; delete it to generate a new one`,
    );
  }
  return new Uint8Array(Buffer.from(stored, 'hex'));
}

/** Name of the file under DATA_DIR that keeps the generated LemonSqueezy webhook signing secret (mode 0600). */
export const LEMONSQUEEZY_WEBHOOK_SECRET_FILE = 'lemonsqueezy-webhook-secret';
/** Name of the file under DATA_DIR that keeps the generated ClickBank INS secret key (mode 0600). */
export const CLICKBANK_SECRET_KEY_FILE = 'clickbank-secret-key';

/**
 * A webhook secret kept in DATA_DIR/`file`: created once with `generate()` (mode 0600, 'wx' so two
 * processes starting together keep one), then read back → the trimmed secret. For
 * DATA_DIR=memory → a fresh `generate()` kept in memory only. ConfigError(`variable`) when the file
 * holds something that does not match `valid`.
 */
async function generatedSecret(
  dataDir: string,
  file: string,
  variable: string,
  generate: () => string,
  valid: RegExp,
): Promise<string> {
  if (dataDir === 'memory') return generate();
  const full = path.join(dataDir, file);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(full, generate() + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stored = (await readFile(full, 'utf8')).trim();
  if (!valid.test(stored)) {
    throw new ConfigError(
      variable,
      `${full} does not hold a usable secret; set ${variable} or delete the file to generate a new one`,
    );
  }
  return stored;
}

/** A random ClickBank-style secret key: 16 characters of A-Z and 0-9 (ClickBank's own format). */
function randomClickbankKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Builds the ServerConfig from environment variables (docs/configuration.md lists them): PORT 8080, DATA_DIR './.data' or 'memory', API_PREFIX '/api/admin', STATIC_DIR 'dist',
 * ADMIN_EMAIL/ADMIN_PASSWORD (or ADMIN_PASSWORD_HASH), JWT_SECRET (else generated into
 * DATA_DIR/jwt-secret), SESSION_TTL_S 43200, REPORTING_CURRENCY USD, FX_RATES, SEED_CUSTOMERS 3000,
 * SEED 42, DISCOURSE_*, provider keys, LOGIN_RATE_MAX 10, LOGIN_RATE_WINDOW_S 900, TRUST_PROXY,
 * LOG_LEVEL, SITE_URL and FORUM_URL (the product's own sites linked from the console's header;
 * optional http(s) URLs), LEMONSQUEEZY_API_URL, CLICKBANK_API_URL, CLICKBANK_SECRET_KEY,
 * LOG_RETENTION_DAYS 30, LOG_MAX_ROWS 1 000 000, WEBHOOK_RETENTION_DAYS 90, WEBHOOK_MAX_ROWS 1 000 000,
 * DATABASE_URL (PostgreSQL instead of PGlite),
 * DATABASE_POOL_MAX 10, DATABASE_REPLICA_URL (reads that may lag; needs DATABASE_URL),
 * DATABASE_REQUEST_TIMEOUT_MS 5000, DATABASE_METRICS_TIMEOUT_MS 30000,
 * DATABASE_JOB_TIMEOUT_MS 600000, DATABASE_IDLE_TX_TIMEOUT_MS 60000 (0 = none),
 * STATS_CACHE_S 15 (0 = no cache), LEMONSQUEEZY_WEBHOOK_SECRET (else generated into
 * DATA_DIR/lemonsqueezy-webhook-secret; CLICKBANK_SECRET_KEY unset → DATA_DIR/clickbank-secret-key).
 * STREAM_HEARTBEAT_S 15, STREAM_MAX_PER_SESSION 5, STREAM_MAX_TOTAL 200.
 * OUTBOX_MAX_ATTEMPTS 12, OUTBOX_POLL_MS 5000, OUTBOX_WAIT_MS 2000, EXPIRATION_INTERVAL_S 300 (0 = no
 * scheduled expiration), LEMONSQUEEZY_STORE_ID, RECONCILE_INTERVAL_S 3600 (0 = no scheduled
 * reconciliation), RECONCILE_CLICKBANK_DAYS 30.
 * HOST 127.0.0.1, SESSION_IDLE_S 1800,
 * COOKIE_SECURE and HSTS_MAX_AGE (off on loopback, on / 15552000 elsewhere), TRUSTED_PROXY_HOPS 0
 * (TRUST_PROXY=true → 1), LOGIN_ACCOUNT_RATE_MAX 3 × LOGIN_RATE_MAX, LOGIN_HASH_CONCURRENCY 2.
 * Demo mode = neither ADMIN_PASSWORD nor ADMIN_PASSWORD_HASH set (password 'admin', SEED_CUSTOMERS
 * default 3000; otherwise 0), allowed only on a loopback HOST. On a non-loopback HOST it rejects
 * demo mode, the password 'admin' and passwords under 12 characters (ConfigError 'ADMIN_PASSWORD',
 * saying what to set); it always rejects an ADMIN_PASSWORD_HASH weaker than scrypt N·r = 2^20.
 * DATA_DIR is created 0700 (an open one is tightened, with a `warn`), the jwt-secret file kept
 * 0600. When `env` is process.env, ADMIN_PASSWORD is deleted from it once hashed. Rejects with
 * ConfigError (naming the variable) on any invalid value.
 */
export async function loadConfig(
  env: Env = process.env,
  warn: (message: string) => void = (message) => console.warn(`Warning: ${message}`),
): Promise<ServerConfig> {
  const port = integer(env, 'PORT', 8080, 0, 65_535);
  const dataDir = text(env, 'DATA_DIR') ?? './.data';
  const staticDir = text(env, 'STATIC_DIR') ?? 'dist';

  const adminEmail = (text(env, 'ADMIN_EMAIL') ?? 'admin@example.com').toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(
      'ADMIN_EMAIL',
      `ADMIN_EMAIL must look like an email address, got "${adminEmail}"`,
    );
  }
  const host = hostSetting(env);
  const exposed = !isLoopbackHost(host);
  const givenHash = text(env, 'ADMIN_PASSWORD_HASH');
  const givenPassword = env.ADMIN_PASSWORD;
  // Demo mode: no credentials configured → admin@example.com / 'admin' (unless ADMIN_EMAIL), demo data.
  const demoMode = givenHash == null && givenPassword == null;
  const fix =
    'set ADMIN_PASSWORD to a password of at least 12 characters besides spaces that is not a common password (or ADMIN_PASSWORD_HASH), or listen on loopback with HOST=127.0.0.1';
  if (exposed && demoMode) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      `HOST=${host} is reachable from other machines, and no password is set (demo mode, password "admin"): ${fix}`,
    );
  }
  if (givenHash == null && givenPassword != null) {
    if (givenPassword === '')
      throw new ConfigError('ADMIN_PASSWORD', 'ADMIN_PASSWORD must not be empty');
    // Off loopback the operator password rule applies (server/auth/passwordPolicy.ts): at least
    // 12 characters besides whitespace, not a common password. Twelve spaces, or "admin" padded
    // with spaces, are refused.
    const problem =
      givenPassword === DEMO_PASSWORD
        ? 'the demo password'
        : passwordProblem(givenPassword, adminEmail)?.replace(/\.$/, '');
    if (exposed && problem) {
      throw new ConfigError(
        'ADMIN_PASSWORD',
        `HOST=${host} is reachable from other machines, and ADMIN_PASSWORD is refused (${problem}): ${fix}`,
      );
    }
  }
  if (givenHash != null) {
    if (!parsePasswordHash(givenHash)) {
      throw new ConfigError(
        'ADMIN_PASSWORD_HASH',
        "ADMIN_PASSWORD_HASH must be 'scrypt$N$r$p$saltBase64$hashBase64' (see server/auth/password.ts)",
      );
    }
    if (!isStrongPasswordHash(givenHash)) {
      throw new ConfigError(
        'ADMIN_PASSWORD_HASH',
        'ADMIN_PASSWORD_HASH is too weak: it needs scrypt N·r ≥ 2^20 (e.g. N=131072, r=8), a salt of at least 16 bytes and a key of at least 32 bytes; hash the password again with server/auth/password.ts hashPassword, or set ADMIN_PASSWORD instead',
      );
    }
  }
  const reportingCurrency = (text(env, 'REPORTING_CURRENCY') ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(reportingCurrency)) {
    throw new ConfigError(
      'REPORTING_CURRENCY',
      `REPORTING_CURRENCY must be an ISO 4217 code such as USD, got "${reportingCurrency}"`,
    );
  }
  const fxRaw = text(env, 'FX_RATES');
  if (fxRaw == null && reportingCurrency !== 'USD') {
    throw new ConfigError(
      'FX_RATES',
      `FX_RATES must be set when REPORTING_CURRENCY is ${reportingCurrency} (the defaults convert into USD)`,
    );
  }
  const fxRates = parseFxRates(fxRaw ?? DEFAULT_FX_RATES, reportingCurrency);

  const jwtSecretBytes = await jwtSecret(env, dataDir, warn);
  const config: ServerConfig = {
    port,
    dataDir,
    apiPrefix: apiPrefix(env),
    staticDir,
    adminEmail,
    adminPasswordHash: '', // set below, once everything else is valid (scrypt is slow)
    jwtSecret: jwtSecretBytes,
    sessionTtlS: integer(env, 'SESSION_TTL_S', 12 * 3600, 60, 30 * 24 * 3600),
    sessionIdleS: integer(env, 'SESSION_IDLE_S', 1800, 60, 30 * 24 * 3600),
    host,
    demoMode,
    cookieSecure: boolean(env, 'COOKIE_SECURE', exposed),
    hstsMaxAge: integer(env, 'HSTS_MAX_AGE', exposed ? DEFAULT_HSTS_MAX_AGE : 0, 0, 63_072_000),
    reportingCurrency,
    fxRates,
    // Demo data only in demo mode, unless SEED_CUSTOMERS asks for it explicitly.
    seedCustomers: integer(env, 'SEED_CUSTOMERS', demoMode ? 3000 : 0, 0, 2_000_000),
    seedValue: integer(env, 'SEED', 42, 0, 2 ** 32 - 1),
    discourse: discourse(env),
    lemonSqueezyApiKey: text(env, 'LEMONSQUEEZY_API_KEY'),
    clickbankDeveloperKey: text(env, 'CLICKBANK_DEVELOPER_KEY'),
    clickbankClerkKey: text(env, 'CLICKBANK_CLERK_KEY'),
    loginRateLimit: {
      maxAttempts: integer(env, 'LOGIN_RATE_MAX', 10, 1, 10_000),
      windowS: integer(env, 'LOGIN_RATE_WINDOW_S', 900, 1, 86_400),
    },
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    // TRUST_PROXY=true is kept as "one proxy hop"; TRUSTED_PROXY_HOPS wins when set.
    trustedProxyHops: integer(
      env,
      'TRUSTED_PROXY_HOPS',
      boolean(env, 'TRUST_PROXY', false) ? 1 : 0,
      0,
      10,
    ),
    loginAccountRateMax: integer(
      env,
      'LOGIN_ACCOUNT_RATE_MAX',
      3 * integer(env, 'LOGIN_RATE_MAX', 10, 1, 10_000),
      1,
      100_000,
    ),
    loginHashConcurrency: integer(env, 'LOGIN_HASH_CONCURRENCY', 2, 1, 64),
    logLevel: logLevel(env),
    siteUrl: httpUrl(env, 'SITE_URL'),
    forumUrl: httpUrl(env, 'FORUM_URL'),
    lemonSqueezyStoreId: storeId(env),
    lemonSqueezyApiUrl: baseUrl(env, 'LEMONSQUEEZY_API_URL', 'https://api.lemonsqueezy.com'),
    clickbankApiUrl: baseUrl(env, 'CLICKBANK_API_URL', 'https://api.clickbank.com'),
    clickbankSecretKey: text(env, 'CLICKBANK_SECRET_KEY'),
    lemonSqueezyWebhookSecret:
      text(env, 'LEMONSQUEEZY_WEBHOOK_SECRET') ??
      (await generatedSecret(
        dataDir,
        LEMONSQUEEZY_WEBHOOK_SECRET_FILE,
        'LEMONSQUEEZY_WEBHOOK_SECRET',
        () => randomBytes(32).toString('hex'),
        /^\S{16,}$/,
      )),
    clickbankGeneratedSecretKey:
      text(env, 'CLICKBANK_SECRET_KEY') == null
        ? await generatedSecret(
            dataDir,
            CLICKBANK_SECRET_KEY_FILE,
            'CLICKBANK_SECRET_KEY',
            randomClickbankKey,
            /^\S{8,}$/,
          )
        : undefined,
    logRetentionDays: integer(env, 'LOG_RETENTION_DAYS', 30, 1, 3650),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 400, 30, 3650),
    logMaxRows: integer(env, 'LOG_MAX_ROWS', 1_000_000, 1000, 100_000_000),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 90, 1, 3650),
    webhookMaxRows: integer(env, 'WEBHOOK_MAX_ROWS', 1_000_000, 1000, 100_000_000),
    statsCacheS: integer(env, 'STATS_CACHE_S', DEFAULT_STATS_CACHE_S, 0, 3600),
    streamHeartbeatMs: integer(env, 'STREAM_HEARTBEAT_S', 15, 1, 300) * 1000,
    streamMaxPerSession: integer(env, 'STREAM_MAX_PER_SESSION', 5, 1, 100),
    streamMaxTotal: integer(env, 'STREAM_MAX_TOTAL', 200, 1, 100_000),
    // Forum outbox and expiration scheduler.
    outbox: {
      maxAttempts: integer(env, 'OUTBOX_MAX_ATTEMPTS', 12, 1, 1000),
      pollMs: integer(env, 'OUTBOX_POLL_MS', 5000, 100, 3_600_000),
      waitMs: integer(env, 'OUTBOX_WAIT_MS', 2000, 0, 30_000),
    },
    expirationIntervalS: integer(env, 'EXPIRATION_INTERVAL_S', 300, 0, 7 * 86_400),
    reconcileIntervalS: integer(env, 'RECONCILE_INTERVAL_S', 3600, 0, 7 * 86_400),
    reconcileClickbankDays: integer(env, 'RECONCILE_CLICKBANK_DAYS', 30, 1, 365),
    databaseUrl: postgresUrl(env, 'DATABASE_URL'),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 2, 1000),
    databaseReplicaUrl: replicaUrl(env),
    databaseStatementTimeouts: {
      requestMs: integer(
        env,
        'DATABASE_REQUEST_TIMEOUT_MS',
        DEFAULT_STATEMENT_TIMEOUTS.requestMs,
        0,
        MAX_TIMEOUT_MS,
      ),
      metricsMs: integer(
        env,
        'DATABASE_METRICS_TIMEOUT_MS',
        DEFAULT_STATEMENT_TIMEOUTS.metricsMs,
        0,
        MAX_TIMEOUT_MS,
      ),
      jobMs: integer(
        env,
        'DATABASE_JOB_TIMEOUT_MS',
        DEFAULT_STATEMENT_TIMEOUTS.jobMs,
        0,
        MAX_TIMEOUT_MS,
      ),
    },
    databaseIdleInTransactionTimeoutMs: integer(
      env,
      'DATABASE_IDLE_TX_TIMEOUT_MS',
      DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      0,
      MAX_TIMEOUT_MS,
    ),
  };
  if (givenHash != null) {
    config.adminPasswordHash = givenHash;
  } else {
    // The salt is derived from the JWT secret, so a restart with the same password yields the
    // same hash and the sessions survive it; another password (or secret) ends them all.
    const salt = createHmac('sha256', jwtSecretBytes)
      .update('mg-admin-password-salt')
      .digest()
      .subarray(0, 16);
    config.adminPasswordHash = await hashPassword(givenPassword ?? DEMO_PASSWORD, { salt });
    // Only the hash is kept.
    if (env === process.env) delete process.env.ADMIN_PASSWORD;
  }

  return config;
}

/** Longest database time-out setting in ms: a day. */
const MAX_TIMEOUT_MS = 86_400_000;

/**
 * `name` (DATABASE_URL, DATABASE_REPLICA_URL): a postgres:// or postgresql:// URL, or null when
 * unset. The ConfigError for a bad value never repeats the value (it may hold a password).
 */
function postgresUrl(env: Env, name: string): string | null {
  const raw = text(env, name);
  if (raw == null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    throw new ConfigError(
      name,
      `${name} must be a PostgreSQL URL such as postgres://user:password@host:5432/dbname`,
    );
  }
  return raw;
}

/** DATABASE_REPLICA_URL: a PostgreSQL URL, only together with DATABASE_URL; null when unset. */
function replicaUrl(env: Env): string | null {
  const url = postgresUrl(env, 'DATABASE_REPLICA_URL');
  if (url != null && text(env, 'DATABASE_URL') == null) {
    throw new ConfigError(
      'DATABASE_REPLICA_URL',
      'DATABASE_REPLICA_URL needs DATABASE_URL: a read replica serves a PostgreSQL primary, not the embedded database',
    );
  }
  return url;
}

/** `url` with its password replaced by '***', for logs and messages ('' stays ''). */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

/** LEMONSQUEEZY_STORE_ID: the store's numeric id (as its API spells it), or null when unset. */
function storeId(env: Env): string | null {
  const raw = text(env, 'LEMONSQUEEZY_STORE_ID');
  if (raw == null) return null;
  if (!/^\d{1,20}$/.test(raw)) {
    throw new ConfigError(
      'LEMONSQUEEZY_STORE_ID',
      `LEMONSQUEEZY_STORE_ID must be the store's numeric id, got "${raw.slice(0, 40)}"`,
    );
  }
  return raw;
}

/** An http(s) base URL from `name` (default `fallback`), without trailing slashes; ConfigError otherwise. */
function baseUrl(env: Env, name: string, fallback: string): string {
  const raw = text(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `${name} must be an http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(name, `${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function logLevel(env: Env): string {
  const level = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].includes(level)) {
    throw new ConfigError(
      'LOG_LEVEL',
      `LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "${level}"`,
    );
  }
  return level;
}
