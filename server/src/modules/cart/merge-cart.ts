import { CART_MAX_LINES, CART_MAX_QUANTITY, type Cart, type MergeCartBody } from '@shop/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cartItems, products } from '../../db/schema.ts';
import { isId } from '../../lib/ids.ts';
import { cartProductColumns } from './cart.presenter.ts';
import { getCart, isAvailable } from './get-cart.ts';

/**
 * Sign-in merge: each guest line's quantity is added to the server cart's, capped at stock.
 * Unavailable products are skipped; every cap or skip is reported in `notices` (`source` names
 * where the lines came from). Also refills the cart from an earlier order (orders/reorder).
 */
export async function mergeCart(db: Db, userId: string, body: MergeCartBody, source = 'your saved cart'): Promise<Cart> {
  const wanted = new Map<string, number>();
  let unknown = 0;
  for (const item of body.items) {
    if (!isId(item.productId)) { unknown += 1; continue; }
    wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  }
  const notices: string[] = [];
  await db.transaction(async (tx) => {
    const ids = [...wanted.keys()];
    const found = ids.length
      ? await tx.select(cartProductColumns).from(products).where(inArray(products.id, ids))
      : [];
    const byId = new Map(found.map((p) => [p.id, p]));
    const existingRows = await tx.select({ productId: cartItems.productId, quantity: cartItems.quantity })
      .from(cartItems).where(eq(cartItems.userId, userId)).for('update');
    const existing = new Map(existingRows.map((r) => [r.productId, r.quantity]));
    let lineCount = existing.size;
    const now = new Date();
    for (const [productId, addQty] of wanted) {
      const p = byId.get(productId) ?? null;
      if (!isAvailable(p)) { unknown += 1; continue; }
      const current = existing.get(productId) ?? 0;
      const limit = Math.min(p.countInStock, CART_MAX_QUANTITY);
      const quantity = Math.min(current + addQty, limit);
      if (quantity < current + addQty) {
        notices.push(limit > 0
          ? `Only ${p.countInStock} of '${p.name}' in stock: quantity set to ${quantity}`
          : `'${p.name}' is out of stock and was not added to your cart`);
      }
      if (quantity <= 0 || quantity === current) continue;
      if (current === 0) {
        if (lineCount >= CART_MAX_LINES) {
          notices.push(`A cart holds at most ${CART_MAX_LINES} products: '${p.name}' was not added`);
          continue;
        }
        lineCount += 1;
      }
      await tx.insert(cartItems).values({ userId, productId, quantity, name: p.name, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.productId],
          set: { quantity: sql`excluded.quantity`, name: sql`excluded.name`, updatedAt: now },
        });
    }
  });
  if (unknown > 0) {
    notices.push(unknown === 1
      ? `A product in ${source} is no longer available and was not added`
      : `${unknown} products in ${source} are no longer available and were not added`);
  }
  return getCart(db, userId, notices);
}
