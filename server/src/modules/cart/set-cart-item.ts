import {
  CART_ITEM_NOT_FOUND_MESSAGE, CART_MAX_LINES, OUT_OF_STOCK_MESSAGE, PRODUCT_NOT_FOUND_MESSAGE, type Cart,
} from '@shop/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cartItems, products } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { cartProductColumns, type CartProductRow } from './cart.presenter.ts';
import { assertSupplierSellable } from '../supplier/index.ts';
import { getCart, isAvailable } from './get-cart.ts';

export async function findSellableProduct(db: Db, productId: string): Promise<CartProductRow> {
  if (!isId(productId)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  const [p] = await db.select(cartProductColumns).from(products).where(eq(products.id, productId)).limit(1);
  if (!isAvailable(p ?? null)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  return p as CartProductRow;
}

/**
 * Sets the quantity of one cart line. `mode: 'add'` creates the line when missing (POST cart/items),
 * `mode: 'update'` requires it (PUT cart/items/{productId}). The quantity may not exceed stock.
 */
export async function setCartItem(
  db: Db,
  input: { userId: string; productId: string; quantity: number; mode: 'add' | 'update' },
): Promise<Cart> {
  const { userId, productId, quantity } = input;
  const product = await findSellableProduct(db, productId);
  await assertSupplierSellable(db, [product.id]);
  if (quantity > product.countInStock) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
  const now = new Date();
  if (input.mode === 'update') {
    const updated = await db.update(cartItems).set({ quantity, name: product.name, updatedAt: now })
      .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)))
      .returning({ productId: cartItems.productId });
    if (!updated.length) throw notFound(CART_ITEM_NOT_FOUND_MESSAGE);
  } else {
    const [lines] = await db.select({ n: count() }).from(cartItems).where(eq(cartItems.userId, userId));
    if ((lines?.n ?? 0) >= CART_MAX_LINES) {
      const [existing] = await db.select({ q: cartItems.quantity }).from(cartItems)
        .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
      if (!existing) throw badRequest(`A cart holds at most ${CART_MAX_LINES} products`);
    }
    await db.insert(cartItems).values({ userId, productId, quantity, name: product.name, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.productId],
        set: { quantity: sql`excluded.quantity`, name: sql`excluded.name`, updatedAt: now },
      });
  }
  return getCart(db, userId);
}
