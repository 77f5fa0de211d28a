import { ORDER_MESSAGES, type Order } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { loadOrder } from './find-orders.ts';
import { presentOrder } from './orders.presenter.ts';
import { restockOrders } from './release-stock.ts';

/** Deletes an order (admin). An unpaid order whose stock is still reserved gives it back first. */
export async function deleteOrder(db: Db, id: string): Promise<void> {
  if (!isId(id)) throw notFound(ORDER_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const [o] = await tx.select({ isPaid: orders.isPaid, stockReleasedAt: orders.stockReleasedAt })
      .from(orders).where(eq(orders.id, id)).for('update');
    if (!o) throw notFound(ORDER_MESSAGES.notFound);
    if (!o.isPaid && !o.stockReleasedAt) await restockOrders(tx, [id]);
    await tx.delete(orders).where(eq(orders.id, id));
  });
}

/** Marks a paid order delivered (admin); an unpaid order cannot be delivered. */
export async function deliverOrder(db: Db, id: string, now: Date = new Date()): Promise<Order> {
  const found = await loadOrder(db, id);
  if (!found) throw notFound(ORDER_MESSAGES.notFound);
  if (!found.order.isPaid) throw badRequest(ORDER_MESSAGES.notPaid, undefined, 'ORDER_NOT_PAID');
  if (!found.order.isDelivered) {
    await db.update(orders).set({ isDelivered: true, deliveredAt: now, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.isDelivered, false)));
  }
  return presentOrder((await loadOrder(db, id))!);
}

/** Reverts a delivered order to not delivered (admin). */
export async function undeliverOrder(db: Db, id: string, now: Date = new Date()): Promise<Order> {
  const found = await loadOrder(db, id);
  if (!found) throw notFound(ORDER_MESSAGES.notFound);
  await db.update(orders).set({ isDelivered: false, deliveredAt: null, updatedAt: now }).where(eq(orders.id, id));
  return presentOrder((await loadOrder(db, id))!);
}
