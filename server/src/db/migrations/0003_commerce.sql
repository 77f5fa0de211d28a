-- Cart, address book, orders and payments (issue 4).

CREATE TABLE cart_items (
  user_id char(24) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- no foreign key: a deleted product drops out of the cart with a notice
  product_id char(24) NOT NULL,
  quantity integer NOT NULL CHECK (quantity >= 1),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT cart_items_pkey PRIMARY KEY (user_id, product_id)
);

CREATE TABLE addresses (
  id char(24) PRIMARY KEY,
  user_id char(24) NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  full_name text NOT NULL,
  address text NOT NULL,
  city text NOT NULL,
  postal_code text NOT NULL,
  country text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX addresses_user_id_idx ON addresses (user_id, created_at);
-- exactly one default per user (at most one here; the use cases keep at least one)
CREATE UNIQUE INDEX addresses_one_default_key ON addresses (user_id) WHERE is_default;
-- the duplicate rule, also under concurrency
CREATE UNIQUE INDEX addresses_dedupe_key ON addresses (
  user_id, lower(btrim(address)), lower(btrim(city)), lower(btrim(postal_code)), lower(btrim(country))
);

CREATE TABLE orders (
  id char(24) PRIMARY KEY,
  user_id char(24) REFERENCES users(id) ON DELETE SET NULL,
  shipping_address jsonb NOT NULL,
  payment_method text NOT NULL,
  items_price numeric(12,2) NOT NULL CHECK (items_price >= 0),
  shipping_price numeric(12,2) NOT NULL CHECK (shipping_price >= 0),
  tax_price numeric(12,2) NOT NULL CHECK (tax_price >= 0),
  total_price numeric(12,2) NOT NULL CHECK (total_price >= 0),
  currency text NOT NULL DEFAULT 'USD',
  is_paid boolean NOT NULL DEFAULT false,
  paid_at timestamptz,
  payment_provider text,
  payment_id text,
  payment_result jsonb,
  paypal_order_id text,
  is_delivered boolean NOT NULL DEFAULT false,
  delivered_at timestamptz,
  expires_at timestamptz,
  stock_released_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT orders_paid_has_payment CHECK (NOT is_paid OR (paid_at IS NOT NULL AND payment_id IS NOT NULL)),
  CONSTRAINT orders_paid_not_released CHECK (NOT (is_paid AND stock_released_at IS NOT NULL))
);
CREATE INDEX orders_user_id_idx ON orders (user_id, created_at);
CREATE INDEX orders_created_at_idx ON orders (created_at);
CREATE INDEX orders_unpaid_expiry_idx ON orders (expires_at) WHERE NOT is_paid AND stock_released_at IS NULL;
-- one capture pays one order
CREATE UNIQUE INDEX orders_payment_id_key ON orders (payment_id);

CREATE TABLE order_items (
  id char(24) PRIMARY KEY,
  order_id char(24) NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  -- no foreign key: an order keeps its lines when a product is deleted
  product_id char(24) NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  image text NOT NULL,
  price numeric(12,2) NOT NULL CHECK (price >= 0),
  quantity integer NOT NULL CHECK (quantity >= 1),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX order_items_order_id_idx ON order_items (order_id, position);
CREATE INDEX order_items_product_id_idx ON order_items (product_id);
