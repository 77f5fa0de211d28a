import { ORDER_MESSAGES, type Cart } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { mergeCart } from '../cart/index.ts';
import { loadOrder } from './find-orders.ts';

/**
 * "Order again": puts the lines of one of the customer's own orders (typically one that expired
 * unpaid) back into their server cart, at today's prices and capped at stock, like a sign-in merge.
 * Someone else's order answers 404, for admins too (it would fill the admin's own cart).
 */
export async function reorder(db: Db, viewer: AuthUser, orderId: string): Promise<Cart> {
  const found = await loadOrder(db, orderId);
  if (!found || found.order.userId !== viewer.id) throw notFound(ORDER_MESSAGES.notFound);
  const items = found.items.map((i) => ({ productId: i.productId, quantity: i.quantity, variantId: i.variantId?.trim() ?? null }));
  return mergeCart(db, viewer.id, { items }, 'this order');
}
