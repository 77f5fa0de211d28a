-- Supplier variants, the pricing rule, tracking back to the customer (issue 20).

-- Every variant of a saved supplier product is sellable on its own: its own selling price and
-- stock, what the supplier charges for it, and a switch to stop selling it.
CREATE TABLE product_variants (
  id char(24) PRIMARY KEY,
  product_id char(24) NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  vid text NOT NULL,
  name text NOT NULL DEFAULT '',
  variant_key text NOT NULL DEFAULT '',
  image text NOT NULL DEFAULT '',
  supplier_cost numeric(12,2) CONSTRAINT product_variants_cost_nonneg CHECK (supplier_cost >= 0),
  price numeric(12,2) NOT NULL CONSTRAINT product_variants_price_nonneg CHECK (price >= 0),
  count_in_stock integer NOT NULL DEFAULT 0 CONSTRAINT product_variants_stock_nonneg CHECK (count_in_stock >= 0),
  enabled boolean NOT NULL DEFAULT true,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX product_variants_product_vid_key ON product_variants (product_id, vid);
CREATE INDEX product_variants_product_id_idx ON product_variants (product_id, position);

-- Products saved before variants existed keep selling the one variant they sold: it becomes a
-- variant row with the product's price, stock and cost (the other variants come on the next save).
INSERT INTO product_variants (id, product_id, vid, name, variant_key, image, supplier_cost, price, count_in_stock, enabled, position)
SELECT substr(md5(p.id || (p.cj_data ->> 'vid')), 1, 24), p.id, p.cj_data ->> 'vid',
       coalesce(v ->> 'variantNameEn', ''), coalesce(v ->> 'variantKey', ''), coalesce(v ->> 'variantImage', ''),
       p.supplier_cost, p.price, p.count_in_stock, true, 0
FROM products p
LEFT JOIN LATERAL (
  SELECT x AS v FROM jsonb_array_elements(coalesce(p.cj_data -> 'variants', '[]'::jsonb)) x
  WHERE x ->> 'vid' = p.cj_data ->> 'vid' LIMIT 1
) pick ON true
WHERE p.cj_data ->> 'vid' IS NOT NULL;

-- A cart line is a product and, for products with variants, one variant ('' for none): two
-- variants of one product are two lines.
ALTER TABLE cart_items ADD COLUMN variant_id text NOT NULL DEFAULT '';
ALTER TABLE cart_items DROP CONSTRAINT cart_items_pkey;
ALTER TABLE cart_items ADD CONSTRAINT cart_items_pkey PRIMARY KEY (user_id, product_id, variant_id);

-- An order line keeps the variant it sold (null for products without variants).
ALTER TABLE order_items
  ADD COLUMN variant_id char(24),
  ADD COLUMN variant_name text;

-- A supplier product whose cost rose above its selling price (flagged by the refresh): it is not
-- sold until an administrator saves a new price or confirms selling below cost.
ALTER TABLE products ADD COLUMN supplier_below_cost_at timestamptz;

-- The pricing rule that fills the price of newly imported supplier products and variants.
CREATE TABLE supplier_pricing (
  id text PRIMARY KEY DEFAULT 'default' CONSTRAINT supplier_pricing_single CHECK (id = 'default'),
  markup_percent numeric(7,2) NOT NULL DEFAULT 50 CONSTRAINT supplier_pricing_markup_range CHECK (markup_percent >= 0 AND markup_percent <= 1000),
  fixed_amount numeric(12,2) NOT NULL DEFAULT 0 CONSTRAINT supplier_pricing_fixed_nonneg CHECK (fixed_amount >= 0),
  rounding text NOT NULL DEFAULT '.99' CONSTRAINT supplier_pricing_rounding CHECK (rounding IN ('.99', '.00')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What the supplier says about a forwarded order: its status, tracking number and carrier, polled
-- by the supplier.tracking job. shipped_mail_at: the customer's "your order has shipped" e-mail
-- was recorded (once, in the statement that stored the first tracking number).
CREATE TABLE supplier_shipments (
  order_id char(24) PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  cj_order_id text NOT NULL,
  status text NOT NULL DEFAULT '',
  tracking_number text,
  carrier text,
  checked_at timestamptz NOT NULL DEFAULT now(),
  shipped_at timestamptz,
  delivered_at timestamptz,
  shipped_mail_at timestamptz
);
CREATE INDEX supplier_shipments_open_idx ON supplier_shipments (checked_at) WHERE delivered_at IS NULL;
