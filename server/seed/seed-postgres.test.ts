/**
 * Seeding and migrating on a real PostgreSQL, PostgreSQL only (TEST_DATABASE_URL):
 * - a plain database owner (no superuser) can migrate and seed: the seed turns the roll-up
 *   triggers off with ALTER TABLE … DISABLE TRIGGER USER instead of session_replication_role,
 *   and gives the same data;
 * - instances starting together on one empty database migrate once and seed once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db';
import type { Db } from '../db/types';
import { seedIfEmpty } from '../main';
import { testConfig } from '../testing/app';
import { seedDemoData } from './index';

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
const role = `mgtest_owner_${suffix}`;
const created: string[] = [];
const NOW = new Date('2026-11-20T10:00:00.000Z');
const TABLES = ['customers', 'subscriptions', 'members', 'subscription_events', 'isr_events'];

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A new empty database (owned by `owner` when given) → its URL, connecting as `user`. */
async function newDatabase(owner?: string): Promise<string> {
  const name = `mgtest_pg_${suffix}_${created.length}`;
  await admin(`CREATE DATABASE ${name}${owner ? ` OWNER ${owner}` : ''}`);
  created.push(name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  if (owner) {
    u.username = owner;
    u.password = 'owner-pw';
  }
  return u.toString();
}

async function fingerprint(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const t of [...TABLES, 'row_counts']) {
    const r = await db.query<{ h: string }>(
      `SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS h FROM ${t} t`,
    );
    parts.push(`${t}:${r.rows[0]?.h}`);
  }
  return parts.join(' ');
}

afterAll(async () => {
  if (!adminUrl) return;
  for (const name of created) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`DROP ROLE IF EXISTS ${role}`);
});

describe.runIf(adminUrl)('PostgreSQL migrations and seed', () => {
  it('a database owner without superuser migrates and seeds the same data as a superuser', async () => {
    await admin(`CREATE ROLE ${role} LOGIN PASSWORD 'owner-pw' NOSUPERUSER NOCREATEDB`);
    const ownerDb = await openDatabase('unused', { databaseUrl: await newDatabase(role) });
    const superDb = await openDatabase('unused', { databaseUrl: await newDatabase() });
    try {
      const su = await ownerDb.query<{ su: string }>(
        `SELECT current_setting('is_superuser') AS su`,
      );
      expect(su.rows[0]?.su).toBe('off');
      const a = await seedDemoData(ownerDb, { customers: 150, seed: 3, now: NOW });
      const b = await seedDemoData(superDb, { customers: 150, seed: 3, now: NOW });
      expect(a.customers).toBe(150);
      expect(await fingerprint(ownerDb)).toBe(await fingerprint(superDb));
      const off = await ownerDb.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'`,
      );
      expect(off.rows[0]?.n).toBe(0);
      expect(b.customers).toBe(150);
    } finally {
      await ownerDb.close();
      await superDb.close();
    }
  }, 120_000);

  it('three instances starting together migrate once and seed once', async () => {
    const url = await newDatabase();
    const log = pino({ level: 'silent' });
    const config = testConfig({ seedCustomers: 120, seedValue: 5 });
    const dbs = await Promise.all(
      [1, 2, 3].map(() => openDatabase('unused', { databaseUrl: url })),
    );
    try {
      await Promise.all(dbs.map((db) => seedIfEmpty(db, config, log, NOW)));
      const [db] = dbs as [Db];
      const r = await db.query<{ customers: number; migrations: number; files: number }>(
        `SELECT (SELECT count(*)::int FROM customers) AS customers,
                (SELECT count(*)::int FROM schema_migrations) AS migrations,
                (SELECT count(DISTINCT version)::int FROM schema_migrations) AS files`,
      );
      expect(r.rows[0]?.customers).toBe(120);
      expect(r.rows[0]?.migrations).toBe(r.rows[0]?.files);
      expect(r.rows[0]?.migrations).toBeGreaterThanOrEqual(8);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  }, 120_000);
});
