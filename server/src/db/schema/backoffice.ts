import { date, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';

/** Paid sales per UTC day of payment, kept by the orders_sales_daily trigger (0007). */
export const salesDaily = pgTable('sales_daily', {
  day: date('day', { mode: 'string' }).primaryKey(),
  sales: numeric('sales', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
  numOrders: integer('num_orders').notNull().default(0),
});

/** Published products per category, kept by the products_category_counts trigger (0007). */
export const productCategoryCounts = pgTable('product_category_counts', {
  category: text('category').primaryKey(),
  count: integer('count').notNull().default(0),
});
