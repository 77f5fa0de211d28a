-- Discount codes (issue 34.1). A code is unique whatever its case; its limits are counted from
-- discount_uses (one row per order placed with it) under a lock on the discount's row, so 20
-- simultaneous orders on a code limited to 5 place exactly 5. A use is given back (its row deleted)
-- when the unpaid order expires, is cancelled or deleted, in the transaction that releases its stock.
CREATE TABLE discounts (
  id char(24) PRIMARY KEY,
  code text NOT NULL,
  kind text NOT NULL,
  value numeric(12, 2) NOT NULL DEFAULT 0,
  min_subtotal numeric(12, 2),
  starts_at timestamptz,
  ends_at timestamptz,
  usage_limit integer,
  per_customer_limit integer,
  product_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
  categories jsonb NOT NULL DEFAULT '[]'::jsonb,
  enabled boolean NOT NULL DEFAULT true,
  allow_below_supplier_cost boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT discounts_kind_check CHECK (kind IN ('percent', 'fixed', 'free_shipping')),
  CONSTRAINT discounts_value_range CHECK (value >= 0 AND (kind <> 'percent' OR value <= 100)),
  CONSTRAINT discounts_limits_positive CHECK ((usage_limit IS NULL OR usage_limit >= 1) AND (per_customer_limit IS NULL OR per_customer_limit >= 1))
);
CREATE UNIQUE INDEX discounts_code_lower_key ON discounts (lower(code));
CREATE INDEX discounts_created_at_idx ON discounts (created_at DESC, id DESC);

CREATE TABLE discount_uses (
  order_id char(24) PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  discount_id char(24) NOT NULL REFERENCES discounts (id) ON DELETE CASCADE,
  user_id char(24) REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX discount_uses_discount_user_idx ON discount_uses (discount_id, user_id);

-- The code a shopper applied to their cart, checked again on every cart answer and at checkout.
CREATE TABLE cart_discounts (
  user_id char(24) PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The order keeps the code and what it took off: total_price = items_price - discount_price + shipping_price + tax_price.
ALTER TABLE orders ADD COLUMN discount_code text;
ALTER TABLE orders ADD COLUMN discount_price numeric(12, 2) NOT NULL DEFAULT 0;
ALTER TABLE orders ADD CONSTRAINT orders_discount_price_range CHECK (discount_price >= 0);
-- The dashboard's "discounts given": paid orders with a discount, by day of payment.
CREATE INDEX orders_discounted_paid_idx ON orders (paid_at) WHERE is_paid AND discount_price > 0;
