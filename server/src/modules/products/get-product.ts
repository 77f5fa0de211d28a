import { PRODUCT_FORM_MESSAGES, type Product } from '@shop/contracts';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products, reviews } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { findProductRow, isPublished, type ProductRow } from './product-rows.ts';
import { presentProduct, type ReviewRow } from './products.presenter.ts';

/** Reviews shown with a product: the newest ones (numReviews still counts them all). */
export const PRODUCT_REVIEWS_LIMIT = 100;

export async function listProductReviews(db: Executor, productId: string, limit = PRODUCT_REVIEWS_LIMIT): Promise<ReviewRow[]> {
  return db
    .select({ id: reviews.id, name: reviews.name, rating: reviews.rating, comment: reviews.comment, createdAt: reviews.createdAt })
    .from(reviews)
    .where(eq(reviews.productId, productId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit);
}

async function findWithReviews(db: Executor, where: SQL): Promise<Product> {
  const row = await findProductRow(db, where);
  if (!row) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  return presentProduct(row, { reviews: await listProductReviews(db, row.id), withDraftFlag: row.isDraft });
}

/** A product by id with its reviews. Drafts are visible to administrators only (the edit page). */
export async function getProductById(db: Executor, id: string, opts: { includeDrafts: boolean }): Promise<Product> {
  if (!isId(id)) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  return findWithReviews(db, opts.includeDrafts ? eq(products.id, id) : (and(eq(products.id, id), isPublished) as SQL));
}

/** A published product by slug with its reviews, newest first (the product page). */
export async function getProductBySlug(db: Executor, slug: string): Promise<Product> {
  if (!slug || slug.length > 200) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  return findWithReviews(db, and(eq(products.slug, slug), isPublished) as SQL);
}

/** The raw published row for a slug (SEO tags), or undefined. */
export async function findPublishedProductBySlug(db: Executor, slug: string): Promise<ProductRow | undefined> {
  if (!slug || slug.length > 200) return undefined;
  return findProductRow(db, and(eq(products.slug, slug), isPublished) as SQL);
}
