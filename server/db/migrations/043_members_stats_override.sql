-- The dashboard figures (GET /stats, GET /status) correct the days left of each subscription with
-- access whose members' earliest scheduled expiry X differs from its own end E (ends_at, else
-- current_period_end; server/stats/aggregate.ts). They read every active member with an expiry:
-- at 1M customers 35,600, of which 34,000 expire exactly at their subscription's own end (a
-- revocation at the period's end, most of them cancelled subscriptions), which changes nothing.
-- 30 ms idle and 47 ms a computation under the load test, the statement PostgreSQL spent most
-- time on there (370 computations a minute: every committed change drops the cached figures;
-- bench/README.md, "Load test").
--
-- members_stats_override_idx holds only the members whose expiry is not their subscription's own
-- end (1,670 at 1M). A member left out (X = E) still matters in one case: another member of the
-- same subscription expires later than E, and then the earliest expiry is E and nothing changes;
-- the statement drops those subscriptions after one probe of members_stats_expiry_idx, now keyed
-- (subscription_id, expires_at) for that probe alone.
CREATE INDEX members_stats_override_idx ON members (subscription_id)
  INCLUDE (expires_at, sub_status, sub_ends_at, sub_current_period_end)
  WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL
    AND expires_at IS DISTINCT FROM COALESCE(sub_ends_at, sub_current_period_end);

DROP INDEX members_stats_expiry_idx;
CREATE INDEX members_stats_expiry_idx ON members (subscription_id, expires_at)
  WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL;

ANALYZE members;
