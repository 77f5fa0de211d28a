import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';

/** The product columns every product query reads (search vector and generated price stay in SQL). */
export const productColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  price: products.price,
  image: products.image,
  images: products.images,
  category: products.category,
  brand: products.brand,
  countInStock: products.countInStock,
  description: products.description,
  rating: products.rating,
  numReviews: products.numReviews,
  isTodaysDeal: products.isTodaysDeal,
  isGift: products.isGift,
  isOnSale: products.isOnSale,
  saleDiscount: products.saleDiscount,
  cjData: products.cjData,
  isDraft: products.isDraft,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
  options: products.options,
  variantPriceMax: products.variantPriceMax,
};

export type ProductRow = {
  id: string;
  name: string;
  slug: string;
  price: number;
  image: string;
  images: string[];
  category: string;
  brand: string;
  countInStock: number;
  description: string;
  rating: number;
  numReviews: number;
  isTodaysDeal: boolean;
  isGift: boolean;
  isOnSale: boolean;
  saleDiscount: number;
  cjData: typeof products.$inferSelect.cjData;
  isDraft: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The shop's own products: the options it is sold in ([] without). */
  options: typeof products.$inferSelect.options;
  /** With options: the highest price of its variants on sale (null without). */
  variantPriceMax: number | null;
};

/** An own product sold in options (its variants are their combinations). */
export const hasOptions = (p: Pick<ProductRow, 'options'>): boolean => Array.isArray(p.options) && p.options.length > 0;

/**
 * Published products only. Written as literal SQL (not a bound `false`) so that the planner can
 * match the partial `WHERE NOT is_draft` indexes.
 */
export const isPublished: SQL = sql`not ${products.isDraft}`;

export async function findProductRow(db: Executor, where: SQL): Promise<ProductRow | undefined> {
  const rows = await db.select(productColumns).from(products).where(where).limit(1);
  return rows[0];
}

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
