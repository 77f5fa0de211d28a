/**
 * What kinds of personal data each table of the shop holds: the backup manifest lists the kinds a
 * backup file contains (and so what its owner must protect, and erase on request). EVERY table of
 * the schema is classified here; personal-data.test.ts fails when one is not (a new table needs a
 * line below, `[]` when it holds no personal data).
 */
export const PERSONAL_DATA_KINDS = {
  identity: 'names and e-mail addresses',
  credentials: 'password hashes and hashed single-use tokens (sign-in sessions, reset, sign-up and e-mail change links)',
  contact: 'postal addresses and phone numbers',
  purchases: 'orders, payments and carts',
  messages: 'chat messages, reviews and notes about customers',
  mail: 'mail sent to customers: recipients and subjects (bodies are sealed with a key not in the backup)',
  network: 'IP addresses and browser descriptions of sign-ins',
} as const;

export type PersonalDataKind = keyof typeof PERSONAL_DATA_KINDS;

export const TABLE_PERSONAL_DATA: Record<string, readonly PersonalDataKind[]> = {
  addresses: ['contact'],
  cart_discounts: ['purchases'], // the discount code a shopper applied to their cart
  cart_items: ['purchases'],
  chat_conversations: ['identity', 'messages'],
  chat_messages: ['identity', 'messages'],
  discount_uses: ['purchases'], // which customer's order holds a use of a discount code
  discounts: [], // the shop's discount codes
  email_changes: ['identity', 'credentials'], // the new address waiting for confirmation, its hashed link
  faq_entries: [], // the shop's FAQ (pages module)
  idempotency_keys: ['contact', 'purchases'], // the first answer to a checkout, payment, refund or cancel (24 h)
  jobs: ['identity'], // payloads may name a customer (mail, supplier orders)
  leads: ['identity', 'contact', 'messages'],
  newsletter_subscriptions: ['identity', 'credentials'],
  order_events: ['purchases', 'messages'], // an order's timeline, with administrators' notes about it
  order_items: ['purchases'],
  order_refunds: ['purchases'],
  orders: ['contact', 'purchases'],
  outbox: ['identity', 'mail'],
  pages: [], // information pages (FAQ, shipping, terms...)
  password_resets: ['credentials'],
  product_category_counts: [],
  product_variants: [], // supplier variants of a product (costs, prices, stock)
  products: [],
  refresh_tokens: ['credentials'],
  reviews: ['identity', 'messages'],
  sales_daily: [],
  schema_migrations: [],
  search_words: [],
  sessions: ['network'],
  shipping_settings: [], // the shop's shipping rates (Admin → Shipping)
  signup_requests: ['identity', 'credentials'],
  supplier_pricing: [], // the shop's pricing rule
  supplier_shipments: ['purchases'], // tracking numbers and states of a customer's order
  supplier_tokens: [], // the supplier's API tokens: secrets of the shop, not personal data
  uploads: [],
  users: ['identity', 'credentials'],
};

export interface PersonalDataSummary {
  /** The kinds present, with their description, in the order of PERSONAL_DATA_KINDS. */
  kinds: Array<{ kind: PersonalDataKind; description: string; tables: string[] }>;
  /** Tables not classified above (listed so the backup says so, and the test fails). */
  unclassified: string[];
}

/** The kinds of personal data in a set of tables (those with rows: an empty table holds none). */
export function personalDataOf(tables: Array<{ name: string; rows: number }>): PersonalDataSummary {
  const byKind = new Map<PersonalDataKind, string[]>();
  const unclassified: string[] = [];
  for (const t of tables) {
    const kinds = TABLE_PERSONAL_DATA[t.name];
    if (!kinds) {
      unclassified.push(t.name);
      continue;
    }
    if (t.rows === 0) continue;
    for (const k of kinds) byKind.set(k, [...(byKind.get(k) ?? []), t.name]);
  }
  const kinds = (Object.keys(PERSONAL_DATA_KINDS) as PersonalDataKind[])
    .filter((k) => byKind.has(k))
    .map((k) => ({ kind: k, description: PERSONAL_DATA_KINDS[k], tables: byKind.get(k)! }));
  return { kinds, unclassified };
}
