import { DEMO_PAYMENT_LABEL, ORDER_MESSAGES, type OrderActionResponse, type PayOrderBody } from '@shop/contracts';
import { and, eq } from 'drizzle-orm';
import { orders, type StoredPaymentResult } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { loadOrder } from '../orders/find-orders.ts';
import { holdOrderForPayment } from '../orders/mark-order-paid.ts';
import { presentOrder, type OrderWithLines } from '../orders/orders.presenter.ts';
import { areDemoPaymentsAllowed, paymentMode } from './payment-mode.ts';
import { PayPalApiError } from './paypal-client.ts';
import { assertMatchesOrder, capturedPayment, findCompletedCapture } from './paypal-payment.ts';
import { recordPayment, type PaymentDeps } from './record-payment.ts';

/** Verifies with PayPal (capturing an approved order) and returns the payment to record. */
async function takePayPalPayment(deps: PaymentDeps, found: OrderWithLines, paypalOrderId: string): Promise<StoredPaymentResult> {
  if (!deps.paypal) throw badRequest(ORDER_MESSAGES.paypalUnavailable, undefined, 'PAYPAL_UNAVAILABLE');
  // Check the amount and our id BEFORE capturing, so a wrong payment is never taken.
  let pp = await deps.paypal.getOrder(paypalOrderId);
  if (!pp) throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  assertMatchesOrder(pp, found, deps.log);
  if (pp.status === 'APPROVED') {
    // The PayPal order about to be captured is on record first: should the capture's answer or the
    // write of the payment be lost, the expiry sweep asks PayPal about it before expiring the order.
    if (found.order.paypalOrderId !== pp.id) {
      await deps.db.update(orders).set({ paypalOrderId: pp.id, updatedAt: new Date() })
        .where(and(eq(orders.id, found.order.id), eq(orders.isPaid, false)));
    }
    try {
      pp = await deps.paypal.captureOrder(paypalOrderId, `capture-${found.order.id}-${paypalOrderId}`);
    } catch (err) {
      if (!(err instanceof PayPalApiError)) throw err;
      if (err.issue === 'ORDER_ALREADY_CAPTURED') {
        pp = await deps.paypal.getOrder(paypalOrderId);
        if (!pp) throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
      } else {
        deps.log.warn({ orderId: found.order.id, paypalOrderId, issue: err.issue, status: err.status }, 'PayPal capture refused');
        throw badRequest(ORDER_MESSAGES.paymentNotCompleted, undefined, 'PAYMENT_NOT_COMPLETED');
      }
    }
  }
  return capturedPayment(pp, found, deps.log);
}

/**
 * The order is past its expiry, so no money may be taken now; but an earlier pay call may have
 * captured this PayPal order and failed to record it. That capture is recorded while the stock is
 * still reserved (the sweep has not released it yet); once released, it is logged for an operator.
 * Otherwise the answer is `expired`.
 */
async function paymentCapturedEarlier(deps: PaymentDeps, found: OrderWithLines, paypalOrderId: string, expired: AppError): Promise<StoredPaymentResult> {
  if (!deps.paypal) throw expired;
  const isReleased = found.order.stockReleasedAt !== null;
  const pp = await deps.paypal.getOrder(paypalOrderId).catch((err: unknown) => { throw isReleased ? expired : err; });
  if (!pp || !findCompletedCapture(pp)) throw expired;
  assertMatchesOrder(pp, found, deps.log);
  const payment = capturedPayment(pp, found, deps.log);
  if (isReleased) {
    deps.log.error({ orderId: found.order.id, paypalOrderId, captureId: payment.id }, 'PayPal payment captured for an expired order: refund or fulfil it by hand');
    throw expired;
  }
  return payment;
}

const isExpiredError = (err: unknown): err is AppError => err instanceof AppError && err.code === 'ORDER_EXPIRED';

/**
 * PUT orders/{id}/pay. PayPal: the owner sends the approved PayPal order id; the server captures and
 * verifies it (a PayPal order already captured is recorded, not captured again). Demo (no PayPal
 * credentials): the owner, or an admin ('Test Pay Order'); no money is taken. An order is paid once:
 * a repeated call changes nothing and answers 'Order is paid'.
 */
export async function payOrder(deps: PaymentDeps, payer: AuthUser, orderId: string, body: PayOrderBody): Promise<OrderActionResponse> {
  const found = await loadOrder(deps.db, orderId);
  const isOwner = !!found && found.order.userId === payer.id;
  const useDemo = body.demo === true && !body.paypalOrderId;
  // Only the owner pays; an admin may only use the demo provider ('Test Pay Order').
  if (!found || !(isOwner || (payer.isAdmin && useDemo))) {
    if (found && payer.isAdmin) throw forbidden('Only the customer can pay this order');
    throw notFound(ORDER_MESSAGES.notFound);
  }
  if (found.order.isPaid) return { message: ORDER_MESSAGES.alreadyPaid, order: presentOrder(found) };
  if (found.order.cancelledAt) throw badRequest(ORDER_MESSAGES.cancelledNotPayable, undefined, 'ORDER_CANCELLED');
  if (!body.paypalOrderId && !useDemo) throw badRequest(ORDER_MESSAGES.paymentRequired, undefined, 'PAYMENT_REQUIRED');

  if (useDemo) {
    if (paymentMode(deps.config) !== 'demo') throw badRequest(ORDER_MESSAGES.demoUnavailable, undefined, 'DEMO_UNAVAILABLE');
    if (!areDemoPaymentsAllowed(deps.config)) throw forbidden(ORDER_MESSAGES.demoDisabled);
  }

  // A PayPal capture happens between the checks and the update: the order is held against expiry
  // meanwhile. A demo payment is taken at once: the update itself refuses an expired order.
  let payment: StoredPaymentResult | undefined;
  if (useDemo) {
    payment = {
      provider: 'demo', id: `DEMO-${found.order.id}`, status: 'COMPLETED', emailAddress: null,
      updateTime: new Date().toISOString(),
    };
    deps.log.info({ orderId: found.order.id }, DEMO_PAYMENT_LABEL);
  } else {
    try {
      await holdOrderForPayment(deps.db, found.order.id);
    } catch (err) {
      if (!isExpiredError(err)) throw err;
      payment = await paymentCapturedEarlier(deps, found, body.paypalOrderId!, err);
    }
    payment ??= await takePayPalPayment(deps, found, body.paypalOrderId!);
  }

  try {
    const { order, paid } = await recordPayment(deps, found, payment, { clearCartOf: isOwner ? payer.id : null, unexpiredOnly: useDemo });
    return { message: paid ? ORDER_MESSAGES.paid : ORDER_MESSAGES.alreadyPaid, order };
  } catch (err) {
    if (payment.provider === 'paypal' && isExpiredError(err)) await refundIfCancelledMeanwhile(deps, found.order.id, payment);
    throw err;
  }
}

/**
 * The order was cancelled while its PayPal capture was under way (after the hold, before the
 * payment was recorded): the money taken for a cancelled order goes straight back, in full, with a
 * PayPal-Request-Id of its own so a retry never refunds twice; the caller is told so. Not cancelled
 * (it expired): the error stands.
 */
async function refundIfCancelledMeanwhile(deps: PaymentDeps, orderId: string, payment: StoredPaymentResult): Promise<void> {
  const now = await loadOrder(deps.db, orderId);
  if (!now?.order.cancelledAt || now.order.isPaid || !deps.paypal) return;
  try {
    await deps.paypal.refundCapture(payment.id, {
      amount: now.order.totalPrice.toFixed(2), currency: 'USD', noteToPayer: 'The order was cancelled', requestId: `cancelled-${payment.id}`,
    });
    deps.log.warn({ orderId, captureId: payment.id }, 'refunded a PayPal payment taken for an order cancelled while it was being paid');
  } catch (err) {
    deps.log.error({ err, orderId, captureId: payment.id }, 'PayPal payment taken for an order cancelled while it was being paid, and its refund failed: refund it by hand');
    throw err;
  }
  throw badRequest(ORDER_MESSAGES.cancelledWhilePaying, undefined, 'ORDER_CANCELLED');
}
