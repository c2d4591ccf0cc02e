/**
 * GET /audit: the audit trail for the Audit screen and a customer's drawer (docs/api.md "Audit").
 *
 * Query (blank values are ignored):
 * - operator: an operator's email (exact, case-insensitive);
 * - action: a dotted action ('access.grant') or a group of them ('access' → every 'access.*');
 * - target: a customer email or an operator's email (exact, case-insensitive);
 * - from / to: UTC 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (a date-only `time_to` takes its
 *   whole day);
 * - page ≥ 1 (default 1), pageSize 1–200 (default 50; more is a 400).
 *
 * Answer: `{rows: [{id, at, operator_email, action, target, outcome, ip, user_agent, detail}],
 * total, page, pageSize, totalPages, totalCapped}`, newest first. Totals are exact up to
 * AUDIT_COUNT_CAP (10 000) rows, then capped with totalCapped true. Every filter has an index
 * (migration 014), and pages past the cap still work.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../context';
import { validate } from '../http/body';
import { emailParam, pageParams, textParam, utcDateParam } from '../http/fields';
import { iso, toDateRange } from '../access/params';

/** Largest page size accepted. */
export const AUDIT_MAX_PAGE_SIZE = 200;
/** Totals are counted up to this many rows. */
export const AUDIT_COUNT_CAP = 10_000;

const auditQuery = z
  .object({
    ...pageParams(AUDIT_MAX_PAGE_SIZE, 50),
    operator: emailParam('operator'),
    action: textParam('action', 64).pipe(
      z
        .string()
        .regex(/^[a-z_]+(\.[a-z_]+)*$/, {
          error: (iss) =>
            `action must be a dotted action name such as access.grant, or a group such as access (got '${String(iss.input)}')`,
        })
        .optional(),
    ),
    target: textParam('target', 320),
    from: utcDateParam('from'),
    to: utcDateParam('to'),
  })
  .superRefine((v, ctx) => {
    const range = toDateRange(v.from, v.to);
    if (v.from && v.to && range.toExclusive && range.from && range.from >= range.toExclusive) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: `from (${v.from.text}) is after to (${v.to.text})`,
      });
    }
  });

/** One audit row as sent. */
export interface AuditRow {
  id: number;
  at: string | null;
  operator_email: string | null;
  action: string;
  target: string | null;
  outcome: string;
  ip: string | null;
  user_agent: string | null;
  detail: unknown;
}

/** Runs one page of GET /audit (see the module doc) over `deps.db`. */
export async function listAudit(deps: Pick<AppDeps, 'db'>, raw: Record<string, string>) {
  const q = validate(auditQuery, raw);
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.operator) add((n) => `operator_email = ${n}`, q.operator);
  if (q.action) {
    add((n) => `(action = ${n} OR action LIKE ${n} || '.%')`, q.action);
  }
  if (q.target) add((n) => `lower(target) = lower(${n})`, q.target);
  const range = toDateRange(q.from, q.to);
  if (range.from) add((n) => `at >= ${n}`, range.from.toISOString());
  if (range.toExclusive) add((n) => `at < ${n}`, range.toExclusive.toISOString());
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';

  const counted = await deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_log ${whereSql} LIMIT ${AUDIT_COUNT_CAP + 1}) t`,
    params,
  );
  const n = counted.rows[0]?.n ?? 0;
  const totalCapped = n > AUDIT_COUNT_CAP;
  const total = totalCapped ? AUDIT_COUNT_CAP : n;
  const res = await deps.db.query<{
    id: number;
    at: Date | string;
    operator_email: string | null;
    action: string;
    target: string | null;
    outcome: string;
    ip: string | null;
    user_agent: string | null;
    detail: unknown;
  }>(
    `SELECT id::float8 AS id, at, operator_email, action, target, outcome, ip, user_agent, detail
       FROM audit_log ${whereSql}
      ORDER BY at DESC, id DESC
      LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
    params,
  );
  const rows: AuditRow[] = res.rows.map((r) => ({
    id: r.id,
    at: iso(new Date(r.at)),
    operator_email: r.operator_email,
    action: r.action,
    target: r.target,
    outcome: r.outcome,
    ip: r.ip,
    user_agent: r.user_agent,
    detail: r.detail ?? null,
  }));
  return {
    rows,
    total,
    totalCapped,
    page: q.page,
    pageSize: q.pageSize,
    totalPages: Math.max(1, Math.ceil(total / q.pageSize)),
  };
}

/** Builds the audit router: GET /audit, readable by every role. */
export function auditRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/audit', async (c) => c.json(await listAudit(deps, c.req.query())));
  return r;
}
