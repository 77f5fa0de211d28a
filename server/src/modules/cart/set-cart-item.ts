import {
  CART_ITEM_NOT_FOUND_MESSAGE, CART_MAX_LINES, OUT_OF_STOCK_MESSAGE, PRODUCT_NOT_FOUND_MESSAGE, type Cart,
} from '@shop/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cartItems, products } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { cartProductColumns, type CartProductRow } from './cart.presenter.ts';
import { assertNoneDiscontinued } from '../supplier/index.ts';
import { getCart, isAvailable } from './get-cart.ts';

/** The product to cart, with when the supplier stopped selling it (null: still sold). */
export async function findSellableProduct(db: Db, productId: string): Promise<CartProductRow & { supplierDiscontinuedAt: Date | null }> {
  if (!isId(productId)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  const [p] = await db.select({ ...cartProductColumns, supplierDiscontinuedAt: products.supplierDiscontinuedAt })
    .from(products).where(eq(products.id, productId)).limit(1);
  if (!p || !isAvailable(p)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  return p;
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
  assertNoneDiscontinued([product]);
  if (quantity > product.countInStock) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
  const now = new Date();
  if (input.mode === 'update') {
    const updated = await db.update(cartItems).set({ quantity, name: product.name, updatedAt: now })
      .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)))
      .returning({ productId: cartItems.productId });
    if (!updated.length) throw notFound(CART_ITEM_NOT_FOUND_MESSAGE);
  } else {
    // One statement: a new line is written only while the cart holds fewer than CART_MAX_LINES
    // products; a line already in the cart is always updated.
    const at = now.toISOString();
    const written = (await db.execute(sql`
      insert into ${cartItems} (user_id, product_id, quantity, name, created_at, updated_at)
      select ${userId}::char(24), ${productId}::char(24), ${quantity}::int, ${product.name}::text, ${at}::timestamptz, ${at}::timestamptz
      where (select count(*) from ${cartItems} where user_id = ${userId}) < ${CART_MAX_LINES}
         or exists (select 1 from ${cartItems} where user_id = ${userId} and product_id = ${productId})
      on conflict (user_id, product_id)
        do update set quantity = excluded.quantity, name = excluded.name, updated_at = excluded.updated_at
      returning product_id`)) as unknown as { rows: unknown[] };
    if (!written.rows.length) throw badRequest(`A cart holds at most ${CART_MAX_LINES} products`);
  }
  return getCart(db, userId);
}
