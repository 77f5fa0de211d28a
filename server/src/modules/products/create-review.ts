import { parseWholeNumber, PRODUCT_FORM_MESSAGES, REVIEW_MESSAGES, type CreateReviewBody, type CreateReviewResponse } from '@shop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products, reviews } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { isPublished, pgErrorCode, UNIQUE_VIOLATION } from './product-rows.ts';
import { presentReview } from './products.presenter.ts';

const COMMENT_MAX = 2000;

function parseReview(body: CreateReviewBody): { rating: number; comment: string } {
  const comment = typeof body.comment === 'string' ? body.comment.trim() : '';
  const rawRating = typeof body.rating === 'string' ? body.rating.trim() : body.rating;
  if (!comment || rawRating === undefined || rawRating === null || rawRating === '' || rawRating === 0 || rawRating === '0') {
    throw badRequest(REVIEW_MESSAGES.required);
  }
  // Digits only (contracts/src/numbers.ts): "0x5" or "5e0" is not a rating.
  const parsed = parseWholeNumber(rawRating);
  const rating = parsed.ok ? parsed.value : Number.NaN;
  if (!(rating >= 1 && rating <= 5)) throw badRequest(REVIEW_MESSAGES.rating, { rating: REVIEW_MESSAGES.rating });
  if (comment.length > COMMENT_MAX) throw badRequest(REVIEW_MESSAGES.commentMax, { comment: REVIEW_MESSAGES.commentMax });
  return { rating, comment };
}

/**
 * Adds the signed-in user's review (name from the account) and updates the product's rating and
 * count in the same transaction. One review per user and product: the unique index decides, so
 * two concurrent submissions leave exactly one.
 */
export async function createReview(db: Db, productId: string, user: Pick<AuthUser, 'id' | 'name'>, body: CreateReviewBody): Promise<Omit<CreateReviewResponse, 'message'>> {
  const { rating, comment } = parseReview(body);
  if (!isId(productId)) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  try {
    return await db.transaction(async (tx) => {
      // Locks the product row: concurrent reviews of one product update its totals one at a time.
      const [product] = await tx
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.id, productId), isPublished))
        .for('update');
      if (!product) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
      const [already] = await tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.productId, productId), eq(reviews.userId, user.id)))
        .limit(1);
      if (already) throw badRequest(REVIEW_MESSAGES.duplicate);
      const [review] = await tx
        .insert(reviews)
        .values({ id: newId(), productId, userId: user.id, name: user.name, rating, comment })
        .returning({ id: reviews.id, name: reviews.name, rating: reviews.rating, comment: reviews.comment, createdAt: reviews.createdAt });
      const [totals] = await tx
        .update(products)
        .set({
          numReviews: sql`(select count(*) from ${reviews} where ${reviews.productId} = ${productId})::int`,
          rating: sql`(select round(avg(${reviews.rating})::numeric, 2) from ${reviews} where ${reviews.productId} = ${productId})::real`,
        })
        .where(eq(products.id, productId))
        .returning({ numReviews: products.numReviews, rating: products.rating });
      if (!review || !totals) throw new Error('review insert returned no row');
      return { review: presentReview(review), numReviews: totals.numReviews, rating: totals.rating };
    });
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw badRequest(REVIEW_MESSAGES.duplicate);
    throw err;
  }
}
