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
  /** TRUST_PROXY (legacy): true = one trusted proxy hop (see trustedProxyHops, which wins when set); default false. */
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
  /**
   * Interface to listen on (HOST, default '127.0.0.1'). On a non-loopback address the server
   * refuses to start in demo mode or with a weak password (issue 10 item 1).
   */
  host?: string;
  /**
   * Demo mode (neither ADMIN_PASSWORD nor ADMIN_PASSWORD_HASH set): demo credentials
   * admin@example.com / 'admin', demo data seeded into an empty database, loopback only, and the
   * demo email published to the login form through /admin/config.js. Absent = false.
   */
  demoMode?: boolean;
  /** Idle time-out of a session in seconds (SESSION_IDLE_S, default 1800), on top of sessionTtlS. */
  sessionIdleS?: number;
  /** `Secure` on the session cookie (COOKIE_SECURE; default on outside loopback). Absent = only for https request URLs. */
  cookieSecure?: boolean;
  /** Strict-Transport-Security max-age in seconds (HSTS_MAX_AGE; default 0 = no header on loopback, 15552000 otherwise). Absent = 0. */
  hstsMaxAge?: number;
  /**
   * Reverse proxies in front of the server that append to X-Forwarded-For (TRUSTED_PROXY_HOPS,
   * default 0 = the socket address is the client; TRUST_PROXY=true means 1). Wins over trustProxy.
   */
  trustedProxyHops?: number;
  /** Failed sign-ins allowed per account (email) within the login window (LOGIN_ACCOUNT_RATE_MAX, default 3 × LOGIN_RATE_MAX). */
  loginAccountRateMax?: number;
  /** Password checks (scrypt) run at once at most (LOGIN_HASH_CONCURRENCY, default 2); more wait briefly, then 429. */
  loginHashConcurrency?: number;
  /** Log rows older than this many days are deleted (LOG_RETENTION_DAYS, default 30). */
  logRetentionDays?: number;
  /** At most this many log rows are kept, the oldest deleted first (LOG_MAX_ROWS, default 1 000 000). */
  logMaxRows?: number;
}

/** Dependencies handed to every route factory. */
export interface AppDeps {
  db: Db;
  config: ServerConfig;
  log: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
}
