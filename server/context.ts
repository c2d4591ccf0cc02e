/**
 * What every route of the reference server is handed: the database, the configuration, the
 * logger and the clock. Routes never read process.env or the wall clock directly, so tests can
 * run them against an in-memory database at a fixed time.
 */
import type { Db } from './db/types';
import type { Logger } from 'pino';

/** Discourse (the forum) settings; absent = "Discourse not configured". */
export interface DiscourseConfig {
  /** Base URL, e.g. https://forum.example.com (no trailing slash). */
  baseUrl: string;
  apiKey: string;
  apiUsername: string;
  /** The group that grants access. */
  groupId: number;
  /** Per-call time-out in ms (default 10 000). */
  timeoutMs: number;
}

/** Server configuration, read from the environment once at start-up (see README). */
export interface ServerConfig {
  port: number;
  /** Folder of the embedded database and the generated JWT secret; 'memory' = in-memory. */
  dataDir: string;
  /** API prefix the console calls, default '/api/admin'. */
  apiPrefix: string;
  /** Folder of the built console served under /admin (default 'dist'). */
  staticDir: string;
  adminEmail: string;
  /** scrypt hash of the admin password ('scrypt$N$r$p$saltB64$hashB64'); the plain password is never kept. */
  adminPasswordHash: string;
  /** HS256 secret for session JWTs. */
  jwtSecret: Uint8Array;
  /** Session lifetime in seconds. */
  sessionTtlS: number;
  /** Reporting currency of /stats and the fixed conversion rates into it (1 unit of key = rate units). */
  reportingCurrency: string;
  fxRates: Record<string, number>;
  /** Demo seed: how many customers and the PRNG seed. */
  seedCustomers: number;
  seedValue: number;
  discourse: DiscourseConfig | null;
  /** LemonSqueezy API key, when set POST /subscriptions/refresh re-reads from the provider. */
  lemonSqueezyApiKey: string | null;
  /** ClickBank developer and clerk keys, for pings and order refresh. */
  clickbankDeveloperKey: string | null;
  clickbankClerkKey: string | null;
  /** Failed sign-ins allowed per client address within the window (default 10 per 900 s). */
  loginRateLimit?: { maxAttempts: number; windowS: number };
  /** Trust the first X-Forwarded-For address as the client (behind a reverse proxy); default false. */
  trustProxy?: boolean;
  /** pino level for the process logger (default 'info'). */
  logLevel?: string;
  /**
   * The product's own website and forum (SITE_URL, FORUM_URL): absolute http(s) URLs handed to the
   * console through /admin/config.js for its header links; null or absent = no such link.
   */
  siteUrl?: string | null;
  forumUrl?: string | null;
  /** LemonSqueezy API base URL (LEMONSQUEEZY_API_URL, default https://api.lemonsqueezy.com; no trailing slash). */
  lemonSqueezyApiUrl?: string;
  /** ClickBank API base URL (CLICKBANK_API_URL, default https://api.clickbank.com; no trailing slash). */
  clickbankApiUrl?: string;
  /** ClickBank Instant Notification secret key (CLICKBANK_SECRET_KEY); never sent anywhere, never logged. */
  clickbankSecretKey?: string | null;
  /** Time-out of each maintenance ping in ms (default 10 000; not an environment variable, tests shorten it). */
  pingTimeoutMs?: number;
  /** Log rows older than this many days are deleted (LOG_RETENTION_DAYS, default 30). */
  logRetentionDays?: number;
  /** At most this many log rows are kept, the oldest deleted first (LOG_MAX_ROWS, default 1 000 000). */
  logMaxRows?: number;
  /**
   * PostgreSQL to run on instead of the embedded PGlite in DATA_DIR (DATABASE_URL, a postgres:// or
   * postgresql:// URL; default null = PGlite). Holds the password: never log it (see redactDatabaseUrl).
   */
  databaseUrl?: string | null;
  /** Most connections of the PostgreSQL pool (DATABASE_POOL_MAX, default 10; 2–1000). */
  databasePoolMax?: number;
}

/** Dependencies handed to every route factory. */
export interface AppDeps {
  db: Db;
  config: ServerConfig;
  log: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
}
