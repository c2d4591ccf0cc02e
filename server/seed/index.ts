/**
 * Demo data for the reference server: deterministic from the seed and the seeding moment `now`,
 * which is the data's horizon (nothing seeded is dated after it), written with PostgreSQL COPY in
 * batches inside one transaction (all or nothing).
 */
import type { Db, Tx } from '../db/types';
import { invalidateStatsCache } from '../stats/cache';
import { COPY_COLUMNS, DemoGenerator, joinBatches, type CsvBatch } from './generate';
import { seedForumJobs } from './forum';
import { seedWebhookHistory } from './webhooks';
import { ISR_COPY_COLUMNS } from './isr';
import { REVENUE_SPAN_COLUMNS } from './revenue';

/** Customers per batch: bounds memory at large counts (about two batches are held at once). */
const BATCH_SIZE = 5000;
/**
 * Customers generated between two turns of the event loop while the previous batch is copied:
 * each turn lets the driver stream more of that COPY, so on PostgreSQL the generator (Node) and
 * the load (the database server) run at the same time instead of taking turns.
 */
const SLICE_SIZE = 50;
/** Log rows seeded. */
export const SEED_LOG_ROWS = 2000;
/** Version of the generator, recorded in `meta` (bump when the generated data changes). */
export const SEED_VERSION = '5';

/** What seedDemoData wrote. Counts are rows; anchorDay is 'YYYY-MM-DD' (UTC); durationMs wall time. */
export interface SeedSummary {
  customers: number;
  subscriptions: { lemonsqueezy: number; clickbank: number; total: number };
  /** Subscriptions granting current access at the seeding moment. */
  accessActive: number;
  members: number;
  events: number;
  clickbankOrders: number;
  /** isr_events rows (sales, rebills, refunds of both providers). */
  isrEvents: number;
  logs: number;
  /** webhook_deliveries rows: the inbox history of the last week (./webhooks.ts). */
  webhookDeliveries: number;
  seed: number;
  anchorDay: string;
  durationMs: number;
}

async function copyRows(tx: Tx, table: string, columns: string, data: string): Promise<void> {
  if (data === '') return;
  await tx.copyFrom(table, columns, data);
}

/** COPYs one batch into every table it fills, in foreign-key order. */
async function copyBatch(tx: Tx, batch: CsvBatch): Promise<void> {
  await copyRows(tx, 'customers', COPY_COLUMNS.customers, batch.customers);
  await copyRows(tx, 'subscriptions', COPY_COLUMNS.subscriptions, batch.subscriptions);
  await copyRows(tx, 'members', COPY_COLUMNS.members, batch.members);
  await copyRows(tx, 'subscription_events', COPY_COLUMNS.events, batch.events);
  await copyRows(tx, 'clickbank_orders', COPY_COLUMNS.clickbankOrders, batch.clickbankOrders);
  await copyRows(tx, 'isr_events', ISR_COPY_COLUMNS, batch.isr);
  await copyRows(tx, 'revenue_spans', REVENUE_SPAN_COLUMNS, batch.revenueSpans);
}

/** The next `size` customers (fewer at the end), generated in slices with a turn of the event loop after each. */
async function nextBatch(gen: DemoGenerator, size: number): Promise<CsvBatch> {
  const slices: CsvBatch[] = [];
  for (let n = 0; n < size && !gen.done(); n += SLICE_SIZE) {
    slices.push(gen.batch(Math.min(SLICE_SIZE, size - n)));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return joinBatches(slices);
}

/** pg_advisory_xact_lock key serialising seeding across server instances: 'mg' 4. */
const SEED_LOCK = [0x6d67, 4] as const;

/** The bulk-loaded tables whose user triggers (roll-ups, row counts) are off during the COPY. */
const TRIGGERED_TABLES = [
  'customers',
  'subscriptions',
  'members',
  'subscription_events',
  'clickbank_orders',
  'isr_events',
];

/**
 * Turns row triggers off for the rest of `tx` → the function that turns them on again.
 * `session_replication_role = replica` (every trigger, foreign-key checks included) needs a
 * superuser, or the SET privilege on it (PostgreSQL 15+); PGlite and a superuser have it. A plain
 * database owner on a real PostgreSQL gets `ALTER TABLE … DISABLE TRIGGER USER` instead (the
 * roll-up and count triggers off; foreign keys still checked, which the COPY order satisfies).
 */
async function triggersOff(tx: Tx): Promise<() => Promise<void>> {
  await tx.exec('SAVEPOINT seed_triggers');
  try {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.exec('RELEASE SAVEPOINT seed_triggers');
    return () => tx.exec('SET LOCAL session_replication_role = origin');
  } catch {
    await tx.exec('ROLLBACK TO SAVEPOINT seed_triggers');
    for (const t of TRIGGERED_TABLES) await tx.exec(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
    return async () => {
      for (const t of TRIGGERED_TABLES) await tx.exec(`ALTER TABLE ${t} ENABLE TRIGGER USER`);
    };
  }
}

/** The tables the seed loads in bulk, whose plain indexes are rebuilt after the load. */
const BULK_TABLES = [...TRIGGERED_TABLES, 'revenue_spans', 'webhook_deliveries'];

/** Tables the seed fills, vacuumed and analysed once it has committed. */
const VACUUMED_TABLES = [
  'customers',
  'subscriptions',
  'members',
  'subscription_events',
  'clickbank_orders',
  'logs',
  // Index-only scans of the metrics pies and ISR aggregates need the visibility map (005).
  'isr_events',
  'metrics_daily',
  'metrics_daily_provider',
  'metrics_daily_plan',
  'metrics_daily_status',
  'metrics_daily_source',
  'isr_daily',
  'isr_daily_affiliate',
  'revenue_spans',
  'revenue_movements',
  'revenue_daily',
  'revenue_cohort_monthly',
  'revenue_retained_daily',
  'revenue_daily_kinds',
  'subscription_months',
  'subscription_days',
  'webhook_deliveries',
];

/** Tables whose ids the seed writes explicitly (logs take ids from their sequence, after any existing rows). */
const SEQUENCED_TABLES = [
  'customers',
  'subscriptions',
  'members',
  'subscription_events',
  'clickbank_orders',
  'isr_events',
];

/**
 * Seeds an empty database with `opts.customers` demo customers (one subscription and one member
 * each; ~60 % LemonSqueezy with full subscription objects in payload, ~40 % ClickBank with INS v6
 * order rows), their lifecycle events, the ISR tracking events of every payment and refund
 * (server/seed/isr.ts), the metrics and ISR roll-ups (migrations 005, 006), the MRR history and its movements (015, ./revenue.ts), the last week's webhook deliveries (./webhooks.ts), ~2000 log rows and the seed facts in `meta` (seed,
 * seed_customers, seed_anchor_day, seed_version, seeded_at). Everything that happened is dated at
 * or before `opts.now`; only what is scheduled (period ends, access expiries, the next ClickBank
 * payment) lies after it. Deterministic for the same seed and `opts.now`. The filled tables are
 * then VACUUM ANALYZEd. Throws (writing nothing) when customers already exist or on invalid
 * options.
 */
export async function seedDemoData(
  db: Db,
  opts: {
    customers: number;
    seed: number;
    now: Date;
    /** Customers per COPY batch (default 5,000): bounds memory; the data does not depend on it. */
    batchSize?: number;
  },
): Promise<SeedSummary> {
  const started = performance.now();
  if (!Number.isSafeInteger(opts.customers) || opts.customers < 0) {
    throw new Error(`seedDemoData: customers must be a whole number ≥ 0, got ${opts.customers}`);
  }
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new Error(`seedDemoData: batchSize must be a whole number ≥ 1, got ${batchSize}`);
  }
  if (!Number.isFinite(opts.seed))
    throw new Error(`seedDemoData: seed must be a number, got ${opts.seed}`);
  const nowMs = opts.now.getTime();
  if (!Number.isFinite(nowMs)) throw new Error('seedDemoData: now is not a valid date');
  const anchorDay = opts.now.toISOString().slice(0, 10);
  const seed = opts.seed >>> 0;

  const summary: SeedSummary = {
    customers: 0,
    subscriptions: { lemonsqueezy: 0, clickbank: 0, total: 0 },
    accessActive: 0,
    members: 0,
    events: 0,
    clickbankOrders: 0,
    isrEvents: 0,
    logs: 0,
    webhookDeliveries: 0,
    seed,
    anchorDay,
    durationMs: 0,
  };

  await db.transaction(async (tx) => {
    // Server instances starting together on one empty PostgreSQL seed one after the other: the
    // later one waits here, then finds the data and refuses (seedIfEmpty then leaves it be).
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [SEED_LOCK[0], SEED_LOCK[1]]);
    const existing = await tx.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM customers)::int + (SELECT count(*) FROM subscriptions)::int
            + (SELECT count(*) FROM members)::int + (SELECT count(*) FROM subscription_events)::int
            + (SELECT count(*) FROM clickbank_orders)::int + (SELECT count(*) FROM isr_events)::int AS n`,
    );
    if ((existing.rows[0]?.n ?? 0) > 0) {
      throw new Error(
        'seedDemoData: the database already holds customer data; seed only an empty database',
      );
    }
    const gen = new DemoGenerator({ customers: opts.customers, seed, nowMs });
    // Row triggers (the metrics roll-ups of migration 005, foreign-key checks) are off for the bulk
    // COPY of generated, consistent rows; the roll-ups are rebuilt in one pass afterwards.
    const triggersOn = await triggersOff(tx);
    // Secondary indexes build several times faster in one sorted pass than row by row (the
    // trigram GINs most of all): drop the bulk tables' plain indexes for the COPY and recreate
    // them from their own definitions. Constraint indexes (keys, uniques) stay, so the COPY still
    // checks them. A column's statistics target (ALTER INDEX … SET STATISTICS, migration 047) is
    // no part of the definition: it is set again after.
    const bulkIndexes = await tx.query<{ name: string; def: string; targets: string[] }>(
      `SELECT i.indexname AS name, i.indexdef AS def,
              ARRAY(SELECT format('ALTER INDEX %I ALTER COLUMN %s SET STATISTICS %s',
                                  i.indexname, a.attnum, a.attstattarget)
                      FROM pg_attribute a
                     WHERE a.attrelid = x.oid AND a.attstattarget > 0 ORDER BY a.attnum) AS targets
         FROM pg_indexes i
         CROSS JOIN LATERAL (SELECT to_regclass(quote_ident(i.schemaname) || '.' || quote_ident(i.indexname)) AS oid) x
        WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.oid)`,
      [BULK_TABLES],
    );
    for (const ix of bulkIndexes.rows) await tx.exec(`DROP INDEX "${ix.name}"`);
    // The rebuilds sort in memory up to maintenance_work_mem (default 64 MB); a one-off bulk
    // load on a server may take more. PGlite's WebAssembly heap keeps its default.
    if (db.kind === 'postgres') await tx.exec("SET LOCAL maintenance_work_mem = '512MB'");
    // Batch N+1 is generated while batch N is copied; one COPY runs on the transaction at a time.
    let copying: Promise<void> = Promise.resolve();
    try {
      while (!gen.done()) {
        const batch = await nextBatch(gen, batchSize);
        await copying;
        copying = copyBatch(tx, batch);
        // Awaited before the next batch or after the last; until then a failure must not count
        // as unhandled (Node would end the process).
        copying.catch(() => undefined);
        summary.customers += batch.counts.customers;
        summary.subscriptions.lemonsqueezy += batch.counts.lemonsqueezy;
        summary.subscriptions.clickbank += batch.counts.clickbank;
        summary.accessActive += batch.counts.accessActive;
        summary.members += batch.counts.members;
        summary.events += batch.counts.events;
        summary.clickbankOrders += batch.counts.clickbankOrders;
        summary.isrEvents += batch.counts.isrEvents;
      }
    } finally {
      // Even when generating fails, the transaction ends only after the COPY in flight.
      await copying.catch(() => undefined);
    }
    await copying;
    // The inbox's history comes from the copied rows (./webhooks.ts), before its indexes return.
    summary.webhookDeliveries = await seedWebhookHistory(tx, opts.now);
    for (const ix of bulkIndexes.rows) {
      await tx.exec(ix.def);
      for (const target of ix.targets) await tx.exec(target);
    }
    await triggersOn();
    await tx.query('SELECT metrics_rollup_rebuild()');
    // The month counts behind the overview's access figures (021), off for the COPY too.
    await tx.query('SELECT subscription_months_rebuild()');
    // The dashboard figures' roll-ups (023), off for the COPY too.
    await tx.query('SELECT stats_rebuild()');
    // The list filters' kept counts (027), off for the COPY too.
    await tx.query('SELECT list_filter_counts_rebuild()');
    // The ISR roll-ups' statement triggers (006) were off for the COPY too.
    await tx.query('SELECT isr_rollup_rebuild()');
    await tx.query('SELECT isr_subid_rebuild()');
    // The MRR history was copied as spans (./revenue.ts); its movements and roll-ups follow (015).
    await tx.query('SELECT revenue_rebuild()');
    // The row_counts triggers (003) were off too: recount the two counted tables once.
    await tx.exec(`DELETE FROM row_counts WHERE table_name IN ('subscriptions', 'members');
                   INSERT INTO row_counts (table_name, slot, n)
                     VALUES ('subscriptions', 0, (SELECT count(*) FROM subscriptions)),
                            ('members', 0, (SELECT count(*) FROM members));`);
    // The forum side of the recent access changes (./forum.ts), for the customer page.
    await seedForumJobs(tx, opts.now);
    const logs = gen.logs(SEED_LOG_ROWS);
    await copyRows(tx, 'logs', COPY_COLUMNS.logs, logs.text);
    summary.logs = logs.rows;

    // Explicit ids were copied; move every sequence past them so later inserts do not collide.
    for (const table of SEQUENCED_TABLES) {
      await tx.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1), (SELECT max(id) FROM ${table}) IS NOT NULL)`,
      );
    }
    const meta: Array<[string, string]> = [
      ['seed', String(seed)],
      ['seed_customers', String(opts.customers)],
      ['seed_anchor_day', anchorDay],
      ['seed_version', SEED_VERSION],
      ['seeded_at', opts.now.toISOString()],
    ];
    for (const [key, value] of meta) {
      await tx.query(
        'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
        [key, value],
      );
    }
  });

  // Fresh planner statistics, hint bits and visibility map for the bulk-loaded tables (what
  // autovacuum would do later on a server PostgreSQL): without them, index-only scans visit the
  // heap and every row read checks its inserting transaction — list pages at 100k customers are
  // several times slower until then. Outside the transaction: VACUUM cannot run in one.
  await db.exec(`VACUUM ANALYZE ${VACUUMED_TABLES.join(', ')}`);
  // The bulk load emits no live event: drop any cached dashboard figures (server/stats/cache.ts).
  await invalidateStatsCache({ db });

  summary.subscriptions.total =
    summary.subscriptions.lemonsqueezy + summary.subscriptions.clickbank;
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
