/**
 * Entry point of the reference server: `node dist-server/main.js [--seed-customers N]
 * [--seed N] [--port N]` once compiled (scripts/build-server.mjs; `npm start`), or
 * `tsx server/main.ts …` from the sources. Loads the configuration, opens the database (DATA_DIR), seeds demo data
 * when the customers table is empty, serves the API and the console, and shuts down cleanly on
 * SIGINT/SIGTERM.
 */
import type { AddressInfo } from 'node:net';
import type { Db } from './db/types';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app';
import { isEntryModule } from './entry';
import {
  ConfigError,
  ensurePrivateDataDir,
  isLoopbackHost,
  loadConfig,
  redactDatabaseUrl,
  restrictDataDirContents,
} from './config';
import type { AppDeps, ServerConfig } from './context';
import { openDatabase, openReadReplica, type OpenDatabaseOptions, type ReadReplica } from './db';
import { withDbWorkload } from './db/workload';
import { createLiveHub } from './live/hub';
import { startLiveEventRetention } from './live/stream';
import { startWebhookInboxRetention } from './webhooks/inbox';
import { createLogger, flushDbLogs, startLogRetention } from './logging';
import { seedDemoData } from './seed';
import { startForumSync } from './outbox/service';
import { startReconcileScheduler } from './reconcile/scheduler';

/** A running server: its base URL (http://localhost:<port>), port, and an idempotent close. */
export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** Stops accepting connections, ends open ones, flushes log writes and closes the database. */
  close: () => Promise<void>;
}

/** Overrides for startServer (tests: a silent logger, a pinned clock, no seeding). */
export interface StartOptions {
  log?: Logger;
  now?: () => Date;
  /** Seed when the customers table is empty (default true; uses config.seedCustomers and seedValue). */
  seed?: boolean;
  /** Interface to listen on (default config.host, else 127.0.0.1). */
  hostname?: string;
}

/** Seeds demo data when the customers table is empty and seedCustomers > 0; logs what it did. */
export async function seedIfEmpty(
  db: Db,
  config: ServerConfig,
  log: Logger,
  now: Date,
): Promise<void> {
  if (config.seedCustomers <= 0) return;
  const res = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
  if ((res.rows[0]?.n ?? 0) > 0) {
    log.info({ customers: res.rows[0]?.n }, 'database already has data; not seeding');
    return;
  }
  log.info(
    { customers: config.seedCustomers, seed: config.seedValue },
    'empty database: seeding demo data',
  );
  let summary: Awaited<ReturnType<typeof seedDemoData>>;
  try {
    summary = await seedDemoData(db, {
      customers: config.seedCustomers,
      seed: config.seedValue,
      now,
    });
  } catch (err) {
    // Another instance over the same PostgreSQL seeded first (the seed waits for it): leave it be.
    const again = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
    if ((again.rows[0]?.n ?? 0) > 0) {
      log.info({ customers: again.rows[0]?.n }, 'another instance seeded the database');
      return;
    }
    throw err;
  }
  log.info(
    summary,
    `seeded ${summary.customers} customers in ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
}

/**
 * Opens the read replica of DATABASE_REPLICA_URL (openReadReplica) and logs it; warns when the URL
 * reaches a server that is not a standby. Rejects with an error naming DATABASE_REPLICA_URL (the
 * URL's password redacted) when the replica cannot be reached.
 */
async function openReplica(
  url: string,
  options: Omit<OpenDatabaseOptions, 'databaseUrl'>,
  log: Logger,
): Promise<Db> {
  let replica: ReadReplica;
  try {
    replica = await openReadReplica(url, options);
  } catch (err) {
    throw new Error(
      `DATABASE_REPLICA_URL: the read replica ${redactDatabaseUrl(url)} cannot be reached: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!replica.standby) {
    log.warn(
      { replica: redactDatabaseUrl(url) },
      'DATABASE_REPLICA_URL reaches a server that is not in recovery (not a standby); lagging reads go there all the same',
    );
  }
  log.info({ replica: redactDatabaseUrl(url) }, 'read replica open');
  return replica.db;
}

/** Thrown by startServer, before anything is opened or listened on, for an unsafe exposure. */
export class UnsafeExposureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeExposureError';
  }
}

/**
 * Refuses demo mode on a non-loopback interface. loadConfig already refuses
 * weak passwords there; this guards callers that build a ServerConfig themselves.
 */
export function assertSafeExposure(config: ServerConfig, host: string): void {
  if (!isLoopbackHost(host) && config.demoMode) {
    throw new UnsafeExposureError(
      `Refusing to listen on ${host} in demo mode (password "admin"): set ADMIN_PASSWORD to a password of at least 12 characters (or ADMIN_PASSWORD_HASH), or use HOST=127.0.0.1`,
    );
  }
}

/**
 * Starts the server for `config`: refuses an unsafe exposure (assertSafeExposure)
 * before opening anything, opens the database at config.dataDir, seeds when empty, listens on
 * options.hostname ?? config.host ?? '127.0.0.1' at config.port (0 = any free port) and resolves
 * once listening. Rejects when the database cannot be opened or the port is taken.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const hostname = options.hostname ?? config.host ?? '127.0.0.1';
  assertSafeExposure(config, hostname);
  const log = options.log ?? createLogger(config.logLevel);
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  // DATA_DIR private (0700) even when JWT_SECRET is given and loadConfig did not touch it.
  if (config.dataDir !== 'memory') {
    await ensurePrivateDataDir(config.dataDir, (message) => log.warn(message));
  }
  const poolOptions = {
    poolMax: config.databasePoolMax,
    onBackgroundError: (message: string, err: Error) => log.warn({ err: err.message }, message),
    statementTimeouts: config.databaseStatementTimeouts,
    idleInTransactionTimeoutMs: config.databaseIdleInTransactionTimeoutMs,
  };
  const db = await openDatabase(config.dataDir, {
    ...poolOptions,
    databaseUrl: config.databaseUrl,
  });
  log.info(
    {
      ...(config.databaseUrl
        ? { database: redactDatabaseUrl(config.databaseUrl), poolMax: config.databasePoolMax ?? 10 }
        : { dataDir: config.dataDir }),
      ms: Math.round(performance.now() - started),
    },
    'database open',
  );
  let readDb: Db | undefined;
  try {
    if (!config.databaseUrl && config.dataDir !== 'memory') {
      await restrictDataDirContents(config.dataDir);
    }
    // The seed (primary only) loads whole tables and builds indexes: no statement time-out.
    if (options.seed !== false) {
      await withDbWorkload('unbounded', () => seedIfEmpty(db, config, log, now()));
    }
    if (config.databaseUrl && config.databaseReplicaUrl) {
      readDb = await openReplica(config.databaseReplicaUrl, poolOptions, log);
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  const deps: AppDeps = { db, config, log, now, ...(readDb ? { readDb } : {}) };
  // One LISTEN live_events per process, feeding every open event stream (started by the first).
  const liveHub = createLiveHub(db, (payload) =>
    log.warn({ payload: payload.slice(0, 200) }, 'ignored a malformed live event'),
  );
  const app = createApp(deps, { liveHub });
  // Log retention (LOG_RETENTION_DAYS, LOG_MAX_ROWS): once now, then every 15 minutes.
  const retention = startLogRetention(deps);
  // Live events are kept a day for Last-Event-ID replay: pruned now, then every 15 minutes.
  const liveRetention = startLiveEventRetention(deps);
  // Webhook inbox retention (WEBHOOK_RETENTION_DAYS, WEBHOOK_MAX_ROWS): now, then every 15 minutes.
  const inboxRetention = startWebhookInboxRetention(deps);

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname }, () => resolve(s));
    s.once('error', reject);
  });
  server.on('error', (err) => log.error({ err }, 'http server error'));
  const port = (server.address() as AddressInfo).port;
  // Forum outbox worker, expiration scheduler (EXPIRATION_INTERVAL_S) and outbox retention.
  const forumSync = await startForumSync(deps);
  // Reconciliation with the providers (RECONCILE_INTERVAL_S), one real run at a time across instances.
  const reconcileSchedule = startReconcileScheduler(deps);

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      retention.stop();
      await retention.ready;
      liveRetention.stop();
      await liveRetention.ready;
      inboxRetention.stop();
      await inboxRetention.ready;
      // Ends every open event stream (a final comment, then end of body) and unlistens.
      await liveHub.stop();
      await reconcileSchedule.stop();
      await forumSync.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Long-lived streams (server-sent events) would otherwise hold close() open.
        if ('closeAllConnections' in server && typeof server.closeAllConnections === 'function') {
          server.closeAllConnections();
        }
      });
      await flushDbLogs(db);
      await readDb?.close();
      await db.close();
    })();
    return closing;
  };
  const shownHost = isLoopbackHost(hostname)
    ? 'localhost'
    : hostname.includes(':')
      ? `[${hostname}]`
      : hostname;
  return { url: `http://${shownHost}:${port}`, port, deps, close };
}

/** Reads `--seed-customers N`, `--seed N` and `--port N` into environment overrides (validated by loadConfig). */
export function argvOverrides(argv: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {
    '--seed-customers': 'SEED_CUSTOMERS',
    '--seed': 'SEED',
    '--port': 'PORT',
  };
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const variable = flags[flag];
    if (!variable)
      throw new ConfigError(
        flag,
        `Unknown argument "${arg}" (known: ${Object.keys(flags).join(', ')})`,
      );
    const value = inline ?? argv[++i];
    if (value == null) throw new ConfigError(variable, `${flag} needs a value`);
    out[variable] = value;
  }
  return out;
}

async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = await loadConfig({ ...process.env, ...argvOverrides(process.argv.slice(2)) });
    // Only the scrypt hash is kept.
    delete process.env.ADMIN_PASSWORD;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  let running: RunningServer;
  try {
    running = await startServer(config, { log });
  } catch (err) {
    if (err instanceof UnsafeExposureError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  console.log(
    config.demoMode
      ? `Admin console (demo mode): ${running.url}/admin/  (sign in as ${config.adminEmail} / admin)`
      : `Admin console: ${running.url}/admin/`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (isEntryModule(process.argv[1], import.meta.url)) {
  main().catch((err: unknown) => {
    console.error('Server failed to start:', err);
    process.exit(1);
  });
}
