-- Back office (issue 9): rollups that keep the dashboard summary to a few hundred rows however many
-- orders there are. Triggers keep them exact in the same transaction as the change (PGlite too).

-- Paid sales per UTC day of payment. Unpaid, expired and deleted orders never count.
CREATE TABLE sales_daily (
  day date PRIMARY KEY,
  sales numeric(14,2) NOT NULL DEFAULT 0,
  num_orders integer NOT NULL DEFAULT 0
);

CREATE FUNCTION sales_daily_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.is_paid = NEW.is_paid AND OLD.paid_at IS NOT DISTINCT FROM NEW.paid_at
     AND OLD.total_price = NEW.total_price THEN
    RETURN NULL; -- delivery, expiry bookkeeping: nothing the rollup counts changed
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.is_paid AND OLD.paid_at IS NOT NULL THEN
    INSERT INTO sales_daily AS s (day, sales, num_orders)
      VALUES ((OLD.paid_at AT TIME ZONE 'UTC')::date, -OLD.total_price, -1)
      ON CONFLICT (day) DO UPDATE SET sales = s.sales + EXCLUDED.sales, num_orders = s.num_orders + EXCLUDED.num_orders;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.is_paid AND NEW.paid_at IS NOT NULL THEN
    INSERT INTO sales_daily AS s (day, sales, num_orders)
      VALUES ((NEW.paid_at AT TIME ZONE 'UTC')::date, NEW.total_price, 1)
      ON CONFLICT (day) DO UPDATE SET sales = s.sales + EXCLUDED.sales, num_orders = s.num_orders + EXCLUDED.num_orders;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER orders_sales_daily AFTER INSERT OR UPDATE OR DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION sales_daily_apply();

INSERT INTO sales_daily (day, sales, num_orders)
  SELECT (paid_at AT TIME ZONE 'UTC')::date, sum(total_price), count(*)
  FROM orders WHERE is_paid AND paid_at IS NOT NULL GROUP BY 1;

-- Products per category, drafts excluded (the category pie chart).
CREATE TABLE product_category_counts (
  category text PRIMARY KEY,
  count integer NOT NULL DEFAULT 0
);

CREATE FUNCTION product_category_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.category = NEW.category AND OLD.is_draft = NEW.is_draft THEN
    RETURN NULL; -- stock, price, reviews: the counts did not change
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.is_draft THEN
    UPDATE product_category_counts SET count = count - 1 WHERE category = OLD.category;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.is_draft THEN
    INSERT INTO product_category_counts AS c (category, count) VALUES (NEW.category, 1)
      ON CONFLICT (category) DO UPDATE SET count = c.count + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER products_category_counts AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION product_category_counts_apply();

INSERT INTO product_category_counts (category, count)
  SELECT category, count(*) FROM products WHERE NOT is_draft GROUP BY category;

-- The admin user list: newest first, and the users card counts accounts by creation time.
CREATE INDEX users_created_at_idx ON users (created_at DESC, id DESC);
-- Admin order list filters by paid / delivered and pages newest first.
CREATE INDEX orders_paid_created_idx ON orders (is_paid, created_at DESC, id DESC);
