-- The live events the console's stream delivers, and the forum (Discourse) outbox.

-- Every live event, kept for a day so that a reconnect with Last-Event-ID can replay what it missed.
-- id is the SSE `id:`; payload is the message the console receives:
-- {type, email, provider, amount_cents, currency, at} (CONTRACT.md "Live events").
CREATE TABLE live_events (
  id       BIGSERIAL PRIMARY KEY,
  type     TEXT NOT NULL CHECK (type IN ('subscription.new', 'subscription.renewal',
             'subscription.cancelled', 'access.granted', 'access.revoked', 'isr.event')),
  at       TIMESTAMPTZ NOT NULL,
  payload  JSONB NOT NULL
);
CREATE INDEX live_events_at_idx ON live_events (at);

-- One forum job per access change, written in the same transaction as the change; a worker runs
-- the pending jobs of each email in id order (state pending → done | failed).
-- reason: what caused it ('access.grant', 'webhook.lemonsqueezy.subscription_created', 'expiration', …).
CREATE TABLE forum_outbox (
  id               BIGSERIAL PRIMARY KEY,
  email            TEXT NOT NULL CHECK (email = lower(email)),
  action           TEXT NOT NULL CHECK (action IN ('grant', 'revoke')),
  reason           TEXT NOT NULL,
  state            TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  created_at       TIMESTAMPTZ NOT NULL,
  next_attempt_at  TIMESTAMPTZ NOT NULL,
  last_status      INTEGER,
  last_error       TEXT,
  outcome          JSONB,
  finished_at      TIMESTAMPTZ
);
CREATE INDEX forum_outbox_pending_idx ON forum_outbox (next_attempt_at, id) WHERE state = 'pending';
CREATE INDEX forum_outbox_email_idx ON forum_outbox (email, id);
