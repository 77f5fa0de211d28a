-- Shipping settings (issue 34 point 3): one record checkout charges from and the Shipping page, the
-- FAQ and the assistant describe. No row: the specification's shipping 0 (and items from the
-- dropshipping catalogue cost nothing extra to ship: their freight is in their price).
CREATE TABLE shipping_settings (
  id text PRIMARY KEY DEFAULT 'default' CONSTRAINT shipping_settings_single CHECK (id = 'default'),
  flat_rate numeric(12,2) NOT NULL DEFAULT 0 CONSTRAINT shipping_settings_flat_rate_nonneg CHECK (flat_rate >= 0),
  free_over numeric(12,2) CONSTRAINT shipping_settings_free_over_nonneg CHECK (free_over >= 0),
  country_rates jsonb NOT NULL DEFAULT '[]'::jsonb,
  supplier_freight text NOT NULL DEFAULT 'included' CONSTRAINT shipping_settings_supplier_freight CHECK (supplier_freight IN ('charge', 'included')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The shipped texts say what the settings say (placeholders filled when shown) and no longer name the
-- supplier (issue 34 point 4). Only texts still as shipped are changed: an owner's edits are kept.
UPDATE faq_entries SET answer = '{{shipping.summary}} Orders are usually dispatched within 1-2 business days and arrive within 3-7 business days. {{shipping.standard}}'
WHERE id = 'shipping' AND answer = 'Shipping is free on every order. Orders are usually dispatched within 1-2 business days and arrive within 3-7 business days; supplier (CJ) products can take 7-15 business days.';

UPDATE faq_entries SET answer = 'We accept PayPal (including cards through PayPal). Prices are in USD and tax is $0.00. {{shipping.summary}} You pay when you place the order.'
WHERE id = 'payment' AND answer = 'We accept PayPal (including cards through PayPal). Prices are in USD; shipping and tax are $0.00. You pay when you place the order.';

UPDATE pages SET body = E'## Cost\n\n{{shipping.summary}}\n\n## When your order ships\n\n- Orders are dispatched within **1–2 business days** of payment.\n- Delivery usually takes **3–7 business days**.\n- {{shipping.standard}}\n\n## Tracking\n\nYour order page shows when the order is paid, when it ships (with the carrier and a tracking link) and when it is delivered. Open it from **Order History** in your account menu.\n\n## Problems\n\nIf a parcel is late or arrives damaged, [contact us](/pages/contact) with your order number.'
WHERE slug = 'shipping' AND body = E'## Cost\n\nShipping is **free** on every order, with no minimum.\n\n## When your order ships\n\n- Orders are dispatched within **1–2 business days** of payment.\n- Delivery usually takes **3–7 business days**.\n- Products from our supplier catalogue ship directly from the supplier and take **7–15 business days**.\n\n## Tracking\n\nYour order page shows when the order is paid and when it is delivered. Open it from **Order History** in your account menu.\n\n## Problems\n\nIf a parcel is late or arrives damaged, [contact us](/pages/contact) with your order number.';

UPDATE pages SET body = replace(body, E'- Prices are in US dollars and include tax; shipping is free.\n', E'- Prices are in US dollars and include tax. {{shipping.summary}}\n')
WHERE slug = 'terms';

UPDATE pages SET body = replace(body, E'- **Fast, free shipping** on every order.\n', E'- **Fast shipping.** {{shipping.summary}}\n')
WHERE slug = 'about';
