/**
 * Expiration of scheduled revocations (specification §2 Maintenance "Expire cancelled access",
 * §3 "Maintenance result", §4 Maintenance): members whose access is still active but whose
 * expires_at has arrived (expires_at ≤ now) are set to cancelled.
 *
 * A dry run only lists them. A real run updates them and writes one 'access.expired' info row per
 * user in ONE transaction (re-checking the condition, so a concurrent grant is not undone), then
 * revokes each user on Discourse when configured; forum failures are reported per user and logged
 * as warn rows, never rolled back.
 */
import type { AppDeps } from '../context';
import { syncForumAccess, type DiscourseOutcome } from '../discourse/client';
import { logDiscourseFailure } from './actions';
import { iso } from './params';
import { emitAccessEvent } from '../live/access';

/** One affected user. expires_at is ISO UTC; discourse is present after a real run. */
export interface ExpirationDetail {
  email: string;
  expires_at: string | null;
  discourse?: DiscourseOutcome;
}

/** §3 Maintenance result. */
export interface ExpirationResult {
  /** Members changed (0 on a dry run). */
  processed: number;
  /** Members due (dry run) or changed (real run). */
  affected_count: number;
  affected: string[];
  details: ExpirationDetail[];
  /** At most 5 emails (§9). */
  sample_emails: string[];
  dryRun: boolean;
  /** Present on dry runs: what a real run would change. */
  preview?: { affected: number; users: string[] };
  meta: { ran_at: string };
}

/** How many example emails a result carries (§9 "examples list at most 5 emails"). */
export const SAMPLE_EMAILS = 5;

/**
 * Finds members with mg_status active and expires_at ≤ now (deps.now()); unless `dryRun`, cancels
 * them (one transaction with their log rows) and revokes them on Discourse → ExpirationResult.
 */
export async function runExpiration(
  deps: AppDeps,
  opts: { dryRun: boolean },
): Promise<ExpirationResult> {
  const now = deps.now();
  const meta = { ran_at: now.toISOString() };
  if (opts.dryRun) {
    const due = await deps.db.query<{ email: string; expires_at: Date }>(
      `SELECT c.email, m.expires_at FROM members m JOIN customers c ON c.id = m.customer_id
        WHERE m.mg_status = 'active' AND m.expires_at <= $1 ORDER BY m.expires_at, m.id`,
      [now],
    );
    const details = due.rows.map((r) => ({ email: r.email, expires_at: iso(r.expires_at) }));
    const affected = details.map((d) => d.email);
    return {
      processed: 0,
      affected_count: affected.length,
      affected,
      details,
      sample_emails: affected.slice(0, SAMPLE_EMAILS),
      dryRun: true,
      preview: { affected: affected.length, users: affected },
      meta,
    };
  }

  const changed = await deps.db.transaction(async (tx) => {
    const r = await tx.query<{ id: number; email: string; expires_at: Date }>(
      `UPDATE members m SET mg_status = 'cancelled', updated_at = $1
         FROM customers c
        WHERE c.id = m.customer_id AND m.mg_status = 'active' AND m.expires_at <= $1
        RETURNING m.id, c.email, m.expires_at`,
      [now],
    );
    const rows = [...r.rows].sort(
      (a, b) => a.expires_at.getTime() - b.expires_at.getTime() || a.id - b.id,
    );
    if (rows.length > 0) {
      await tx.query(
        `INSERT INTO logs (ts, level, msg, context)
         SELECT $1, 'info', 'access.expired',
                jsonb_build_object('email', x.email, 'action', 'expire', 'mg_status', 'cancelled', 'expires_at', x.expires_at)
           FROM unnest($2::text[], $3::text[]) AS x(email, expires_at)`,
        [now, rows.map((x) => x.email), rows.map((x) => x.expires_at.toISOString())],
      );
    }
    // One access.revoked live event per member, in this transaction (issue 9).
    for (const row of rows) await emitAccessEvent(tx, 'access.revoked', row.email, now);
    return rows;
  });

  const details: ExpirationDetail[] = [];
  for (const row of changed) {
    const detail: ExpirationDetail = { email: row.email, expires_at: iso(row.expires_at) };
    if (deps.config.discourse !== null) {
      const outcome = await syncForumAccess(deps.config.discourse, 'revoke', row.email);
      detail.discourse = outcome;
      if ('ok' in outcome && outcome.ok === false)
        await logDiscourseFailure(deps, row.email, 'expire', outcome);
    }
    details.push(detail);
  }
  const affected = details.map((d) => d.email);
  return {
    processed: affected.length,
    affected_count: affected.length,
    affected,
    details,
    sample_emails: affected.slice(0, SAMPLE_EMAILS),
    dryRun: false,
    meta,
  };
}
