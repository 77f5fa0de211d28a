import { date, integer, numeric, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * Paid sales per UTC day of payment, kept by the orders_sales_daily trigger (0007, 0015). A day has
 * up to 16 rows, one per shard of the order id, so concurrent payments do not queue on one row:
 * read a day as the sum of its shards.
 */
export const salesDaily = pgTable('sales_daily', {
  day: date('day', { mode: 'string' }).notNull(),
  sales: numeric('sales', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
  numOrders: integer('num_orders').notNull().default(0),
  shard: smallint('shard').notNull().default(0),
  /** Refunds given that UTC day (order_refunds_sales_daily trigger, 0070): net sales are sales - refunds. */
  refunds: numeric('refunds', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ name: 'sales_daily_pkey', columns: [t.day, t.shard] })]);

/** Published products per category, kept by the products_category_counts trigger (0007). */
export const productCategoryCounts = pgTable('product_category_counts', {
  category: text('category').primaryKey(),
  count: integer('count').notNull().default(0),
});
