-- Forum sync through an outbox: what the forum worker (server/outbox/worker.ts) needs on top of the
-- forum_outbox table of 008.
--
-- A worker claims one pending job at a time in a short transaction (FOR UPDATE SKIP LOCKED) and
-- leases it until locked_until; claim_token names that claim so a runner whose lease ran out
-- cannot overwrite the result of the runner that took the job over. A runner that dies leaves a
-- lease that simply runs out, and the job is claimed again (at-least-once; grant and revoke are
-- idempotent on the forum).
-- rate_limited counts the attempts Discourse answered 429: they wait exactly extras.wait_seconds
-- and do not count towards the maximum number of attempts.
-- last_attempt_at / last_error_at: when the job last ran / last failed (GET /status "last error").
ALTER TABLE forum_outbox
  ADD COLUMN locked_until     TIMESTAMPTZ,
  ADD COLUMN claim_token      TEXT,
  ADD COLUMN rate_limited     INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN last_attempt_at  TIMESTAMPTZ,
  ADD COLUMN last_error_at    TIMESTAMPTZ;

-- The head-of-line test of the claim ("no earlier pending job of this email") and the backlog figures.
CREATE INDEX forum_outbox_pending_email_idx ON forum_outbox (email, id) WHERE state = 'pending';
CREATE INDEX forum_outbox_last_error_idx ON forum_outbox (last_error_at) WHERE last_error_at IS NOT NULL;
CREATE INDEX forum_outbox_finished_idx ON forum_outbox (finished_at) WHERE state <> 'pending';
