/**
 * The forum outbox under load, printed and never asserted:
 *
 * 1. **Action answer with its forum outcome**: BENCH_OUTBOX_ACTIONS grant / revoke_now actions
 *    through applyAccessAction while a started ForumWorker runs their jobs against a local fake
 *    Discourse (loopback HTTP, answering at once). p50 / p95 ms from the request to the answer
 *    that carries the forum outcome (commit → NOTIFY → claim → 2–3 forum calls → record → wake).
 * 2. **Drain throughput**: BENCH_OUTBOX_JOBS jobs over 200 emails queued at once, then drained by
 *    one worker and by two workers over the same database: jobs per second.
 *
 * `npx tsx bench/server-outbox.ts` (in-memory PGlite; the fake forum is in this process too, so the
 * figures are the server's own cost plus loopback HTTP, not a real forum's latency).
 */
import { pino } from 'pino';
import { applyAccessAction } from '../server/access/actions';
import type { AppDeps } from '../server/context';
import { openDatabase } from '../server/db';
import type { Db } from '../server/db/types';
import { enqueueForumJobs } from '../server/outbox/enqueue';
import { ForumWorker } from '../server/outbox/worker';
import { fakeForum, startFakeDiscourse } from '../server/testing/fakeDiscourse';
import { percentile } from './support';

const ACTIONS = Number(process.env.BENCH_OUTBOX_ACTIONS ?? 300);
const JOBS = Number(process.env.BENCH_OUTBOX_JOBS ?? 2000);
const EMAILS = 200;

function deps(db: Db, url: string): AppDeps {
  return {
    db,
    config: {
      port: 0,
      dataDir: 'memory',
      apiPrefix: '/api/admin',
      staticDir: 'dist',
      adminEmail: 'admin@example.com',
      adminPasswordHash: 'scrypt$16384$8$1$AAAA$AAAA',
      jwtSecret: new Uint8Array(32),
      sessionTtlS: 3600,
      reportingCurrency: 'USD',
      fxRates: { USD: 1 },
      seedCustomers: 0,
      seedValue: 1,
      discourse: { baseUrl: url, apiKey: 'k', apiUsername: 'system', groupId: 42, timeoutMs: 5000 },
      lemonSqueezyApiKey: null,
      clickbankDeveloperKey: null,
      clickbankClerkKey: null,
      outbox: { waitMs: 5000, pollMs: 1000 },
    },
    log: pino({ level: 'silent' }),
    now: () => new Date(),
  };
}

async function main(): Promise<void> {
  const db = await openDatabase('memory');
  const accounts: Record<string, string> = {};
  for (let i = 1; i <= EMAILS; i++) accounts[`u${i}@example.com`] = `u${i}`;
  const forum = fakeForum(accounts);
  const fake = await startFakeDiscourse((req) => forum.reply(req));
  await db.query(
    `INSERT INTO customers (email) SELECT 'u' || g || '@example.com' FROM generate_series(1, $1::int) g`,
    [EMAILS],
  );
  await db.query(`INSERT INTO members (customer_id, mg_status) SELECT id, 'active' FROM customers`);

  // 1. Action → answer with the forum outcome.
  const d = deps(db, fake.url);
  const worker = new ForumWorker(d);
  await worker.start();
  const ms: number[] = [];
  let queued = 0;
  for (let i = 0; i < ACTIONS; i++) {
    const email = `u${(i % EMAILS) + 1}@example.com`;
    const started = performance.now();
    const res = await applyAccessAction(d, {
      kind: i % 2 === 0 ? 'grant' : 'revoke_now',
      email,
      at: null,
    });
    ms.push(performance.now() - started);
    if ('queued' in res.discourse) queued++;
  }
  await worker.stop();
  console.log(
    `action → answer with forum outcome: n=${ACTIONS} p50 ${percentile(ms, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(ms, 95).toFixed(1)} ms, queued ${queued}`,
  );

  // 2. Drain throughput, one then two workers.
  for (const workers of [1, 2]) {
    await db.exec('TRUNCATE forum_outbox RESTART IDENTITY');
    await db.transaction((tx) =>
      enqueueForumJobs(
        tx,
        Array.from({ length: JOBS }, (_, i) => ({
          email: `u${(i % EMAILS) + 1}@example.com`,
          action: Math.floor(i / EMAILS) % 2 === 0 ? ('grant' as const) : ('revoke' as const),
          reason: 'bench',
          at: new Date(),
        })),
      ),
    );
    const pool = Array.from({ length: workers }, () => new ForumWorker(deps(db, fake.url)));
    const started = performance.now();
    const done = await Promise.all(pool.map((w) => w.runDue()));
    const s = (performance.now() - started) / 1000;
    const ran = done.reduce((n, r) => n + r.length, 0);
    console.log(
      `drain ${JOBS} jobs (${EMAILS} emails), ${workers} worker(s): ${ran} attempts in ${s.toFixed(1)} s = ${(ran / s).toFixed(0)} jobs/s`,
    );
  }
  await fake.close();
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
