/**
 * Reads the server configuration from the environment once at start-up. Every variable has a
 * documented default; an invalid value fails fast with a ConfigError naming the variable.
 * The admin password is hashed here (scrypt) and only the hash is kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashPassword, parsePasswordHash } from './auth/password';
import type { DiscourseConfig, ServerConfig } from './context';

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

async function jwtSecret(env: Env, dataDir: string): Promise<Uint8Array> {
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
  await mkdir(dataDir, { recursive: true });
  try {
    // 'wx': create only if absent, so two processes starting together keep one secret.
    await writeFile(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
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

/**
 * Builds the ServerConfig from environment variables (brief item 1; defaults in the report's env
 * table): PORT 8080, DATA_DIR './.data' or 'memory', API_PREFIX '/api/admin', STATIC_DIR 'dist',
 * ADMIN_EMAIL/ADMIN_PASSWORD (or ADMIN_PASSWORD_HASH), JWT_SECRET (else generated into
 * DATA_DIR/jwt-secret), SESSION_TTL_S 43200, REPORTING_CURRENCY USD, FX_RATES, SEED_CUSTOMERS 3000,
 * SEED 42, DISCOURSE_*, provider keys, LOGIN_RATE_MAX 10, LOGIN_RATE_WINDOW_S 900, TRUST_PROXY,
 * LOG_LEVEL, SITE_URL and FORUM_URL (the product's own sites linked from the console's header;
 * optional http(s) URLs), LEMONSQUEEZY_API_URL, CLICKBANK_API_URL, CLICKBANK_SECRET_KEY,
 * LOG_RETENTION_DAYS 30, LOG_MAX_ROWS 1 000 000, DATABASE_URL (PostgreSQL instead of PGlite),
 * DATABASE_POOL_MAX 10. Rejects with ConfigError (naming the variable)
 * on any invalid value.
 */
export async function loadConfig(env: Env = process.env): Promise<ServerConfig> {
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
  const givenHash = text(env, 'ADMIN_PASSWORD_HASH');
  let adminPasswordHash: string;
  if (givenHash != null) {
    if (!parsePasswordHash(givenHash)) {
      throw new ConfigError(
        'ADMIN_PASSWORD_HASH',
        "ADMIN_PASSWORD_HASH must be 'scrypt$N$r$p$saltBase64$hashBase64' (see server/auth/password.ts)",
      );
    }
    adminPasswordHash = givenHash;
  } else {
    const password = env.ADMIN_PASSWORD ?? 'admin';
    if (password === '')
      throw new ConfigError('ADMIN_PASSWORD', 'ADMIN_PASSWORD must not be empty');
    adminPasswordHash = await hashPassword(password);
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

  return {
    port,
    dataDir,
    apiPrefix: apiPrefix(env),
    staticDir,
    adminEmail,
    adminPasswordHash,
    jwtSecret: await jwtSecret(env, dataDir),
    sessionTtlS: integer(env, 'SESSION_TTL_S', 12 * 3600, 60, 30 * 24 * 3600),
    reportingCurrency,
    fxRates,
    seedCustomers: integer(env, 'SEED_CUSTOMERS', 3000, 0, 2_000_000),
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
    logLevel: logLevel(env),
    siteUrl: httpUrl(env, 'SITE_URL'),
    forumUrl: httpUrl(env, 'FORUM_URL'),
    lemonSqueezyApiUrl: baseUrl(env, 'LEMONSQUEEZY_API_URL', 'https://api.lemonsqueezy.com'),
    clickbankApiUrl: baseUrl(env, 'CLICKBANK_API_URL', 'https://api.clickbank.com'),
    clickbankSecretKey: text(env, 'CLICKBANK_SECRET_KEY'),
    logRetentionDays: integer(env, 'LOG_RETENTION_DAYS', 30, 1, 3650),
    logMaxRows: integer(env, 'LOG_MAX_ROWS', 1_000_000, 1000, 100_000_000),
    databaseUrl: databaseUrl(env),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 2, 1000),
  };
}

/**
 * DATABASE_URL (issue 10 item 6): a postgres:// or postgresql:// URL, or null when unset. The
 * ConfigError for a bad value never repeats the value (it may hold a password).
 */
function databaseUrl(env: Env): string | null {
  const raw = text(env, 'DATABASE_URL');
  if (raw == null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    throw new ConfigError(
      'DATABASE_URL',
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/dbname',
    );
  }
  return raw;
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
