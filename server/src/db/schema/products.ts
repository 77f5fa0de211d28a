import { sql } from 'drizzle-orm';
import {
  boolean, check, customType, index, integer, jsonb, numeric, pgTable, real, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id, users } from './users.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** An option a product is sold in (Size with S, M, L), in the order the shopper chooses them. */
export interface ProductOptionData {
  name: string;
  values: string[];
}

export interface CjData {
  pid: string;
  variants: Array<{ vid: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

export const products = pgTable(
  'products',
  {
    id: id().primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    image: text('image').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    category: text('category').notNull().default(''),
    brand: text('brand').notNull().default(''),
    countInStock: integer('count_in_stock').notNull().default(0),
    description: text('description').notNull().default(''),
    rating: real('rating').notNull().default(0),
    numReviews: integer('num_reviews').notNull().default(0),
    isTodaysDeal: boolean('is_todays_deal').notNull().default(false),
    isGift: boolean('is_gift').notNull().default(false),
    isOnSale: boolean('is_on_sale').notNull().default(false),
    saleDiscount: integer('sale_discount').notNull().default(0),
    /** Supplier (CJ) data for imported products; null for our own. */
    cjData: jsonb('cj_data').$type<CjData>(),
    /** Drafts are created by "Create Product" and stay out of the storefront until saved valid. */
    isDraft: boolean('is_draft').notNull().default(false),
    /** Price the shopper pays; mirrors lib/money.ts finalPrice (kept in sync by a test). */
    finalPrice: numeric('final_price', { precision: 12, scale: 2, mode: 'number' }).generatedAlwaysAs(
      sql`round(price * (100 - (case when is_on_sale then sale_discount else 0 end))::numeric / 100, 2)`,
    ),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(brand, '')), 'B') || setweight(to_tsvector('english', coalesce(category, '')), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')`,
    ),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Supplier products: what the supplier charges us per unit (our margin is price - cost). */
    supplierCost: numeric('supplier_cost', { precision: 12, scale: 2, mode: 'number' }),
    /** Set when the supplier stopped selling it: such a product cannot be bought. */
    supplierDiscontinuedAt: timestamp('supplier_discontinued_at', { withTimezone: true }),
    /** Last time cost and stock were refreshed from the supplier. */
    supplierSyncedAt: timestamp('supplier_synced_at', { withTimezone: true }),
    /** Set by the refresh when the supplier's cost rose above our price: not sold until repriced or confirmed. */
    supplierBelowCostAt: timestamp('supplier_below_cost_at', { withTimezone: true }),
    /** The shop's own products: the options it is sold in ([] without options; 0080). */
    options: jsonb('options').$type<ProductOptionData[]>().notNull().default([]),
    /** With options: the highest price of its variants on sale (`price` is the lowest); null without. */
    variantPriceMax: numeric('variant_price_max', { precision: 12, scale: 2, mode: 'number' }),
  },
  (t) => [
    uniqueIndex('products_slug_key').on(t.slug),
    index('products_search_idx').using('gin', t.searchVector),
    index('products_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    // Listing indexes (the migration adds their INCLUDE columns for index-only page lookups).
    index('products_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('products_final_price_idx').on(t.finalPrice, t.id).where(sql`not ${t.isDraft}`),
    index('products_toprated_idx').on(t.rating.desc(), t.numReviews.desc(), t.id).where(sql`not ${t.isDraft}`),
    index('products_category_newest_idx').on(t.category, t.createdAt.desc(), t.id.desc()).where(sql`not ${t.isDraft}`),
    index('products_category_price_idx').on(t.category, t.finalPrice, t.id).where(sql`not ${t.isDraft}`),
    index('products_category_toprated_idx').on(t.category, t.rating.desc(), t.numReviews.desc(), t.id).where(sql`not ${t.isDraft}`),
    check('products_price_nonneg', sql`${t.price} >= 0`),
    check('products_count_in_stock_nonneg', sql`${t.countInStock} >= 0`),
    check('products_sale_discount_range', sql`${t.saleDiscount} between 0 and 100`),
    uniqueIndex('products_cj_pid_key').on(sql`(${t.cjData} ->> 'pid')`),
    check('products_supplier_cost_nonneg', sql`${t.supplierCost} >= 0`),
    // A published product is never free: at least $0.01 after rounding and the discount (0004).
    check('products_published_min_price', sql`${t.isDraft} or ${t.finalPrice} >= 0.01`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id().primaryKey(),
    productId: id('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    userId: id('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reviews_product_user_key').on(t.productId, t.userId),
    index('reviews_product_id_idx').on(t.productId, t.createdAt.desc()),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * The variants of a product, each sold on its own with its own price and stock: a supplier product's
 * variants (vid is the supplier's), or the combinations of an own product's options (vid is the id).
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: id().primaryKey(),
    productId: id('product_id').notNull().references(() => products.id, { onDelete: 'cascade' }),
    vid: text('vid').notNull(),
    name: text('name').notNull().default(''),
    variantKey: text('variant_key').notNull().default(''),
    image: text('image').notNull().default(''),
    supplierCost: numeric('supplier_cost', { precision: 12, scale: 2, mode: 'number' }),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    countInStock: integer('count_in_stock').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** An own product's variant: its value of each option ({ Size: 'M', Colour: 'Red' }); {} for supplier variants. */
    options: jsonb('options').$type<Record<string, string>>().notNull().default({}),
    /** The shop's stock-keeping unit ('' when none). */
    sku: text('sku').notNull().default(''),
  },
  (t) => [
    uniqueIndex('product_variants_product_vid_key').on(t.productId, t.vid),
    index('product_variants_product_id_idx').on(t.productId, t.position),
    check('product_variants_cost_nonneg', sql`${t.supplierCost} >= 0`),
    check('product_variants_price_nonneg', sql`${t.price} >= 0`),
    check('product_variants_stock_nonneg', sql`${t.countInStock} >= 0`),
  ],
);
