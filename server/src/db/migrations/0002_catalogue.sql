-- Catalogue: products (own and saved supplier products) and their reviews.
CREATE TABLE products (
  id char(24) PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL,
  price numeric(12,2) NOT NULL DEFAULT 0,
  image text NOT NULL DEFAULT '',
  images jsonb NOT NULL DEFAULT '[]'::jsonb,
  category text NOT NULL DEFAULT '',
  brand text NOT NULL DEFAULT '',
  count_in_stock integer NOT NULL DEFAULT 0,
  description text NOT NULL DEFAULT '',
  rating real NOT NULL DEFAULT 0,
  num_reviews integer NOT NULL DEFAULT 0,
  is_todays_deal boolean NOT NULL DEFAULT false,
  is_gift boolean NOT NULL DEFAULT false,
  is_on_sale boolean NOT NULL DEFAULT false,
  sale_discount integer NOT NULL DEFAULT 0,
  cj_data jsonb,
  is_draft boolean NOT NULL DEFAULT false,
  -- The price the shopper pays; mirrors lib/money.ts finalPrice (a property test keeps them equal).
  final_price numeric(12,2) GENERATED ALWAYS AS (
    round(price * (100 - (CASE WHEN is_on_sale THEN sale_discount ELSE 0 END))::numeric / 100, 2)
  ) STORED,
  search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(brand, '')), 'B') ||
    setweight(to_tsvector('english', coalesce(category, '')), 'B') ||
    setweight(to_tsvector('english', coalesce(description, '')), 'C')
  ) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT products_price_nonneg CHECK (price >= 0),
  CONSTRAINT products_count_in_stock_nonneg CHECK (count_in_stock >= 0),
  CONSTRAINT products_sale_discount_range CHECK (sale_discount BETWEEN 0 AND 100)
);
CREATE UNIQUE INDEX products_slug_key ON products (slug);
CREATE INDEX products_search_idx ON products USING gin (search_vector);
CREATE INDEX products_name_trgm_idx ON products USING gin (name gin_trgm_ops);
-- Listing indexes, one per sort order, alone or after an equality on category. Storefront pages
-- find their 12 ids with an index-only scan (see search-products.ts), so each index INCLUDEs the
-- columns the filters read. The storefront only reads published products, so most are partial.
-- Newest first also serves the admin list (drafts included), hence is_draft in INCLUDE, not WHERE.
CREATE INDEX products_created_at_idx ON products (created_at DESC, id DESC) INCLUDE (is_draft, final_price, rating);
CREATE INDEX products_final_price_idx ON products (final_price, id) INCLUDE (rating) WHERE NOT is_draft;
CREATE INDEX products_toprated_idx ON products (rating DESC, num_reviews DESC, id) INCLUDE (final_price) WHERE NOT is_draft;
CREATE INDEX products_category_newest_idx ON products (category, created_at DESC, id DESC) INCLUDE (final_price, rating) WHERE NOT is_draft;
CREATE INDEX products_category_price_idx ON products (category, final_price, id) INCLUDE (rating) WHERE NOT is_draft;
CREATE INDEX products_category_toprated_idx ON products (category, rating DESC, num_reviews DESC, id) INCLUDE (final_price) WHERE NOT is_draft;

CREATE TABLE reviews (
  id char(24) PRIMARY KEY,
  product_id char(24) NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  user_id char(24) REFERENCES users(id) ON DELETE SET NULL,
  name text NOT NULL,
  rating integer NOT NULL CONSTRAINT reviews_rating_range CHECK (rating BETWEEN 1 AND 5),
  comment text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One review per signed-in user and product; concurrent duplicates fail on this index.
CREATE UNIQUE INDEX reviews_product_user_key ON reviews (product_id, user_id);
CREATE INDEX reviews_product_id_idx ON reviews (product_id, created_at DESC);
