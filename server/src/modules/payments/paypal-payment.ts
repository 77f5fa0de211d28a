import { ORDER_MESSAGES } from '@shop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { StoredPaymentResult } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import type { OrderWithLines } from '../orders/orders.presenter.ts';
import type { PayPalCapture, PayPalOrder } from './paypal-client.ts';

const toCents = (value: string | number) => Math.round(Number(value) * 100);

/** PayPal's amount is exactly this order's total, in the order's currency. */
export const amountMatches = (a: { currency_code: string; value: string } | undefined, order: OrderWithLines['order']) =>
  !!a && a.currency_code === order.currency && /^\d+(\.\d{1,2})?$/.test(a.value) && toCents(a.value) === toCents(order.totalPrice);

/** PayPal's order must be for this order: one purchase unit, our id, our total, in our currency. */
export function assertMatchesOrder(pp: PayPalOrder, found: OrderWithLines, log: FastifyBaseLogger): void {
  const units = pp.purchase_units ?? [];
  const unit = units[0];
  const ok = units.length === 1 && unit?.custom_id === found.order.id && amountMatches(unit.amount, found.order);
  if (!ok) {
    log.warn({ orderId: found.order.id, paypalOrderId: pp.id, unit }, 'PayPal order does not match our order');
    throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  }
}

/** The COMPLETED capture of a COMPLETED PayPal order, if it has one (matching or not). */
export function findCompletedCapture(pp: PayPalOrder): PayPalCapture | undefined {
  if (pp.status !== 'COMPLETED') return undefined;
  return (pp.purchase_units?.[0]?.payments?.captures ?? []).find((c) => c.status === 'COMPLETED');
}

/** Whether a capture is for this order: its amount and currency, and our id when PayPal echoes it. */
export const captureMatchesOrder = (capture: PayPalCapture, found: OrderWithLines) =>
  amountMatches(capture.amount, found.order) && (capture.custom_id === undefined || capture.custom_id === found.order.id);

/** The payment to record for a PayPal order whose money was taken; refuses one not completed or not ours. */
export function capturedPayment(pp: PayPalOrder, found: OrderWithLines, log: FastifyBaseLogger): StoredPaymentResult {
  const capture = findCompletedCapture(pp);
  if (!capture) throw badRequest(ORDER_MESSAGES.paymentNotCompleted, undefined, 'PAYMENT_NOT_COMPLETED');
  if (!captureMatchesOrder(capture, found)) {
    log.error({ orderId: found.order.id, paypalOrderId: pp.id, captureId: capture.id }, 'PayPal capture does not match our order');
    throw badRequest(ORDER_MESSAGES.paymentMismatch, undefined, 'PAYMENT_MISMATCH');
  }
  return {
    provider: 'paypal',
    id: capture.id,
    status: capture.status,
    emailAddress: pp.payer?.email_address ?? null,
    updateTime: capture.update_time ?? new Date().toISOString(),
    paypalOrderId: pp.id,
  };
}
