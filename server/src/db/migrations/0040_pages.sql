-- The shop's information pages (footer: FAQ, Shipping, Returns, Terms, About, Contact), editable in
-- Admin → Pages. The body is Markdown, rendered without raw HTML (issue 23 point 4).
CREATE TABLE pages (
  slug text PRIMARY KEY,
  title text NOT NULL,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The FAQ: shown on the FAQ page and the entries the chat assistant answers from (a message
-- holding one of the keywords gets the answer). Replaced as a whole when the page is saved.
CREATE TABLE faq_entries (
  id text PRIMARY KEY,
  position integer NOT NULL,
  question text NOT NULL,
  answer text NOT NULL,
  keywords text[] NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faq_entries_position_idx ON faq_entries (position);

INSERT INTO faq_entries (id, position, question, answer, keywords) VALUES
('shipping', 1, 'How much is shipping and how long does it take?',
 'Shipping is free on every order. Orders are usually dispatched within 1-2 business days and arrive within 3-7 business days; supplier (CJ) products can take 7-15 business days.',
 ARRAY['shipping', 'ship', 'delivery', 'deliver', 'how long', 'arrive', 'postage', 'courier']),
('returns', 2, 'What is your return policy?',
 'You can return any item within 30 days of delivery for a full refund. Contact us through this chat with your order number and we will send you a return label. Refunds go back to your original payment method within 5 business days of receiving the item.',
 ARRAY['return', 'refund', 'exchange', 'money back', 'send back', 'broken', 'damaged']),
('payment', 3, 'Which payment methods do you accept?',
 'We accept PayPal (including cards through PayPal). Prices are in USD; shipping and tax are $0.00. You pay when you place the order.',
 ARRAY['payment', 'pay', 'paypal', 'credit card', 'card', 'stripe', 'checkout']),
('account', 4, 'How do I manage my account?',
 'Use Sign In at the top of the page to sign in or create an account. If you forgot your password, use the ''Forgot password'' link on the sign-in page to get a reset e-mail.',
 ARRAY['password', 'account', 'sign in', 'login', 'log in', 'sign up', 'register']),
('contact', 5, 'How can I talk to a person?',
 'An administrator answers in this chat whenever one is online. Signed-in customers are connected to them automatically; otherwise leave your question here and we will follow up by e-mail.',
 ARRAY['human', 'person', 'agent', 'someone', 'contact', 'support', 'talk to', 'speak to', 'phone', 'email you']);

INSERT INTO pages (slug, title, body) VALUES
('faq', 'Frequently Asked Questions',
 E'Quick answers to the questions we hear most. The chat assistant (bottom right) answers from the same list, and a person from the shop takes over when one is online.'),
('shipping', 'Shipping Policy',
 E'## Cost\n\nShipping is **free** on every order, with no minimum.\n\n## When your order ships\n\n- Orders are dispatched within **1–2 business days** of payment.\n- Delivery usually takes **3–7 business days**.\n- Products from our supplier catalogue ship directly from the supplier and take **7–15 business days**.\n\n## Tracking\n\nYour order page shows when the order is paid and when it is delivered. Open it from **Order History** in your account menu.\n\n## Problems\n\nIf a parcel is late or arrives damaged, [contact us](/pages/contact) with your order number.'),
('returns', 'Returns & Refunds',
 E'## 30-day returns\n\nYou can return any item within **30 days of delivery** for a full refund.\n\n## How to return\n\n1. [Contact us](/pages/contact) with your order number.\n2. We send you a prepaid return label.\n3. Pack the item in its original packaging if you still have it.\n\n## Refunds\n\nRefunds go back to your original payment method within **5 business days** of receiving the item. Damaged or wrong items are refunded or replaced at no cost to you.'),
('terms', 'Terms of Service',
 E'These terms apply to every order placed in this shop.\n\n## Orders and prices\n\n- Prices are in US dollars and include tax; shipping is free.\n- An order is confirmed once it is paid. Unpaid orders expire after 30 minutes and their items go back on sale.\n- We may cancel an order when an item cannot be delivered; you are then refunded in full.\n\n## Your account\n\nKeep your password to yourself. You can change your details or delete your account at any time from your profile.\n\n## Returns\n\nSee [Returns & Refunds](/pages/returns).\n\n## Privacy\n\nSee the [Privacy Policy](/privacy).\n\n*This is demo text: replace it with your own terms in Admin → Pages.*'),
('about', 'About Us',
 E'We are a small online shop selling everyday products we would use ourselves: clothing, electronics, home goods and more.\n\n## What we care about\n\n- **Fair prices**, with sales marked clearly.\n- **Fast, free shipping** on every order.\n- **Real people** answering in the chat when we are online.\n\nQuestions? Read the [FAQ](/pages/faq) or [contact us](/pages/contact).'),
('contact', 'Contact Us',
 E'We are happy to help with orders, returns and product questions.\n\n- **Chat:** open the chat button at the bottom right of any page. A person answers whenever one is online; otherwise the assistant does and we follow up by e-mail.\n- **E-mail:** support@example.com (we answer within one business day).\n- **Phone:** +1 555 0100, Monday to Friday, 9 AM to 5 PM.\n\nHave your order number ready: you find it in **Order History**.');
