-- The webhook inbox (docs/api.md "Webhook deliveries"): one row per delivery that reached
-- /webhooks/lemonsqueezy or /webhooks/clickbank, whatever its outcome. `body` is the verified
-- delivery (LemonSqueezy: the raw JSON as received; ClickBank: the decrypted notification); an
-- unverified one keeps only `body_size` (bytes received). `headers` never holds a signature or a
-- secret. `dedup_key` names the change an applied delivery made, so a replay after the dedup row
-- has been pruned still finds it applied.
CREATE TABLE webhook_deliveries (
  id              BIGSERIAL PRIMARY KEY,
  received_at     TIMESTAMPTZ NOT NULL,
  provider        TEXT NOT NULL CHECK (provider IN ('lemonsqueezy', 'clickbank')),
  event           TEXT,
  outcome         TEXT NOT NULL CHECK (outcome IN ('applied', 'duplicate', 'refused_signature',
                                                   'invalid', 'ignored_test', 'ignored', 'failed')),
  http_status     INTEGER NOT NULL,
  error           TEXT,
  email           TEXT,
  subscription_id TEXT,
  dedup_key       TEXT,
  effects         JSONB NOT NULL DEFAULT '[]'::jsonb,
  body            TEXT,
  body_size       INTEGER NOT NULL,
  headers         JSONB NOT NULL DEFAULT '{}'::jsonb,
  replayed_at     TIMESTAMPTZ,
  replay_outcome  TEXT
);

-- The list reads newest first, alone or behind one equality filter; each filter has an index in
-- that order, so a page is the first rows of one index range and never a sort of every match.
CREATE INDEX webhook_deliveries_time_idx ON webhook_deliveries (received_at DESC, id DESC);
CREATE INDEX webhook_deliveries_provider_idx ON webhook_deliveries (provider, received_at DESC, id DESC);
CREATE INDEX webhook_deliveries_outcome_idx ON webhook_deliveries (outcome, received_at DESC, id DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event, received_at DESC, id DESC);
CREATE INDEX webhook_deliveries_email_idx ON webhook_deliveries (email, received_at DESC, id DESC);
-- A delivery or replay looks for an earlier application of the same change.
CREATE INDEX webhook_deliveries_dedup_idx ON webhook_deliveries (dedup_key)
  WHERE outcome = 'applied' OR replay_outcome = 'applied';
