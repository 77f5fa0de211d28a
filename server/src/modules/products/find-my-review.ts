import type { Review } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { reviews } from '../../db/schema.ts';
import { isId } from '../../lib/ids.ts';
import { presentReview } from './products.presenter.ts';

/** The signed-in user's own review of a product, or null (the product page hides its form then). */
export async function findMyReview(db: Executor, productId: string, userId: string): Promise<Review | null> {
  if (!isId(productId)) return null;
  const [row] = await db.select().from(reviews).where(and(eq(reviews.productId, productId), eq(reviews.userId, userId))).limit(1);
  return row ? presentReview(row) : null;
}
