/**
 * Wire fixtures of the maintenance area (§3 Maintenance result, CONTRACT.md ping summary and
 * diagnostics), as the reference server sends them (docs/api.md).
 */
import { FIXTURE_NOW, isoAt } from './fixtures';

/** An expiration answer for `emails` (dry run or applied), in the reference server's shape. */
export function expirationWire(emails: string[], dryRun: boolean): Record<string, unknown> {
  const details = emails.map((email, i) => ({
    email,
    expires_at: isoAt(-1 - (i % 20), 6),
    ...(dryRun ? {} : { discourse: { skipped: true, reason: 'Discourse not configured' } }),
  }));
  return {
    processed: dryRun ? 0 : emails.length,
    affected_count: emails.length,
    affected: emails,
    details,
    sample_emails: emails.slice(0, 5),
    dryRun,
    ...(dryRun ? { preview: { affected: emails.length, users: emails } } : {}),
    meta: { ran_at: FIXTURE_NOW },
  };
}

/** Seven due users. */
export const DUE_EMAILS = [
  'dave_x@example.com',
  'erin@example.com',
  'frank@example.org',
  'grace@sample.net',
  'heidi@example.com',
  'ivan@example.com',
  'judy@example.org',
];

/** `n` generated due users (user001@example.com…). */
export function makeDueEmails(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `user${String(i + 1).padStart(3, '0')}@example.com`);
}

/** GET /maintenance/diag. */
export const DIAG_WIRE = {
  versions: { app: '0.0.1', node: 'v20.20.0', database: 'PostgreSQL 17.5 on wasm32 (PGlite)' },
  database: {
    ok: true,
    engine: 'PGlite',
    size_bytes: 48_234_496,
    migrations_applied: 3,
    migrations: ['001_init', '002_list_indexes', '004_logs_search'],
    last_migration: '004_logs_search',
  },
  counts: {
    customers: 3000,
    subscriptions: { lemonsqueezy: 1804, clickbank: 1196, total: 3000 },
    members: { active: 812, scheduled: 37, cancelled: 2147 },
    pending_expirations: 4,
    webhook_dedup_rows: 0,
    log_rows: 2000,
  },
  logs: { retention_days: 30, max_rows: 1_000_000, queued: 0, written: 12, dropped: 0, failed: 0 },
  integrations: {
    discourse: false,
    lemonsqueezy_api: true,
    clickbank_api: false,
    clickbank_secret_key: true,
  },
  expiration: { running: null, last_run: null },
  reconcile: {
    interval_s: 3600,
    lemonsqueezy: {
      configured: true,
      running: false,
      last_run: {
        started_at: '2026-11-20T11:00:00.000Z',
        finished_at: '2026-11-20T11:00:04.000Z',
        trigger: 'scheduler',
        ok: true,
        checked: 1250,
        missing: 2,
        mismatched: 1,
        applied: 3,
        failed: 0,
        error: null,
      },
    },
    clickbank: { configured: false, running: false, last_run: null },
  },
  uptime_s: 3600,
  started_at: '2026-11-20T11:00:00.000Z',
  now: FIXTURE_NOW,
};

/** Ping answers. */
export const PING_WIRE = {
  discourseOk: {
    ok: true,
    status: 200,
    version: '3.4.0',
    message: "Forum 'MG Forum' reachable with the API key",
  },
  discourseNotConfigured: { ok: false, reason: 'Discourse not configured' },
  lemonsqueezyOk: {
    ok: true,
    status: 200,
    message: 'Authenticated as John Doe (test mode)',
    test_mode: true,
  },
  lemonsqueezyRefused: {
    ok: false,
    status: 401,
    error: 'LemonSqueezy refused the credentials: Unauthenticated.',
  },
  clickbankSecretOk: {
    ok: true,
    message: 'CLICKBANK_SECRET_KEY encrypts and decrypts a TEST Instant Notification',
  },
  clickbankNotConfigured: { ok: false, reason: 'CLICKBANK_SECRET_KEY not configured' },
};

/** POST /maintenance/enforce-now for a due user. */
export const ENFORCE_WIRE = {
  ok: true,
  email: 'dave_x@example.com',
  mg_status: 'cancelled',
  expires_at: isoAt(-1, 6),
  changed: true,
  action: 'expired',
  discourse: { skipped: true, reason: 'Discourse not configured' },
};
