/**
 * What operator accounts add to a request (issue budgets: the permission check ≤ 1 ms p95 per
 * request; the audit row ≤ 2 ms p95 on an access action), printed as figures.
 *
 * 1. The permission check: the same route (GET /users on an empty table) through the whole app,
 *    with and without `requireRole` in front of it, alternating, BENCH_RUNS (default 2000) each.
 *    The check itself compares two integers on the session authentication already loaded, so the
 *    difference is the middleware's cost.
 * 2. The audit row: applyAccessAction (grant on one member) with an actor (one audit_log INSERT in
 *    the change's transaction) and without (no row), alternating, BENCH_AUDIT_RUNS (default 400)
 *    each, on the embedded database.
 *
 * Run: `npx tsx bench/server-roles.ts`.
 */
import { Hono } from 'hono';
import { applyAccessAction } from '../server/access/actions';
import { SYSTEM_ACTOR } from '../server/audit/audit';
import { requireRole } from '../server/auth/roles';
import type { AuthEnv } from '../server/auth/session';
import { freshDb, resetDb, testDeps } from '../server/testing/app';
import { NOW, seedScenario } from '../server/testing/scenario';
import { TEST_OWNER_SESSION } from '../server/testing/app';
import { percentile } from './support';

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const AUDIT_RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 400);

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
  await db.close();
}

await permissionCheck();
await auditRow();
