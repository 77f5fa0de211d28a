-- Changing the e-mail of an account (issue 32): the new address is confirmed by a single-use link
-- mailed to it; until then the account keeps, and signs in with, its old address. The link's token
-- is stored as a SHA-256 hash, like the reset and sign-up links. A newer request (or a password
-- reset) cancels a pending one.
CREATE TABLE email_changes (
  id char(24) PRIMARY KEY,
  user_id char(24) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  new_email text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  cancelled_at timestamptz
);
CREATE INDEX email_changes_user_id_idx ON email_changes (user_id);
