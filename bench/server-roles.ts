/**
 * What operator accounts add to a request (budgets: the permission check ≤ 1 ms p95 per request;
 * the audit row ≤ 2 ms p95 on an access action), printed as figures.
 *
 * 1. The permission check: the same trivial route through Hono, behind a middleware that sets a
 *    support operator's session, with and without `requireRole` in front of it, alternating,
 *    BENCH_RUNS (default 2000) each after 200 warm-up pairs. The check compares two integers on
 *    the session authentication already loaded, so the per-pair difference is the middleware's
 *    cost.
 * 2. The audit row: applyAccessAction (grant on one member) with an actor (one audit_log INSERT in
 *    the change's transaction) and without (no row), alternating, BENCH_AUDIT_RUNS (default 400)
 *    each, on the embedded database. The difference of two p95s of ~12–45 ms actions is at the
 *    mercy of the machine's load, so the row's own cost is also timed directly: recordAudit
 *    inside a transaction that has just updated the member, as the action's does.
 *
 * Run: `npx tsx bench/server-roles.ts`.
 */
import os from 'node:os';
import { Hono } from 'hono';
import { applyAccessAction } from '../server/access/actions';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../server/audit/audit';
import { requireRole } from '../server/auth/roles';
import type { AuthEnv } from '../server/auth/session';
import { freshDb, resetDb, testDeps } from '../server/testing/app';
import { NOW, seedScenario } from '../server/testing/scenario';
import { TEST_OWNER_SESSION } from '../server/testing/app';
import { percentile } from './support';

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const AUDIT_RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 400);

/** An operator at a browser, as a console request's audit row names them. */
const OPERATOR: AuditActor = {
  operatorId: 2,
  email: 'sam@team.example',
  ip: '203.0.113.7',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

const ms = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(3)} ms, p95 ${percentile(values, 95).toFixed(3)} ms`;

async function permissionCheck(): Promise<void> {
  const app = new Hono<AuthEnv>();
  app.use('*', async (c, next) => {
    c.set('admin', { ...TEST_OWNER_SESSION, role: 'support' });
    await next();
  });
  app.get('/plain', (c) => c.json({ ok: true }));
  app.get('/checked', requireRole('support'), (c) => c.json({ ok: true }));
  const plain: number[] = [];
  const checked: number[] = [];
  for (let i = 0; i < RUNS + 200; i++) {
    for (const [path, into] of [
      ['/plain', plain],
      ['/checked', checked],
    ] as const) {
      const t = performance.now();
      const res = await app.request(path);
      await res.text();
      if (i >= 200) into.push(performance.now() - t);
    }
  }
  const diff = plain.map((p, i) => (checked[i] ?? p) - p);
  console.log(`permission check, ${RUNS} requests each (after 200 warm-up):`);
  console.log(`  without requireRole: ${ms(plain)}`);
  console.log(`  with requireRole:    ${ms(checked)}`);
  console.log(`  added per request:   ${ms(diff)}   (budget ≤ 1 ms p95)`);
}

async function auditRow(): Promise<void> {
  const db = await freshDb();
  await resetDb(db);
  await seedScenario(db);
  const deps = testDeps(db, NOW);
  const without: number[] = [];
  const withRow: number[] = [];
  for (let i = 0; i < AUDIT_RUNS + 20; i++) {
    for (const [actor, into] of [
      [null, without],
      [SYSTEM_ACTOR, withRow],
    ] as const) {
      const t = performance.now();
      await applyAccessAction(
        deps,
        { kind: 'grant', email: 'ada@example.com', at: null },
        { actor },
      );
      if (i >= 20) into.push(performance.now() - t);
    }
  }
  console.log(`access action (grant, embedded database), ${AUDIT_RUNS} each (after 20 warm-up):`);
  console.log(`  without an audit row: ${ms(without)}`);
  console.log(`  with its audit row:   ${ms(withRow)}`);
  console.log(
    `  added (p95 with − p95 without): ${(percentile(withRow, 95) - percentile(without, 95)).toFixed(3)} ms   (budget ≤ 2 ms p95)`,
  );
  const insert: number[] = [];
  for (let i = 0; i < AUDIT_RUNS + 20; i++) {
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE members SET updated_at = $1
          WHERE customer_id = (SELECT id FROM customers WHERE email = 'ada@example.com')`,
        [NOW],
      );
      const t = performance.now();
      await recordAudit(
        tx,
        OPERATOR,
        {
          action: 'access.grant',
          target: 'ada@example.com',
          detail: {
            before: { mg_status: 'active', expires_at: null },
            after: { mg_status: 'active', expires_at: null },
          },
        },
        NOW,
      );
      if (i >= 20) insert.push(performance.now() - t);
    });
  }
  console.log(
    `  the audit row alone, in the change's transaction: ${ms(insert)}   (budget ≤ 2 ms p95)`,
  );
  await db.close();
}

const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
console.log(`load average (1, 5, 15 min) before: ${load()}`);
await permissionCheck();
await auditRow();
console.log(`load average (1, 5, 15 min) after: ${load()}`);
