/**
 * claimDedup (server/webhooks/common.ts): the first claim of a key wins, a repeat loses, and the
 * old rows it prunes on the way are never a reason for two deliveries to wait for each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/types';
import { openTestDatabase } from '../testing/database';
import { claimDedup, WEBHOOK_DEDUP_RETENTION_DAYS } from './common';

const NOW = new Date('2026-11-20T12:00:00Z');
const OLD = new Date(NOW.getTime() - (WEBHOOK_DEDUP_RETENTION_DAYS + 1) * 86_400_000);

let db: Db;
beforeAll(async () => {
  db = await openTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const oldRows = async (n: number) => {
  await db.query(
    `INSERT INTO webhook_dedup (id, provider, received_at)
     SELECT 'old-' || g || '-' || $2, 'lemonsqueezy', $1 FROM generate_series(1, $3) g`,
    [OLD, Math.random().toString(36).slice(2), n],
  );
};

describe('claimDedup', () => {
  it('claims a key once and prunes rows past the retention', async () => {
    await oldRows(3);
    expect(await db.transaction((tx) => claimDedup(tx, 'k-1', 'lemonsqueezy', NOW))).toBe(true);
    expect(await db.transaction((tx) => claimDedup(tx, 'k-1', 'lemonsqueezy', NOW))).toBe(false);
    const left = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_dedup WHERE received_at < $1`,
      [NOW],
    );
    expect(left.rows[0]?.n).toBe(0);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'lets a second delivery commit while the first, pruning the same old rows, is still open (PostgreSQL)',
    async () => {
      await oldRows(5);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let claimed: () => void = () => undefined;
      const firstClaimed = new Promise<void>((resolve) => (claimed = resolve));
      const first = db.transaction(async (tx) => {
        await claimDedup(tx, 'k-first', 'lemonsqueezy', NOW);
        claimed();
        await held;
      });
      await firstClaimed;
      await oldRows(5);
      const second = await Promise.race([
        db
          .transaction((tx) => claimDedup(tx, 'k-second', 'lemonsqueezy', NOW))
          .then(() => 'committed'),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 3000)),
      ]);
      release();
      await first;
      expect(second).toBe('committed');
    },
  );
});
