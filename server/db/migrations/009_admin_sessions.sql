-- Server-side admin sessions, so a session can end (logout, password change,
-- idle time-out) and several server instances over one database share them.
-- id_hash: hex SHA-256 of the random session id carried as the token's `sid` claim (the id itself
-- is never stored). password_fp: fingerprint of the admin password hash the session was created
-- under; a server started with another password no longer accepts the session.
CREATE TABLE admin_sessions (
  id_hash       TEXT PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  email         TEXT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL,
  expires_at    TIMESTAMPTZ NOT NULL,
  revoked_at    TIMESTAMPTZ,
  password_fp   TEXT NOT NULL,
  user_agent    TEXT,
  ip            TEXT
);
-- Clean-up of long-expired rows (at sign-in).
CREATE INDEX admin_sessions_expires_at_idx ON admin_sessions (expires_at);
