import { PRODUCT_FORM_MESSAGES, type Product } from '@shop/contracts';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.ts';
import type { Executor } from '../../db/client.ts';
import { products, reviews } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { hasOptions, isPublished, productColumns, type ProductRow } from './product-rows.ts';
import { findVariants } from './product-variants.ts';
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

interface ReviewJson { id: string; name: string; rating: number; comment: string; createdAt: string }

type ProductLookup = 'slug' | 'id' | 'published-id';

/** The statement of each lookup, built once per database handle (placeholder `key`), then only executed. */
const lookupStatement = builtOnce<ProductLookup, ReturnType<typeof buildLookup>>();

/** One round trip: the product row and its newest reviews as a JSON array. */
function buildLookup(db: Executor, lookup: ProductLookup) {
  const key = sql.placeholder('key');
  const where = lookup === 'slug' ? and(eq(products.slug, key), isPublished) as SQL
    : lookup === 'id' ? eq(products.id, key) : and(eq(products.id, key), isPublished) as SQL;
  return db
    .select({
      ...productColumns,
      reviews: sql<ReviewJson[] | string | null>`(
        select json_agg(json_build_object('id', r.id, 'name', r.name, 'rating', r.rating, 'comment', r.comment, 'createdAt', r.created_at)
                        order by r.created_at desc, r.id desc)
        from (select * from reviews r where r.product_id = products.id
              order by r.created_at desc, r.id desc limit ${PRODUCT_REVIEWS_LIMIT}) r)`,
    })
    .from(products)
    .where(where)
    .limit(1)
    .prepare(`product_by_${lookup.replace('-', '_')}`);
}

/**
 * The product with its reviews; a product with options lists its variants on sale (every variant
 * for the back office's edit page: `allVariants`).
 */
async function findWithReviews(db: Executor, lookup: ProductLookup, value: string, allVariants = false): Promise<Product> {
  const rows = await lookupStatement(db, lookup, () => buildLookup(db, lookup)).execute({ key: value });
  const row = rows[0];
  if (!row) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  const { reviews: raw, ...product } = row;
  const list = (typeof raw === 'string' ? (JSON.parse(raw) as ReviewJson[]) : raw) ?? [];
  const reviewRows: ReviewRow[] = list.map((r) => ({ ...r, id: r.id.trim(), createdAt: new Date(r.createdAt) }));
  const variants = hasOptions(product) ? await findVariants(db, [product.id], { enabledOnly: !allVariants }) : undefined;
  return presentProduct(product, { reviews: reviewRows, withDraftFlag: product.isDraft, variants });
}

/** A product by id with its reviews. Drafts (and switched-off variants) are visible to administrators only (the edit page). */
export async function getProductById(db: Executor, id: string, opts: { includeDrafts: boolean }): Promise<Product> {
  if (!isId(id)) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  return findWithReviews(db, opts.includeDrafts ? 'id' : 'published-id', id, opts.includeDrafts);
}

/** A published product by slug with its reviews, newest first (the product page). */
export async function getProductBySlug(db: Executor, slug: string): Promise<Product> {
  if (!slug || slug.length > 200) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  return findWithReviews(db, 'slug', slug);
}

/** The published row by slug (SEO tags), built once per database handle. */
const publishedRowStatement = builtOnce<'slug', ReturnType<typeof buildPublishedRow>>();

function buildPublishedRow(db: Executor) {
  return db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.slug, sql.placeholder('slug')), isPublished))
    .limit(1)
    .prepare('published_product_row_by_slug');
}

/** The raw published row for a slug (SEO tags), or undefined. */
export async function findPublishedProductBySlug(db: Executor, slug: string): Promise<ProductRow | undefined> {
  if (!slug || slug.length > 200) return undefined;
  const rows = await publishedRowStatement(db, 'slug', () => buildPublishedRow(db)).execute({ slug });
  return rows[0];
}
