-- Variants for the shop's own products (issue 34): a product declares up to three options (such as
-- Size and Colour, with their values) and sells each combination as a variant of its own, in the
-- same product_variants table, cart lines and order lines as supplier variants (0020).

-- The options a product is sold in, in the order the shopper chooses them:
-- [{"name": "Size", "values": ["S", "M", "L"]}, ...]; [] for a product without options.
-- variant_price_max: the highest price among its variants on sale (null without options); the
-- product's own price is then the lowest and count_in_stock the sum of its variants on sale, both
-- kept in step with the variants in the transaction that changes them.
ALTER TABLE products
  ADD COLUMN options jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN variant_price_max numeric(12,2);

-- A variant of an own product: its value of each option ({"Size": "M", "Colour": "Red"}) and the
-- shop's stock-keeping unit ('' when none). Supplier variants keep {} and ''.
ALTER TABLE product_variants
  ADD COLUMN options jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN sku text NOT NULL DEFAULT '';

