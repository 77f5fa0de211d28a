import { ORDER_MESSAGES, type CancelOrderBody, type OrderResponse } from '@shop/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { orders } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { toCents } from '../../lib/money.ts';
import { loadOrder, loadOrderDetail } from '../orders/find-orders.ts';
import { recordOrderEvents } from '../orders/order-events.ts';
import { isOrderExpired, presentOrder } from '../orders/orders.presenter.ts';
import { restockOrders } from '../orders/release-stock.ts';
import type { CheckPayPalOrder } from '../orders/release-stock.ts';
import type { CancelSupplierOrder } from '../supplier/index.ts';
import type { PaymentDeps } from './record-payment.ts';
import { refundOrder } from './refund-order.ts';
import { cancellationMail, customerOf, orderPageUrl, recordMailIn } from './refund-mails.ts';

export interface CancelDeps extends PaymentDeps {
  /** The supplier module's withdrawal of a supplier order (unset: no supplier orders to withdraw). */
  cancelSupplierOrder: CancelSupplierOrder | undefined;
  /** Asks PayPal whether an unpaid order's PayPal order was captured, recording it if so (settle-paypal-order.ts). */
  checkPayPalOrder: CheckPayPalOrder | undefined;
}

async function answer(deps: CancelDeps, viewer: AuthUser, orderId: string): Promise<OrderResponse> {
  const detail = await loadOrderDetail(deps.db, orderId);
  if (!detail) throw notFound(ORDER_MESSAGES.notFound);
  return { order: presentOrder(detail, new Date(), viewer.isAdmin ? 'admin' : 'customer') };
}

/**
 * Cancels an order that was not paid: its stock goes back on sale, in the transaction of the
 * conditional update that cancels it (so a payment, the expiry sweep or a second cancel racing it
 * find it cancelled, and the stock is released once). Returns false when the order was no longer
 * open (paid, expired or cancelled meanwhile).
 */
async function cancelUnpaid(deps: CancelDeps, viewer: AuthUser, orderId: string, reason: string | null, now: Date): Promise<boolean> {
  let after: (() => Promise<void>) | undefined;
  const done = await deps.db.transaction(async (tx) => {
    const [order] = await tx.update(orders)
      .set({ cancelledAt: now, cancelReason: reason, stockReleasedAt: now, updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.isPaid, false), isNull(orders.stockReleasedAt), isNull(orders.cancelledAt), isNull(orders.deletedAt)))
      .returning();
    if (!order) return false;
    await restockOrders(tx, [orderId]);
    const byCustomer = order.userId === viewer.id && !viewer.isAdmin;
    await recordOrderEvents(tx, [{ orderId, type: 'cancelled', data: { reason, byCustomer }, authorId: viewer.id, at: now }]);
    const customer = await customerOf(tx, order.userId);
    if (customer) {
      const mail = cancellationMail(customer, { id: order.id, number: order.number, provider: null }, { reason, refund: null }, orderPageUrl(deps.config, order.id));
      after = await recordMailIn(tx, deps.mailer, mail);
    }
    return true;
  });
  if (after) await after().catch((err: unknown) => deps.log.error({ err, orderId }, 'cancellation mail failed'));
  return done;
}

/** A paid order refunded in full before: only the cancellation is left to record. */
async function cancelSettled(deps: CancelDeps, viewer: AuthUser, orderId: string, reason: string | null, now: Date): Promise<void> {
  let after: (() => Promise<void>) | undefined;
  await deps.db.transaction(async (tx) => {
    const [order] = await tx.update(orders).set({ cancelledAt: now, cancelReason: reason, updatedAt: now })
      .where(and(eq(orders.id, orderId), isNull(orders.cancelledAt))).returning();
    if (!order) return;
    await recordOrderEvents(tx, [{ orderId, type: 'cancelled', data: { reason }, authorId: viewer.id, at: now }]);
    const customer = await customerOf(tx, order.userId);
    if (customer) {
      const mail = cancellationMail(customer, { id: order.id, number: order.number, provider: order.paymentProvider }, { reason, refund: null }, orderPageUrl(deps.config, order.id));
      after = await recordMailIn(tx, deps.mailer, mail);
    }
  });
  if (after) await after().catch((err: unknown) => deps.log.error({ err, orderId }, 'cancellation mail failed'));
}

/**
 * POST orders/{id}/cancel. The owner cancels their own unpaid order; an administrator any order not
 * delivered (anyone else: 404). Unpaid: cancelled and its stock released. Paid: its supplier order
 * is withdrawn first (CJ deleteOrder, or the unsent job; refused with CJ's reason once shipped),
 * then everything still paid is refunded and the order cancelled in the refund's own transaction
 * (refund-order.ts), so a cancellation never exists without its refund. Cancelling a cancelled
 * order changes nothing and answers it.
 */
export async function cancelOrder(deps: CancelDeps, viewer: AuthUser, orderId: string, body: CancelOrderBody | undefined): Promise<OrderResponse> {
  const reason = body?.reason?.trim() || null;
  const now = new Date();
  let found = await loadOrder(deps.db, orderId);
  if (!found || !(viewer.isAdmin || found.order.userId === viewer.id)) throw notFound(ORDER_MESSAGES.notFound);
  if (found.order.cancelledAt) return answer(deps, viewer, orderId);
  if (!found.order.isPaid) {
    if (isOrderExpired(found.order, now)) throw new AppError(409, ORDER_MESSAGES.expiredNotCancellable, 'ORDER_EXPIRED');
    // Money taken at PayPal but not recorded yet (a pay call whose write failed) is recorded first,
    // as the expiry sweep does: the order is then paid, and cancelled as a paid order.
    const paypalOrderId = found.order.paypalOrderId;
    if (paypalOrderId && deps.paypal && deps.checkPayPalOrder) {
      const verdict = await deps.checkPayPalOrder({ orderId, paypalOrderId });
      if (verdict === 'unreachable') throw new AppError(502, ORDER_MESSAGES.paypalCheckFailed, 'PAYPAL_UNAVAILABLE');
      if (verdict === 'pending') throw new AppError(409, ORDER_MESSAGES.paypalPending, 'PAYMENT_PENDING', undefined, 300);
    }
    if (await cancelUnpaid(deps, viewer, orderId, reason, now)) return answer(deps, viewer, orderId);
    // Paid, expired or cancelled while we looked: decide again on what it is now.
    found = await loadOrder(deps.db, orderId);
    if (!found) throw notFound(ORDER_MESSAGES.notFound);
    if (found.order.cancelledAt) return answer(deps, viewer, orderId);
    if (!found.order.isPaid) throw new AppError(409, ORDER_MESSAGES.expiredNotCancellable, 'ORDER_EXPIRED');
  }
  if (!viewer.isAdmin) throw new AppError(409, ORDER_MESSAGES.paidOwnerCancel, 'ORDER_PAID');
  if (found.order.isDelivered) throw new AppError(409, ORDER_MESSAGES.deliveredNotCancellable, 'ORDER_DELIVERED');

  if (found.hasSupplierLines && deps.cancelSupplierOrder) {
    const outcome = await deps.cancelSupplierOrder(orderId);
    if (outcome.kind !== 'none') {
      await recordOrderEvents(deps.db, [{
        orderId, type: 'supplier_cancelled', authorId: viewer.id, at: new Date(),
        data: outcome.kind === 'withdrawn' ? { withdrawn: true } : { cjOrderId: outcome.cjOrderId },
      }]);
    }
  }
  if (toCents(found.order.refundedAmount) >= toCents(found.order.totalPrice)) {
    await cancelSettled(deps, viewer, orderId, reason, now);
    return answer(deps, viewer, orderId);
  }
  const refunded = await refundOrder(deps, viewer, orderId, { kind: 'cancel', reason });
  return { order: refunded.order };
}
