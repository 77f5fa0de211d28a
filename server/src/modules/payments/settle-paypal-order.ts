import { AppError } from '../../lib/errors.ts';
import { loadOrder } from '../orders/find-orders.ts';
import type { CheckPayPalOrder, PayPalOrderCheck } from '../orders/release-stock.ts';
import type { PayPalOrder } from './paypal-client.ts';
import { capturedPayment, captureMatchesOrder, findCompletedCapture } from './paypal-payment.ts';
import { recordPayment, type PaymentDeps } from './record-payment.ts';

/**
 * Before an unpaid order with a PayPal order expires: asks PayPal (GET /v2/checkout/orders/{id})
 * whether the money was taken, as a pay call whose write failed leaves it taken and unrecorded. A
 * capture for this order's amount and currency is recorded exactly as a successful pay records it
 * (recordPayment: once, with the confirmation mail).
 */
export function createSettlePayPalOrder(deps: PaymentDeps): CheckPayPalOrder {
  return async ({ orderId, paypalOrderId }): Promise<PayPalOrderCheck> => {
    if (!deps.paypal) return 'unreachable'; // PayPal no longer configured: cannot tell
    let pp: PayPalOrder | null;
    try {
      pp = await deps.paypal.getOrder(paypalOrderId);
    } catch (err) {
      // Unreachable, or an answer other than the order (a 4xx): ask again next sweep.
      deps.log.warn({ orderId, paypalOrderId, err: err instanceof AppError ? err.message : err }, 'could not read the PayPal order of an order due to expire');
      return 'unreachable';
    }
    if (!pp) return 'unpaid'; // PayPal does not know it
    const capture = findCompletedCapture(pp);
    if (!capture) {
      const isPending = (pp.purchase_units ?? []).some((u) => (u.payments?.captures ?? []).some((c) => c.status === 'PENDING'));
      return isPending ? 'pending' : 'unpaid';
    }
    const found = await loadOrder(deps.db, orderId);
    if (!found) return 'unpaid';
    if (found.order.isPaid) return 'paid';
    const units = pp.purchase_units ?? [];
    if (units.length !== 1 || units[0]?.custom_id !== orderId || !captureMatchesOrder(capture, found)) {
      deps.log.error({ orderId, paypalOrderId, captureId: capture.id, amount: capture.amount }, 'PayPal order captured, but not for this order or its total: check it on PayPal');
      return 'unpaid';
    }
    const { paid } = await recordPayment(deps, found, capturedPayment(pp, found, deps.log), {
      clearCartOf: found.order.userId, unexpiredOnly: false,
    });
    if (paid) deps.log.warn({ orderId, paypalOrderId, captureId: capture.id }, 'recorded a PayPal payment captured but not recorded by the pay call');
    return 'paid';
  };
}
