-- Hardening (issue 8).

-- Money: a published product always costs the shopper at least $0.01 after rounding and the sale
-- discount (so a 100 % discount, or a price that rounds to 0, can only exist on a draft). Drafts
-- ("Create Product" placeholders at price 0) stay possible. A published product that breaks the
-- rule today goes back to being a draft (hidden from the storefront) rather than failing the
-- migration; an administrator fixes its price and saves it again.
UPDATE products SET is_draft = true WHERE NOT is_draft AND final_price < 0.01;
ALTER TABLE products ADD CONSTRAINT products_published_min_price CHECK (is_draft OR final_price >= 0.01);

-- Sign-up by e-mail confirmation: POST users/signup stores the request (password already hashed)
-- and mails a single-use link; POST users/confirm-signup with the token creates the account. Only
-- the token's SHA-256 is stored.
CREATE TABLE signup_requests (
  id char(24) PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX signup_requests_email_idx ON signup_requests (lower(email));
