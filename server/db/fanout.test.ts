/**
 * Live events fan out across server instances through LISTEN/NOTIFY. On PostgreSQL (TEST_DATABASE_URL) the two "instances" are two Db objects with their own
 * pools and LISTEN connections over one database; on PGlite (one process, one connection) they are
 * two AppDeps sharing one Db, which is all the embedded database can be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitLiveEvent, LIVE_EVENTS_CHANNEL, type LiveEventMessage } from '../live/emit';
import { freshDb, testDeps } from '../testing/app';
import { PgPoolDb } from './postgres';
import { testDatabaseUrl } from '../testing/database';
import type { Db } from './types';

const AT = new Date('2026-11-20T12:00:00Z');
let a: Db;
let b: Db;

beforeAll(async () => {
  a = await freshDb();
  const url = testDatabaseUrl(a);
  b = url ? new PgPoolDb({ connectionString: url, max: 2 }) : a;
}, 120_000);

afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
});

/** Collects the messages instance `db` hears on live_events. */
async function listener(db: Db) {
  const heard: LiveEventMessage[] = [];
  const waiters: Array<() => void> = [];
  const stop = await db.listen(LIVE_EVENTS_CHANNEL, (payload) => {
    heard.push(JSON.parse(payload) as LiveEventMessage);
    for (const w of waiters.splice(0)) w();
  });
  /** Resolves once a message for `email` has arrived (rejects after 5 s). */
  const waitFor = (email: string) =>
    new Promise<LiveEventMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event for ${email}`)), 5000);
      const check = () => {
        const m = heard.find((h) => h.email === email);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        } else waiters.push(check);
      };
      check();
    });
  return { heard, stop, waitFor };
}

describe('live event fan-out across instances', () => {
  it('uses two separate pools on PostgreSQL', () => {
    expect(b === a).toBe(a.kind === 'pglite');
  });

  it('a committed event emitted through one instance reaches a listener of the other, once', async () => {
    const depsA = testDeps(a, AT);
    const onB = await listener(b);
    const onA = await listener(a);
    try {
      const sent = await depsA.db.transaction((tx) =>
        emitLiveEvent(tx, {
          type: 'subscription.new',
          email: 'fan@example.com',
          provider: 'lemonsqueezy',
          amount_cents: 4900,
          currency: 'USD',
          at: AT,
        }),
      );
      const got = await onB.waitFor('fan@example.com');
      expect(got).toEqual(sent);
      expect(got).toMatchObject({
        type: 'subscription.new',
        amount_cents: 4900,
        at: AT.toISOString(),
      });
      // The emitting instance hears it too (its own streams), and each listener exactly once.
      await onA.waitFor('fan@example.com');
      expect(onB.heard.filter((m) => m.email === 'fan@example.com')).toHaveLength(1);
      expect(onA.heard.filter((m) => m.email === 'fan@example.com')).toHaveLength(1);
    } finally {
      await onB.stop();
      await onA.stop();
    }
  });

  it('a rolled-back event reaches no instance', async () => {
    const onB = await listener(b);
    try {
      await expect(
        a.transaction(async (tx) => {
          await emitLiveEvent(tx, {
            type: 'access.revoked',
            email: 'rolledback@example.com',
            provider: null,
            amount_cents: null,
            currency: null,
            at: AT,
          });
          throw new Error('change refused');
        }),
      ).rejects.toThrow('change refused');
      // NOTIFYs arrive in commit order: once a later committed event is heard, the rolled-back
      // one would already have been.
      await a.transaction((tx) =>
        emitLiveEvent(tx, {
          type: 'access.granted',
          email: 'marker@example.com',
          provider: null,
          amount_cents: null,
          currency: null,
          at: AT,
        }),
      );
      await onB.waitFor('marker@example.com');
      expect(onB.heard.map((m) => m.email)).not.toContain('rolledback@example.com');
      const rows = await b.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM live_events WHERE payload->>'email' = 'rolledback@example.com'`,
      );
      expect(rows.rows[0]?.n).toBe(0);
    } finally {
      await onB.stop();
    }
  });

  it('after unsubscribing, a listener hears nothing more while another on the channel still does', async () => {
    const first = await listener(b);
    const second = await listener(b);
    await first.stop();
    await a.transaction((tx) =>
      emitLiveEvent(tx, {
        type: 'isr.event',
        email: 'after@example.com',
        provider: 'clickbank',
        amount_cents: 100,
        currency: 'USD',
        at: AT,
      }),
    );
    await second.waitFor('after@example.com');
    await second.stop();
    expect(first.heard.map((m) => m.email)).not.toContain('after@example.com');
  });
});
