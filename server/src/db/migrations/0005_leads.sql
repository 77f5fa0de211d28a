-- Sales leads (issue 9): one per customer or guest who shows interest, mostly through the chat.
CREATE TABLE leads (
  id char(24) PRIMARY KEY,
  -- a user id, or a guest id (contains 'guest'); no foreign key: guests have no user row and a
  -- deleted customer's lead stays for the sales history
  user_id text NOT NULL,
  user_name text NOT NULL,
  user_email text NOT NULL,
  interest_level text NOT NULL DEFAULT 'low' CONSTRAINT leads_interest_level_check CHECK (interest_level IN ('high', 'medium', 'low')),
  status text NOT NULL DEFAULT 'new' CONSTRAINT leads_status_check CHECK (status IN ('new', 'contacted', 'qualified', 'converted', 'lost')),
  -- [{productId, name}], most recent first, at most 5
  products_of_interest jsonb NOT NULL DEFAULT '[]'::jsonb,
  last_interaction timestamptz NOT NULL DEFAULT now(),
  notes text NOT NULL DEFAULT '',
  follow_up_date timestamptz,
  -- what the update dialog collects beyond status and notes
  contact_method text,
  qualification_criteria text,
  next_steps text,
  conversion_details text,
  revenue_amount numeric(12,2) CONSTRAINT leads_revenue_nonneg CHECK (revenue_amount >= 0),
  loss_reason text,
  loss_details text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX leads_user_id_key ON leads (user_id);
CREATE INDEX leads_last_interaction_idx ON leads (last_interaction DESC, id DESC);
CREATE INDEX leads_status_idx ON leads (status, last_interaction DESC);
