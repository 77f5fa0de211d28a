-- Idempotency-Key (issue 32): the first answer to a money-moving request (place, pay, refund, cancel)
-- per caller and key, replayed to a retry with the same key and request. A row is claimed by the
-- request that inserts it (claim_token, locked_until while it runs), holds the answer once it is
-- done, and is purged by the job runner after 24 hours.
CREATE TABLE idempotency_keys (
  user_id char(24) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  fingerprint text NOT NULL,
  claim_token text,
  locked_until timestamptz,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT idempotency_keys_pkey PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
