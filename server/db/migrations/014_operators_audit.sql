-- Operator accounts, their invites, two-factor secrets and recovery codes, the console-wide
-- sign-in policy, and the append-only audit trail (docs/api.md "Operators", "Audit").

-- One row per person who signs in to the console. The first (role owner) is created at start-up
-- from ADMIN_EMAIL / ADMIN_PASSWORD when the table is empty; the others are invited by an owner.
-- password_hash is NULL until the invitee sets a password. totp_secret is written at enrolment
-- set-up and only counts once totp_enabled_at is set; totp_last_step is the RFC 6238 time step
-- of the last accepted code, so a code is accepted once.
CREATE TABLE operators (
  id              BIGSERIAL PRIMARY KEY,
  email           TEXT NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
  name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  role            TEXT NOT NULL CHECK (role IN ('viewer', 'support', 'admin', 'owner')),
  password_hash   TEXT,
  password_changed_at TIMESTAMPTZ,
  disabled_at     TIMESTAMPTZ,
  totp_secret     TEXT,
  totp_enabled_at TIMESTAMPTZ,
  totp_last_step  BIGINT,
  created_at      TIMESTAMPTZ NOT NULL,
  updated_at      TIMESTAMPTZ NOT NULL
);

-- Single-use recovery codes (hex SHA-256 of the code; the code itself is shown once).
CREATE TABLE operator_recovery_codes (
  operator_id BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  code_hash   TEXT NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  used_at     TIMESTAMPTZ,
  PRIMARY KEY (operator_id, code_hash)
);

-- One-time invitation links (hex SHA-256 of the token; the token is shown once, to the owner).
CREATE TABLE operator_invites (
  token_hash  TEXT PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  operator_id BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  created_by  BIGINT REFERENCES operators (id),
  created_at  TIMESTAMPTZ NOT NULL,
  expires_at  TIMESTAMPTZ NOT NULL,
  accepted_at TIMESTAMPTZ
);
CREATE INDEX operator_invites_operator_idx ON operator_invites (operator_id);

-- Console-wide settings an owner changes at run time (e.g. require_totp).
CREATE TABLE console_settings (
  key        TEXT PRIMARY KEY,
  value      JSONB NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

-- Sessions belong to an operator and end only by revocation, expiry or idleness: they are no
-- longer derived from the password the server runs with, so an ended session stays ended.
ALTER TABLE admin_sessions ADD COLUMN operator_id BIGINT REFERENCES operators (id) ON DELETE CASCADE;
ALTER TABLE admin_sessions ALTER COLUMN password_fp DROP NOT NULL;
-- Sessions made before operators existed name nobody: they end now.
UPDATE admin_sessions SET revoked_at = now() WHERE revoked_at IS NULL;
CREATE INDEX admin_sessions_operator_idx ON admin_sessions (operator_id) WHERE revoked_at IS NULL;

-- The audit trail: one row per state-changing request, written in the change's transaction.
CREATE TABLE audit_log (
  id             BIGSERIAL PRIMARY KEY,
  at             TIMESTAMPTZ NOT NULL,
  operator_id    BIGINT,
  operator_email TEXT,
  action         TEXT NOT NULL CHECK (action ~ '^[a-z_]+(\.[a-z_]+)+$'),
  target         TEXT,
  outcome        TEXT NOT NULL,
  ip             TEXT,
  user_agent     TEXT,
  detail         JSONB
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_operator_idx ON audit_log (operator_email, at DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC);
CREATE INDEX audit_log_target_idx ON audit_log (lower(target), at DESC);

-- Append-only: no UPDATE ever; no TRUNCATE; DELETE only by the retention purge (which sets
-- mg.audit_purge for its own transaction) and never of a row younger than 30 days, whatever
-- AUDIT_RETENTION_DAYS says.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     AND coalesce(current_setting('mg.audit_purge', true), '') = 'on'
     AND OLD.at < now() - interval '30 days' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE FUNCTION audit_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (TRUNCATE refused)' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_no_truncate();
