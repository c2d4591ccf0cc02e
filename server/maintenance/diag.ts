/**
 * GET /maintenance/diag (specification §2 Maintenance "Diagnostics card"; CONTRACT.md: a free-form
 * JSON object shown as key/value pairs plus the raw JSON). Never a secret: integrations are
 * reported as configured yes/no only. Each section is read on its own; a failing query leaves
 * that value null and sets database.ok false instead of failing the whole answer.
 *
 * Shape: `{versions:{app, node, database}, database:{ok, engine, size_bytes, migrations_applied,
 * migrations, last_migration}, counts:{customers, subscriptions:{lemonsqueezy, clickbank, total},
 * members:{active, scheduled, cancelled}, pending_expirations, webhook_dedup_rows, log_rows},
 * logs:{retention_days, max_rows, queued, written, dropped, failed}, integrations:{discourse,
 * lemonsqueezy_api, clickbank_api, clickbank_secret_key}, expiration:{running, last_run},
 * forum_outbox:{pending, retrying, oldest_pending_s, failed, failed_total, done_total, last_error,
 * last_error_at, recent_failures:[{id, email, action, attempts, status, error, failed_at}]},
 * uptime_s, started_at, now}` (instants ISO UTC, sizes in bytes).
 */
import type { AppDeps } from '../context';
import { logWriterStats } from '../logging';
import { APP_VERSION } from '../routes/health';
import { expirationJobStatus } from './expirationJob';
import { forumOutboxDiag } from '../outbox/status';
import { reconcileStatus } from '../reconcile/job';
import { DEFAULT_RECONCILE_INTERVAL_S } from '../reconcile/scheduler';

/** Builds the diagnostics object at deps.now(); `startedAt` is when the server started. */
export async function diagnostics(
  deps: AppDeps,
  startedAt: Date,
): Promise<Record<string, unknown>> {
  const { db, config } = deps;
  const now = deps.now();
  let ok = true;
  const one = async <T>(sql: string, params: unknown[] = []): Promise<T | null> => {
    try {
      const r = await db.query<T>(sql, params);
      return r.rows[0] ?? null;
    } catch {
      ok = false;
      return null;
    }
  };

  const version = await one<{ v: string }>('SELECT version() AS v');
  const size = await one<{ n: string | number }>(
    'SELECT pg_database_size(current_database()) AS n',
  );
  const migrations = await (async () => {
    try {
      return (
        await db.query<{ version: string }>(
          'SELECT version FROM schema_migrations ORDER BY version',
        )
      ).rows.map((r) => r.version);
    } catch {
      ok = false;
      return null;
    }
  })();
  const customers = await one<{ n: number }>('SELECT count(*)::int AS n FROM customers');
  const subs = await one<{ ls: number; cb: number; total: number }>(
    `SELECT count(*) FILTER (WHERE provider = 'lemonsqueezy')::int AS ls,
            count(*) FILTER (WHERE provider = 'clickbank')::int AS cb, count(*)::int AS total FROM subscriptions`,
  );
  const members = await one<{
    active: number;
    scheduled: number;
    cancelled: number;
    pending: number;
  }>(
    `SELECT count(*) FILTER (WHERE mg_status = 'active' AND expires_at IS NULL)::int AS active,
            count(*) FILTER (WHERE mg_status = 'active' AND expires_at > $1)::int AS scheduled,
            count(*) FILTER (WHERE mg_status = 'cancelled')::int AS cancelled,
            count(*) FILTER (WHERE mg_status = 'active' AND expires_at <= $1)::int AS pending
       FROM members`,
    [now.toISOString()],
  );
  const dedup = await (async () => {
    try {
      const exists = await db.query<{ t: string | null }>(
        "SELECT to_regclass('public.webhook_dedup')::text AS t",
      );
      if (!exists.rows[0]?.t) return 0;
      return (
        (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_dedup')).rows[0]
          ?.n ?? 0
      );
    } catch {
      ok = false;
      return null;
    }
  })();
  const logRows = await one<{ n: string | number | null }>(
    'SELECT sum(n) AS n FROM logs_level_counts',
  );
  const job = await expirationJobStatus(db);
  const reconcile = {
    interval_s: config.reconcileIntervalS ?? DEFAULT_RECONCILE_INTERVAL_S,
    lemonsqueezy: await reconcileStatus(deps, 'lemonsqueezy'),
    clickbank: await reconcileStatus(deps, 'clickbank'),
  };
  const forumOutbox = await forumOutboxDiag(db, now).catch(() => {
    ok = false;
    return null;
  });

  return {
    versions: {
      app: APP_VERSION,
      node: process.version,
      database: version?.v ?? null,
    },
    database: {
      ok,
      engine: config.dataDir === 'memory' ? 'PGlite (in memory)' : 'PGlite',
      size_bytes: size ? Number(size.n) : null,
      migrations_applied: migrations?.length ?? null,
      migrations,
      last_migration: migrations?.at(-1) ?? null,
    },
    counts: {
      customers: customers?.n ?? null,
      subscriptions: subs ? { lemonsqueezy: subs.ls, clickbank: subs.cb, total: subs.total } : null,
      members: members
        ? { active: members.active, scheduled: members.scheduled, cancelled: members.cancelled }
        : null,
      pending_expirations: members?.pending ?? null,
      webhook_dedup_rows: dedup,
      log_rows: logRows ? Number(logRows.n ?? 0) : null,
    },
    logs: {
      retention_days: config.logRetentionDays ?? 30,
      max_rows: config.logMaxRows ?? 1_000_000,
      ...logWriterStats(db),
    },
    integrations: {
      discourse: config.discourse !== null,
      lemonsqueezy_api: !!config.lemonSqueezyApiKey,
      clickbank_api: !!config.clickbankDeveloperKey && !!config.clickbankClerkKey,
      clickbank_secret_key: !!config.clickbankSecretKey,
    },
    expiration: job,
    reconcile,
    forum_outbox: forumOutbox,
    uptime_s: Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000)),
    started_at: startedAt.toISOString(),
    now: now.toISOString(),
  };
}
