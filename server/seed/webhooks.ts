/**
 * The webhook inbox of the demo seed (docs/api.md "Webhook deliveries"): the deliveries that the
 * seeded changes of the last WEBHOOK_SEED_DAYS before the seeding moment arrived as, so the
 * Webhooks screen and the customer page's timeline have a history to show.
 *
 * - **LemonSqueezy:** one delivery per lifecycle event of a LemonSqueezy subscription:
 *   subscription_created (new), subscription_updated (renewal: the store sends it when the period
 *   moves), subscription_cancelled, subscription_expired. The body is the store's envelope
 *   (`meta.event_name`, `meta.webhook_id`) around the subscription object the database holds.
 *   Refunds are left out: the store sends them with an invoice object, which the seed does not keep.
 * - **ClickBank:** one delivery per INS notification in `clickbank_orders`, whose body is the
 *   stored, decrypted notification.
 * - **Outcomes:** every delivery `applied` (HTTP 200) with the effects the server writes, and
 *   every 40th delivered twice: the retry, 30 s later, is a `duplicate`.
 * - Dedup keys follow the live server's (server/webhooks/lemonsqueezy.ts and clickbank.ts), so a
 *   replay of a seeded delivery is a duplicate, as a replay of a live one would be.
 *
 * Derived in SQL from the seeded rows: deterministic with them, at or before the seeding moment.
 */
import type { Tx } from '../db/types';

/** Days before the seeding moment whose deliveries the seed writes. */
export const WEBHOOK_SEED_DAYS = 7;

/** 'YYYY-MM-DDTHH:MM:SS.mmmZ' of a timestamptz column, as Date#toISOString writes it. */
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Writes the deliveries (module doc) after the subscriptions, events and orders → how many rows. */
export async function seedWebhookHistory(tx: Tx, now: Date): Promise<number> {
  const r = await tx.query(
    `WITH ls AS (
       SELECT e.id, e.occurred_at AS at, c.email, s.provider_id,
              CASE e.type WHEN 'new' THEN 'subscription_created' WHEN 'renewal' THEN 'subscription_updated'
                          WHEN 'cancellation' THEN 'subscription_cancelled' ELSE 'subscription_expired' END AS event,
              CASE e.type WHEN 'new' THEN '["subscription.created","event.new","access.grant"]'
                          WHEN 'renewal' THEN '["subscription.updated","event.renewal"]'
                          WHEN 'cancellation' THEN '["subscription.updated","event.cancellation"]'
                          ELSE '["subscription.updated","event.expiration","access.revoke"]' END AS effects,
              s.payload
         FROM subscription_events e
         JOIN subscriptions s ON s.id = e.subscription_id AND s.provider = 'lemonsqueezy'
         JOIN customers c ON c.id = s.customer_id
        WHERE e.occurred_at > $1::timestamptz - make_interval(days => $2) AND e.occurred_at <= $1
          AND e.type IN ('new', 'renewal', 'cancellation', 'expiration')
     ),
     ls_rows AS (
       SELECT at, 'lemonsqueezy' AS provider, event, email, provider_id AS subscription_id,
              'lemonsqueezy:' || event || ':subscriptions:' || provider_id || ':' || ${iso('at')} AS dedup_key,
              effects,
              jsonb_build_object(
                'meta', jsonb_build_object('event_name', event, 'test_mode', false,
                                           'webhook_id', md5('ls-delivery-' || id)::uuid),
                'data', jsonb_set(payload, '{attributes,updated_at}', to_jsonb(${iso('at')}))
              )::text AS body,
              jsonb_build_object('content-type', 'application/json', 'user-agent', 'LemonSqueezy-Hookshot',
                                 'x-event-name', event) AS headers,
              id AS n
         FROM ls
     ),
     cb_rows AS (
       SELECT o.created_at_provider AS at, 'clickbank' AS provider,
              o.raw_json->>'transactionType' AS event, o.email, s.provider_id AS subscription_id,
              'clickbank:' || o.receipt || ':' || (o.raw_json->>'transactionType') || ':'
                || ${iso('o.created_at_provider')} AS dedup_key,
              CASE o.raw_json->>'transactionType'
                WHEN 'SALE' THEN '["subscription.created","order","event.new","access.grant"]'
                WHEN 'BILL' THEN '["order","event.renewal"]'
                WHEN 'RFND' THEN '["order","event.refund"]'
                ELSE '["order"]' END AS effects,
              o.raw_json::text AS body,
              jsonb_build_object('content-type', 'application/json', 'user-agent', 'ClickBank-INS/6.0') AS headers,
              o.id AS n
         FROM clickbank_orders o LEFT JOIN subscriptions s ON s.id = o.subscription_id
        WHERE o.created_at_provider > $1::timestamptz - make_interval(days => $2)
          AND o.created_at_provider <= $1
     ),
     deliveries AS (SELECT * FROM ls_rows UNION ALL SELECT * FROM cb_rows)
     INSERT INTO webhook_deliveries (received_at, provider, event, outcome, http_status, email,
                                     subscription_id, dedup_key, effects, body, body_size, headers)
     SELECT d.at + x.delay, d.provider, d.event, x.outcome, 200, d.email, d.subscription_id,
            d.dedup_key, CASE WHEN x.outcome = 'applied' THEN d.effects::jsonb ELSE '[]'::jsonb END,
            d.body, octet_length(d.body), d.headers
       FROM deliveries d
       CROSS JOIN LATERAL (VALUES ('applied', interval '0'), ('duplicate', interval '30 seconds')) x(outcome, delay)
      WHERE (x.outcome = 'applied' OR d.n % 40 = 0) AND d.at + x.delay <= $1
      ORDER BY 1, d.provider, d.n`,
    [now, WEBHOOK_SEED_DAYS],
  );
  return r.affectedRows ?? 0;
}
