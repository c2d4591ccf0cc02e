/**
 * Forum outbox jobs of the demo seed, so the customer page's forum section has something to show:
 * the grant of every subscription that started in the last FORUM_SEED_DAYS before the seeding
 * moment, and the revoke of every member whose access ended in that window, as the webhooks and the
 * expiration run would have written them. Most were sent (a quarter of the grants as
 * invitations: no forum account yet); the newest change's job, and those of the customers whose id
 * is a multiple of 11, failed (12 attempts, Discourse answered HTTP 502), which the customer page
 * offers to retry.
 *
 * Derived in SQL from the seeded rows, so it is deterministic with them, dated at or before the
 * seeding moment, and younger than the outbox retention (7 days for sent jobs) on a fresh start.
 */
import type { Tx } from '../db/types';

/** Days before the seeding moment whose access changes get a forum job. */
export const FORUM_SEED_DAYS = 6;

/** Writes the forum jobs (module doc) after the customers, subscriptions and members → how many. */
export async function seedForumJobs(tx: Tx, now: Date): Promise<number> {
  const r = await tx.query(
    `WITH changes AS (
       SELECT c.id, c.email, 'grant' AS action,
              'webhook.' || s.provider || CASE WHEN s.provider = 'clickbank' THEN '.SALE'
                                               ELSE '.subscription_created' END AS reason,
              s.start_date AS at
         FROM subscriptions s JOIN customers c ON c.id = s.customer_id
        WHERE s.start_date > $1::timestamptz - make_interval(days => $2) AND s.start_date <= $1
       UNION ALL
       SELECT c.id, c.email, 'revoke', 'expiration.scheduler', m.expires_at
         FROM members m JOIN customers c ON c.id = m.customer_id
        WHERE m.mg_status = 'cancelled' AND m.expires_at > $1::timestamptz - make_interval(days => $2)
          AND m.expires_at <= $1)
     INSERT INTO forum_outbox (email, action, reason, state, attempts, created_at, next_attempt_at,
                               last_status, last_error, outcome, finished_at, last_attempt_at,
                               last_error_at)
     SELECT x.email, x.action, x.reason, x.state, x.attempts, x.at, x.at, x.status, x.error,
            x.outcome, x.finished, x.finished, CASE WHEN x.error IS NOT NULL THEN x.finished END
       FROM (
         SELECT ch.email, ch.action, ch.reason, ch.at, ch.failed,
                CASE WHEN ch.failed THEN 'failed' ELSE 'done' END AS state,
                CASE WHEN ch.failed THEN 12 ELSE 1 END AS attempts,
                CASE WHEN ch.failed THEN 502 ELSE 200 END AS status,
                CASE WHEN ch.failed THEN 'Discourse answered HTTP 502' END AS error,
                CASE WHEN ch.failed
                       THEN '{"ok":false,"status":502,"error":"Discourse answered HTTP 502"}'::jsonb
                     WHEN ch.action = 'grant' AND ch.id % 4 = 0
                       THEN '{"ok":true,"invited":true,"groupId":42,"status":200}'::jsonb
                     ELSE '{"ok":true,"status":200}'::jsonb END AS outcome,
                LEAST($1::timestamptz, ch.at + CASE WHEN ch.failed THEN interval '3 hours'
                                                    ELSE interval '2 seconds' END) AS finished
           FROM (SELECT changes.*,
                        changes.id % 11 = 0
                          OR row_number() OVER (ORDER BY changes.at DESC, changes.id DESC) = 1 AS failed
                   FROM changes) ch) x
      ORDER BY x.at, x.email`,
    [now, FORUM_SEED_DAYS],
  );
  return r.affectedRows ?? 0;
}
