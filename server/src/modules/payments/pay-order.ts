import { DEMO_PAYMENT_LABEL, ORDER_MESSAGES, type OrderActionResponse, type PayOrderBody } from '@shop/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { StoredPaymentResult } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { loadOrder } from '../orders/find-orders.ts';
import { holdOrderForPayment, markOrderPaid, orderConfirmationMail, sendOrderConfirmation } from '../orders/mark-order-paid.ts';
import { presentOrder, type OrderWithLines } from '../orders/orders.presenter.ts';
import { areDemoPaymentsAllowed, paymentMode } from './payment-mode.ts';
import { PayPalApiError, type PayPalCapture, type PayPalClient, type PayPalOrder } from './paypal-client.ts';

export interface PaymentDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  paypal: PayPalClient | null;
}

const toCents = (value: string | number) => Math.round(Number(value) * 100);
const amountMatches = (a: { currency_code: string; value: string } | undefined, total: number) =>
  !!a && a.currency_code === 'USD' && /^\d+(\.\d{1,2})?$/.test(a.value) && toCents(a.value) === toCents(total);

/** PayPal's order must be for this order: one purchase unit, our id, our total, in USD. */
function assertMatchesOrder(pp: PayPalOrder, found: OrderWithLines, log: FastifyBaseLogger) {
  const units = pp.purchase_units ?? [];
  const unit = units[0];
  const ok = units.length === 1 && unit?.custom_id === found.order.id && amountMatches(unit.amount, found.order.totalPrice);
  if (!ok) {
    log.warn({ orderId: found.order.id, paypalOrderId: pp.id, unit }, 'PayPal order does not match our order');
    throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  }
}

function completedCapture(pp: PayPalOrder, found: OrderWithLines, log: FastifyBaseLogger): PayPalCapture {
  const captures = pp.purchase_units?.[0]?.payments?.captures ?? [];
  const capture = captures.find((c) => c.status === 'COMPLETED');
  if (pp.status !== 'COMPLETED' || !capture) throw badRequest(ORDER_MESSAGES.paymentNotCompleted, undefined, 'PAYMENT_NOT_COMPLETED');
  if (!amountMatches(capture.amount, found.order.totalPrice) || (capture.custom_id !== undefined && capture.custom_id !== found.order.id)) {
    log.error({ orderId: found.order.id, paypalOrderId: pp.id, captureId: capture.id }, 'PayPal capture does not match our order');
    throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  }
  return capture;
}

/** Verifies with PayPal (capturing an approved order) and returns the payment to record. */
async function takePayPalPayment(deps: PaymentDeps, found: OrderWithLines, paypalOrderId: string): Promise<StoredPaymentResult> {
  if (!deps.paypal) throw badRequest(ORDER_MESSAGES.paypalUnavailable, undefined, 'PAYPAL_UNAVAILABLE');
  // Check the amount and our id BEFORE capturing, so a wrong payment is never taken.
  let pp = await deps.paypal.getOrder(paypalOrderId);
  if (!pp) throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  assertMatchesOrder(pp, found, deps.log);
  if (pp.status === 'APPROVED') {
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
  const capture = completedCapture(pp, found, deps.log);
  return {
    provider: 'paypal',
    id: capture.id,
    status: capture.status,
    emailAddress: pp.payer?.email_address ?? null,
    updateTime: capture.update_time ?? new Date().toISOString(),
    paypalOrderId: pp.id,
  };
}

/**
 * PUT orders/{id}/pay. PayPal: the owner sends the approved PayPal order id; the server captures and
 * verifies it. Demo (no PayPal credentials): the owner, or an admin ('Test Pay Order'); no money is
 * taken. An order is paid once: a repeated call changes nothing and answers 'Order is paid'.
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
  if (!body.paypalOrderId && !useDemo) throw badRequest(ORDER_MESSAGES.paymentRequired, undefined, 'PAYMENT_REQUIRED');

  if (useDemo) {
    if (paymentMode(deps.config) !== 'demo') throw badRequest(ORDER_MESSAGES.demoUnavailable, undefined, 'DEMO_UNAVAILABLE');
    if (!areDemoPaymentsAllowed(deps.config)) throw forbidden(ORDER_MESSAGES.demoDisabled);
  }

  // A PayPal capture happens between the checks and the update: the order is held against expiry
  // meanwhile. A demo payment is taken at once: the update itself refuses an expired order.
  if (!useDemo) await holdOrderForPayment(deps.db, found.order.id);
  const payment: StoredPaymentResult = useDemo
    ? {
      provider: 'demo', id: `DEMO-${found.order.id}`, status: 'COMPLETED', emailAddress: null,
      updateTime: new Date().toISOString(),
    }
    : await takePayPalPayment(deps, found, body.paypalOrderId!);
  if (useDemo) deps.log.info({ orderId: found.order.id }, DEMO_PAYMENT_LABEL);

  const customer = found.userName !== null && found.userEmail ? { name: found.userName, email: found.userEmail } : undefined;
  // The confirmation is written with the payment when the mailer can (one statement); it reads
  // the order as the payment leaves it (the lines never change once placed).
  const recordIn = deps.mailer.recordIn?.bind(deps.mailer);
  const confirmation = customer && recordIn
    ? (paidNow: SQL) => recordIn(orderConfirmationMail(
      presentOrder({ ...found, order: { ...found.order, isPaid: true, paymentProvider: payment.provider, paymentId: payment.id, paymentResult: payment } }),
      customer, deps.config.publicUrl,
    ), paidNow)
    : undefined;
  const { order, paid, mailed } = await markOrderPaid(deps.db, {
    orderId: found.order.id,
    payment,
    clearCartOf: isOwner ? payer.id : null,
    unexpiredOnly: useDemo,
    loaded: found,
    ...(confirmation ? { confirmation } : {}),
  });
  const presented = presentOrder(order);
  if (!paid) return { message: ORDER_MESSAGES.alreadyPaid, order: presented };
  if (!mailed) await sendOrderConfirmation({ db: deps.db, mailer: deps.mailer, log: deps.log, publicUrl: deps.config.publicUrl }, presented, customer);
  return { message: ORDER_MESSAGES.paid, order: presented };
}
