/**
 * What every route of the reference server is handed: the database, the configuration, the
 * logger and the clock. Routes never read process.env or the wall clock directly, so tests can
 * run them against an in-memory database at a fixed time.
 */
import type { Db } from './db/types';
import type { StatementTimeouts } from './db/workload';
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
  /** LemonSqueezy store whose subscriptions reconciliation lists (LEMONSQUEEZY_STORE_ID); null = not configured. */
  lemonSqueezyStoreId?: string | null;
  /** LemonSqueezy API base URL (LEMONSQUEEZY_API_URL, default https://api.lemonsqueezy.com; no trailing slash). */
  lemonSqueezyApiUrl?: string;
  /** ClickBank API base URL (CLICKBANK_API_URL, default https://api.clickbank.com; no trailing slash). */
  clickbankApiUrl?: string;
  /** ClickBank Instant Notification secret key (CLICKBANK_SECRET_KEY); never sent anywhere, never logged. */
  clickbankSecretKey?: string | null;
  /**
   * Signing secret of POST /webhooks/lemonsqueezy (LEMONSQUEEZY_WEBHOOK_SECRET; when unset, a random
   * secret generated once into DATA_DIR/lemonsqueezy-webhook-secret, or kept in memory for
   * DATA_DIR=memory). Absent here (other callers' configs) = a random per-process secret.
   * Never logged.
   */
  lemonSqueezyWebhookSecret?: string;
  /**
   * The INS secret key POST /webhooks/clickbank decrypts with when CLICKBANK_SECRET_KEY is unset: a
   * random 16-character key generated once into DATA_DIR/clickbank-secret-key (in memory for
   * DATA_DIR=memory), so the demo sender works out of the box. The pings ignore it (they test the
   * configured account key only). Never logged.
   */
  clickbankGeneratedSecretKey?: string;
  /** Time-out of each maintenance ping in ms (default 10 000; not an environment variable, tests shorten it). */
  pingTimeoutMs?: number;
  /**
   * Interface to listen on (HOST, default '127.0.0.1'). On a non-loopback address the server
   * refuses to start in demo mode or with a weak password.
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
  /** Audit rows are kept this many days (AUDIT_RETENTION_DAYS, 30–3650, default 400); never fewer than 30. */
  auditRetentionDays?: number;
  /** At most this many log rows are kept, the oldest deleted first (LOG_MAX_ROWS, default 1 000 000). */
  logMaxRows?: number;
  /** WEBHOOK_RETENTION_DAYS: webhook inbox rows older than this many days are deleted (default 90). */
  webhookRetentionDays?: number;
  /** WEBHOOK_MAX_ROWS: at most this many webhook inbox rows are kept (default 1 000 000). */
  webhookMaxRows?: number;
  /**
   * GET /stats and /status are reused for at most this many seconds when nothing changed
   * (STATS_CACHE_S, default 15 — server/stats/cache.ts DEFAULT_STATS_CACHE_S; 0 = computed on every request).
   */
  statsCacheS?: number;
  /** Live event stream heartbeat and session re-check interval in ms (STREAM_HEARTBEAT_S × 1000, default 15 000). */
  streamHeartbeatMs?: number;
  /** Open event streams allowed per session (STREAM_MAX_PER_SESSION, default 5). */
  streamMaxPerSession?: number;
  /** Open event streams allowed per server instance (STREAM_MAX_TOTAL, default 200). */
  streamMaxTotal?: number;
  /**
   * Forum outbox: OUTBOX_MAX_ATTEMPTS (default 12) counted attempts before a job fails,
   * OUTBOX_POLL_MS (default 5000) the worker's fallback poll, OUTBOX_WAIT_MS (default 2000) how
   * long an action waits for its forum job before answering `discourse:{queued:true,…}`.
   */
  outbox?: { maxAttempts?: number; pollMs?: number; waitMs?: number };
  /** Seconds between scheduled expiration runs (EXPIRATION_INTERVAL_S, default 300; 0 = off). */
  expirationIntervalS?: number;
  /** Seconds between scheduled reconciliation runs with the providers (RECONCILE_INTERVAL_S, default 3600; 0 = off). */
  reconcileIntervalS?: number;
  /** Days of ClickBank orders a reconciliation reads, ending today (RECONCILE_CLICKBANK_DAYS, default 30). */
  reconcileClickbankDays?: number;
  /**
   * PostgreSQL to run on instead of the embedded PGlite in DATA_DIR (DATABASE_URL, a postgres:// or
   * postgresql:// URL; default null = PGlite). Holds the password: never log it (see redactDatabaseUrl).
   */
  databaseUrl?: string | null;
  /** Most connections of the PostgreSQL pool (DATABASE_POOL_MAX, default 10; 2–1000). */
  databasePoolMax?: number;
  /**
   * A streaming read replica of DATABASE_URL for reads that may lag (DATABASE_REPLICA_URL; default
   * null = every read on the primary). Holds a password: never log it.
   */
  databaseReplicaUrl?: string | null;
  /**
   * PostgreSQL statement time-outs in ms per workload (server/db/workload.ts; 0 = none):
   * DATABASE_REQUEST_TIMEOUT_MS 5 000, DATABASE_METRICS_TIMEOUT_MS 30 000,
   * DATABASE_JOB_TIMEOUT_MS 600 000. Absent = those defaults.
   */
  databaseStatementTimeouts?: StatementTimeouts;
  /** PostgreSQL idle_in_transaction_session_timeout in ms (DATABASE_IDLE_TX_TIMEOUT_MS, default 60 000; 0 = none). */
  databaseIdleInTransactionTimeoutMs?: number;
}

/** Dependencies handed to every route factory. */
export interface AppDeps {
  /** The primary database: every write, and every read that must see the caller's own writes. */
  db: Db;
  /**
   * Where reads that may lag go (DATABASE_REPLICA_URL's replica): metrics, ISR, revenue and
   * cohorts, /stats, the Users, Subscriptions, Logs and webhook-delivery lists, search. Absent =
   * `db`. Read it through readDbOf.
   */
  readDb?: Db;
  config: ServerConfig;
  log: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
}

/** The Db for reads that may lag behind the primary: the read replica when one is set, else `db`. */
export function readDbOf(deps: Pick<AppDeps, 'db' | 'readDb'>): Db {
  return deps.readDb ?? deps.db;
}
