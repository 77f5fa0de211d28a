-- Storefront (issue 8): the catalogue's vocabulary for per-word typo tolerance in search, and
-- newsletter subscriptions.

-- Every distinct word of published products' name, brand, category and description, lower-cased.
-- `form` is what full-text search is given for the word: the word itself, or for a hyphenated
-- compound stored without its hyphens ("tshirt") the original spelling ("t-shirt").
-- Search looks up each misspelt word here by trigram similarity (a few thousand rows even for a
-- million products), so typo tolerance never scans the products table.
CREATE TABLE search_words (
  word text PRIMARY KEY,
  form text NOT NULL
);
CREATE INDEX search_words_word_trgm_idx ON search_words USING gin (word gin_trgm_ops);

CREATE FUNCTION search_words_of(doc text) RETURNS TABLE (word text, form text)
LANGUAGE sql IMMUTABLE AS $$
  SELECT w, w FROM regexp_split_to_table(lower(doc), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 2 AND 40
  UNION
  SELECT replace(m[1], '-', ''), m[1] FROM regexp_matches(lower(doc), '([[:alnum:]]+(?:-[[:alnum:]]+)+)', 'g') AS m
  WHERE length(m[1]) <= 40
$$;

-- Kept fresh by triggers, whoever writes products (admin form, supplier import, seed, SQL).
-- Words of deleted products stay: a stale word only widens a typo's candidates, and suggestions
-- are checked against the catalogue before they are shown.
CREATE FUNCTION search_words_add_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word, form)
  SELECT w.word, min(w.form)
  FROM inserted_products p,
       search_words_of(p.name || ' ' || p.brand || ' ' || p.category || ' ' || p.description) AS w
  WHERE NOT p.is_draft
  GROUP BY w.word
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION search_words_add_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word, form)
  SELECT w.word, min(w.form)
  FROM search_words_of(NEW.name || ' ' || NEW.brand || ' ' || NEW.category || ' ' || NEW.description) AS w
  GROUP BY w.word
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER products_search_words_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted_products FOR EACH STATEMENT EXECUTE FUNCTION search_words_add_inserted();
CREATE TRIGGER products_search_words_update AFTER UPDATE OF name, brand, category, description, is_draft ON products
  FOR EACH ROW WHEN (NOT NEW.is_draft) EXECUTE FUNCTION search_words_add_updated();

INSERT INTO search_words (word, form)
SELECT w.word, min(w.form)
FROM products p, search_words_of(p.name || ' ' || p.brand || ' ' || p.category || ' ' || p.description) AS w
WHERE NOT p.is_draft
GROUP BY w.word
ON CONFLICT (word) DO NOTHING;

-- Newsletter: one row per e-mail address (stored lower-cased). A subscription is confirmed by mail;
-- the token in the mail's unsubscribe link is stored hashed.
CREATE TABLE newsletter_subscriptions (
  id char(24) PRIMARY KEY,
  email text NOT NULL,
  unsubscribe_token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  unsubscribed_at timestamptz
);
CREATE UNIQUE INDEX newsletter_subscriptions_email_key ON newsletter_subscriptions (email);
CREATE UNIQUE INDEX newsletter_subscriptions_token_key ON newsletter_subscriptions (unsubscribe_token_hash);
