import { ORDER_MESSAGES, type Order, type OrderEvent } from '@shop/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orderRefunds, orders } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { toCents } from '../../lib/money.ts';
import { loadOrder, loadOrderDetail } from './find-orders.ts';
import { presentOrderEvent, recordOrderEvents } from './order-events.ts';
import { presentOrder } from './orders.presenter.ts';
import { restockOrders } from './release-stock.ts';

/**
 * Deletes an order (admin). An order that took money and is neither refunded in full nor
 * cancelled cannot be deleted (409: refund or cancel it first). One that took money and was then
 * refunded or cancelled is archived, not erased: hidden from every list and read (404), its row
 * kept with its payment, refunds and timeline, and the dashboard's past days unchanged, as an
 * accountant keeps a voided invoice. An unpaid order (open, cancelled or expired) is deleted as
 * before; one whose stock is still reserved gives it back first.
 */
export async function deleteOrder(db: Db, id: string, now: Date = new Date()): Promise<void> {
  if (!isId(id)) throw notFound(ORDER_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const [o] = await tx.select({
      isPaid: orders.isPaid, stockReleasedAt: orders.stockReleasedAt, cancelledAt: orders.cancelledAt,
      totalPrice: orders.totalPrice, refundedAmount: orders.refundedAmount,
    }).from(orders).where(and(eq(orders.id, id), isNull(orders.deletedAt))).for('update');
    if (!o) throw notFound(ORDER_MESSAGES.notFound);
    if (o.isPaid) {
      const settled = o.cancelledAt !== null || toCents(o.refundedAmount) >= toCents(o.totalPrice);
      if (!settled) throw new AppError(409, ORDER_MESSAGES.paidNotDeletable, 'ORDER_PAID');
      const [pending] = await tx.select({ id: orderRefunds.id }).from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, id), eq(orderRefunds.status, 'pending'))).limit(1);
      if (pending) throw new AppError(409, ORDER_MESSAGES.refundPending, 'REFUND_PENDING', undefined, 60);
      await tx.update(orders).set({ deletedAt: now, updatedAt: now }).where(eq(orders.id, id));
      return;
    }
    if (!o.stockReleasedAt) await restockOrders(tx, [id]);
    await tx.delete(orders).where(eq(orders.id, id));
  });
}

/** Marks a paid order delivered (admin); an unpaid or cancelled order cannot be delivered. */
export async function deliverOrder(db: Db, admin: AuthUser, id: string, now: Date = new Date()): Promise<Order> {
  const found = await loadOrder(db, id);
  if (!found) throw notFound(ORDER_MESSAGES.notFound);
  if (!found.order.isPaid) throw badRequest(ORDER_MESSAGES.notPaid, undefined, 'ORDER_NOT_PAID');
  if (found.order.cancelledAt) throw conflict(ORDER_MESSAGES.alreadyCancelled);
  if (!found.order.isDelivered) {
    await db.transaction(async (tx) => {
      const done = await tx.update(orders).set({ isDelivered: true, deliveredAt: now, updatedAt: now })
        .where(and(eq(orders.id, id), eq(orders.isDelivered, false))).returning({ id: orders.id });
      if (done.length) await recordOrderEvents(tx, [{ orderId: id, type: 'delivered', authorId: admin.id, at: now }]);
    });
  }
  return presentOrder((await loadOrderDetail(db, id))!, now, 'admin');
}

/** Reverts a delivered order to not delivered (admin). */
export async function undeliverOrder(db: Db, admin: AuthUser, id: string, now: Date = new Date()): Promise<Order> {
  const found = await loadOrder(db, id);
  if (!found) throw notFound(ORDER_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const done = await tx.update(orders).set({ isDelivered: false, deliveredAt: null, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.isDelivered, true))).returning({ id: orders.id });
    if (done.length) await recordOrderEvents(tx, [{ orderId: id, type: 'undelivered', authorId: admin.id, at: now }]);
  });
  return presentOrder((await loadOrderDetail(db, id))!, now, 'admin');
}

/** An administrator's internal note on the order's timeline (customers never see it). */
export async function addOrderNote(db: Db, admin: AuthUser, id: string, text: string, now: Date = new Date()): Promise<{ event: OrderEvent; order: Order }> {
  const found = await loadOrder(db, id);
  if (!found) throw notFound(ORDER_MESSAGES.notFound);
  const [eventId] = await recordOrderEvents(db, [{ orderId: id, type: 'note', data: { text }, authorId: admin.id, at: now }]);
  const detail = (await loadOrderDetail(db, id))!;
  const row = detail.events?.find((e) => e.id === eventId);
  if (!row) throw notFound(ORDER_MESSAGES.notFound); // the order was deleted meanwhile (events go with it)
  return { event: presentOrderEvent(row, 'admin')!, order: presentOrder(detail, now, 'admin') };
}
