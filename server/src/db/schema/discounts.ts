import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orders } from './commerce.ts';
import { createdAtColumn as createdAt, idColumn as id, users } from './users.ts';

/**
 * Discount codes (0100, issue 34.1). `code` is kept upper-case and unique whatever its case.
 * Limits are counted from `discount_uses`, under a lock on the discount's row (place-order.ts).
 */
export const discounts = pgTable(
  'discounts',
  {
    id: id().primaryKey(),
    code: text('code').notNull(),
    kind: text('kind').$type<'percent' | 'fixed' | 'free_shipping'>().notNull(),
    value: numeric('value', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    minSubtotal: numeric('min_subtotal', { precision: 12, scale: 2, mode: 'number' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    productIds: jsonb('product_ids').$type<string[]>().notNull().default([]),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    allowBelowSupplierCost: boolean('allow_below_supplier_cost').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discounts_code_lower_key').on(sql`lower(${t.code})`),
    index('discounts_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    check('discounts_kind_check', sql`${t.kind} IN ('percent', 'fixed', 'free_shipping')`),
  ],
);

/**
 * One row per order placed with a code: the use it holds. Deleted when the unpaid order expires, is
 * cancelled or deleted (the use is given back), in the transaction that releases its stock.
 */
export const discountUses = pgTable(
  'discount_uses',
  {
    orderId: id('order_id').primaryKey().references(() => orders.id, { onDelete: 'cascade' }),
    discountId: id('discount_id').notNull().references(() => discounts.id, { onDelete: 'cascade' }),
    userId: id('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('discount_uses_discount_user_idx').on(t.discountId, t.userId)],
);

/** The code a signed-in shopper applied to their cart (one per cart), checked again on every read. */
export const cartDiscounts = pgTable('cart_discounts', {
  userId: id('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  createdAt: createdAt(),
});
