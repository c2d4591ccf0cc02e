/**
 * Reconciliation benchmark: 10,000 LemonSqueezy subscriptions (100 pages of 100) read from the
 * loopback fake API and compared with a database of 100,000 demo customers, as a dry run and as an
 * apply, with BENCH_FIX of them to fix (half missing, half cancelled at the provider). Printed,
 * never asserted, with the process CPU time of each run and the load average around them; the
 * budget is ≤ 60 s for the dry run and the apply together.
 *
 *   npx tsx bench/server-reconcile.ts                  # BENCH_CUSTOMERS=100000 BENCH_SUBSCRIPTIONS=10000 BENCH_FIX=1000
 *   BENCH_DATA_DIR=/tmp/bench-db npx tsx bench/server-reconcile.ts   # reuse a seeded database
 *
 * The provider's list is first made equal to the database (an untimed converging apply, which also
 * fixes the seed's own differences), then BENCH_FIX / 2 subscriptions are added at the provider
 * and BENCH_FIX / 2 cancelled there. Timed: the dry run, the apply, and a dry run right after (which
 * finds nothing). In-memory PGlite unless BENCH_DATA_DIR; the fake answers over loopback HTTP, so
 * the 100 page requests are real HTTP round trips. The store is the seed's, so the seed's
 * subscriptions the fake does not list are reported as not at the provider (and left alone).
 */
import { loadavg } from 'node:os';
import { pino } from 'pino';
import type { AppDeps } from '../server/context';
import { openDatabase } from '../server/db';
import { seedDemoData } from '../server/seed';
import { LS_STORE_ID } from '../server/seed/generate';
import { testConfig } from '../server/testing/app';
import { startFakeLemonSqueezyApi } from '../server/testing/fakeLemonSqueezyApi';
import { lemonSqueezySubscription, lsTime } from '../server/webhooks/deliveries';
import { SYSTEM_ACTOR } from '../server/audit/audit';
import { runReconcile } from '../server/reconcile/job';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const FIX = Number(process.env.BENCH_FIX ?? 1000);
const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY = 86_400_000;

const t0 = performance.now();
const dataDir = process.env.BENCH_DATA_DIR ?? 'memory';
const db = await openDatabase(dataDir);
const have = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers')).rows[0]?.n;
if (!have) await seedDemoData(db, { customers: CUSTOMERS, seed: 42, now: NOW });
console.log(
  `database (${dataDir}): ${have || CUSTOMERS} customers ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const fake = await startFakeLemonSqueezyApi('bench-key');
const deps: AppDeps = {
  db,
  config: testConfig({
    lemonSqueezyApiKey: 'bench-key',
    lemonSqueezyStoreId: String(LS_STORE_ID),
    lemonSqueezyApiUrl: fake.url,
  }),
  log: pino({ level: 'silent' }),
  now: () => NOW,
};

const fromDb = SUBSCRIPTIONS - FIX / 2;
const rows = await db.query<{
  provider_id: string;
  email: string;
  status: string;
  start_date: Date;
  current_period_end: Date | null;
  ends_at: Date | null;
  product_name: string | null;
  variant_id: string | null;
  variant_name: string | null;
}>(
  `SELECT s.provider_id, c.email, s.status, s.start_date, s.current_period_end, s.ends_at,
          s.payload -> 'attributes' ->> 'product_name' AS product_name,
          s.payload -> 'attributes' ->> 'variant_id' AS variant_id,
          s.payload -> 'attributes' ->> 'variant_name' AS variant_name
     FROM subscriptions s JOIN customers c ON c.id = s.customer_id
    WHERE s.provider = 'lemonsqueezy' ORDER BY s.id LIMIT $1`,
  [fromDb],
);
if (rows.rows.length < fromDb)
  throw new Error(`only ${rows.rows.length} LemonSqueezy subscriptions`);
const object = (id: string, a: Record<string, unknown>) =>
  lemonSqueezySubscription(id, { store_id: LS_STORE_ID, updated_at: lsTime(NOW), ...a });
// The seed's variants (server/seed/generate.ts: product id × 10 + 1 monthly, + 2 yearly), served
// by the fake and included in its pages, as the API does with include=variant.
for (const productId of [201, 202, 203]) {
  fake.variants[String(productId * 10 + 1)] = { interval: 'month' };
  fake.variants[String(productId * 10 + 2)] = { interval: 'year' };
}
for (const r of rows.rows) {
  const status = r.status === 'trialing' ? 'on_trial' : r.status;
  fake.subscriptions.push(
    object(r.provider_id, {
      user_email: r.email,
      status,
      product_name: r.product_name ?? 'Pro Membership',
      ...(r.variant_id ? { variant_id: Number(r.variant_id), variant_name: r.variant_name } : {}),
      created_at: lsTime(r.start_date),
      renews_at: r.current_period_end ? lsTime(r.current_period_end) : null,
      ends_at: r.ends_at ? lsTime(r.ends_at) : null,
    }),
  );
}

const run = async (dryRun: boolean) => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const r = await runReconcile(deps, {
    provider: 'lemonsqueezy',
    dryRun,
    trigger: 'console',
    actor: SYSTEM_ACTOR,
  });
  const used = process.cpuUsage(cpu);
  return { r, s: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 };
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const converge = await run(false);
console.log(
  `converging apply (untimed): ${converge.r.checked} checked, ${converge.r.applied} fixed (the seed's own differences), ${converge.s.toFixed(1)} s`,
);

for (let i = 0; i < FIX / 2; i++) {
  fake.subscriptions.push(
    object(String(90_000_000 + i), {
      user_email: `reconcile-bench-${i}@example.com`,
      status: 'active',
      product_name: 'Pro Membership',
      // A name that does not say the cadence: the included variant's interval decides.
      variant_id: 2022,
      variant_name: 'Default',
      created_at: lsTime(new Date(NOW.getTime() - 2 * DAY)),
      renews_at: lsTime(new Date(NOW.getTime() + 28 * DAY)),
      ends_at: null,
    }),
  );
}
let cancelled = 0;
for (const s of fake.subscriptions) {
  if (cancelled >= FIX / 2) break;
  if (s.attributes.status !== 'active') continue;
  s.attributes = {
    ...s.attributes,
    status: 'cancelled',
    cancelled: true,
    ends_at: lsTime(new Date(NOW.getTime() - DAY)),
    updated_at: lsTime(new Date(NOW.getTime() + 1000)),
  };
  cancelled++;
}

const loadBefore = load();
const requestsBefore = fake.requests.length;
const dry = await run(true);
const pages = fake.requests.length - requestsBefore;
const apply = await run(false);
const after = await run(true);
console.log(
  `\n${SUBSCRIPTIONS.toLocaleString('en')} subscriptions (${pages} pages) at ${(have || CUSTOMERS).toLocaleString('en')} customers; load average ${loadBefore} before, ${load()} after (1, 5, 15 min):`,
);
console.log(
  `  dry run        ${dry.s.toFixed(2)} s (cpu ${dry.cpu.toFixed(2)} s)   checked ${dry.r.checked}, missing ${dry.r.missing.length}, mismatched rows ${dry.r.mismatched.length}, not at the provider ${dry.r.not_at_provider_total}`,
);
console.log(
  `  apply          ${apply.s.toFixed(2)} s (cpu ${apply.cpu.toFixed(2)} s)   applied ${apply.r.applied}, failed ${apply.r.failed.length} (${((apply.s * 1000) / Math.max(1, apply.r.applied)).toFixed(1)} ms per fix incl. the read)`,
);
console.log(
  `  dry run again  ${after.s.toFixed(2)} s (cpu ${after.cpu.toFixed(2)} s)   missing ${after.r.missing.length}, mismatched ${after.r.mismatched.length}`,
);
const lookups = fake.requests.filter((q) => q.path.startsWith('/v1/variants/')).length;
console.log(`  variant look-ups: ${lookups} (the pages include the variants)`);
console.log(
  `  dry run + apply ${(dry.s + apply.s).toFixed(1)} s (budget ≤ 60 s): ${dry.s + apply.s <= 60 ? 'PASS' : 'FAIL'}`,
);
await fake.close();
await db.close();
