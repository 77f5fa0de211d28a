-- Supplier catalogue (CJ Dropshipping), order forwarding and the durable job runner (issue 10).

-- A saved supplier product is a product: cj_data holds the supplier's pid, the variant we sell (vid)
-- and the variants. What the supplier charges us is kept beside our price; a product the supplier
-- stopped selling is flagged (and cannot be bought); supplier_synced_at is the last refresh.
ALTER TABLE products
  ADD COLUMN supplier_cost numeric(12,2) CONSTRAINT products_supplier_cost_nonneg CHECK (supplier_cost >= 0),
  ADD COLUMN supplier_discontinued_at timestamptz,
  ADD COLUMN supplier_synced_at timestamptz;
-- Saving the same supplier product twice updates it: one product per supplier pid.
CREATE UNIQUE INDEX products_cj_pid_key ON products ((cj_data ->> 'pid'));

-- The supplier's API tokens, shared by every instance and kept across restarts (CJ allows a fresh
-- login once per 5 minutes). Tokens are stored encrypted; the API key itself is never stored, only
-- a fingerprint, so that a changed key forces a fresh login.
CREATE TABLE supplier_tokens (
  provider text PRIMARY KEY,
  key_fingerprint text NOT NULL,
  access_token text,
  access_token_expires_at timestamptz,
  refresh_token text,
  refresh_token_expires_at timestamptz,
  last_login_at timestamptz,
  -- one instance at a time renews the tokens; another one waits for the result
  renewing_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Durable background jobs (an outbox): written in the same transaction as the change that causes
-- them, claimed with FOR UPDATE SKIP LOCKED under a lease, retried with backoff. (kind, dedupe_key)
-- is unique, so enqueueing the same work twice is a no-op.
CREATE TABLE jobs (
  id char(24) PRIMARY KEY,
  kind text NOT NULL,
  dedupe_key text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'pending' CONSTRAINT jobs_status_check CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CONSTRAINT jobs_attempts_nonneg CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 10 CONSTRAINT jobs_max_attempts_positive CHECK (max_attempts >= 1),
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  lease_token text,
  last_error text,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX jobs_kind_dedupe_key ON jobs (kind, dedupe_key);
CREATE INDEX jobs_pending_run_at_idx ON jobs (run_at) WHERE status = 'pending';
CREATE INDEX jobs_running_locked_until_idx ON jobs (locked_until) WHERE status = 'running';
CREATE INDEX jobs_kind_created_at_idx ON jobs (kind, created_at DESC, id DESC);
