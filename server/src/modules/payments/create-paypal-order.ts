import { ORDER_MESSAGES, type PaypalCreateResponse } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { loadOrder } from '../orders/find-orders.ts';
import { isOrderExpired } from '../orders/orders.presenter.ts';
import type { PayPalClient } from './paypal-client.ts';

/**
 * POST orders/{id}/paypal/create: creates the PayPal order for exactly this order's total (USD),
 * with our order id as custom_id. The PayPal-Request-Id is derived from our id, so a retry returns
 * the same PayPal order instead of a second one.
 */
export async function createPayPalOrderFor(
  deps: { db: Db; paypal: PayPalClient | null },
  payer: AuthUser,
  orderId: string,
): Promise<PaypalCreateResponse> {
  const found = await loadOrder(deps.db, orderId);
  if (!found || found.order.userId !== payer.id) throw notFound(ORDER_MESSAGES.notFound);
  if (found.order.isPaid) throw badRequest(ORDER_MESSAGES.alreadyPaid, undefined, 'ORDER_PAID');
  if (found.order.cancelledAt) throw badRequest(ORDER_MESSAGES.cancelledNotPayable, undefined, 'ORDER_CANCELLED');
  if (isOrderExpired(found.order)) throw badRequest(ORDER_MESSAGES.expired, undefined, 'ORDER_EXPIRED');
  if (!deps.paypal) throw badRequest(ORDER_MESSAGES.paypalUnavailable, undefined, 'PAYPAL_UNAVAILABLE');
  const created = await deps.paypal.createOrder({
    orderId: found.order.id,
    amount: found.order.totalPrice.toFixed(2),
    currency: 'USD',
    description: `Order #${found.order.number}`,
    requestId: `create-${found.order.id}`,
  });
  await deps.db.update(orders).set({ paypalOrderId: created.id, updatedAt: new Date() }).where(eq(orders.id, found.order.id));
  return { id: created.id };
}
