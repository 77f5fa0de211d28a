import type { Order } from '@shop/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { StoredPaymentResult } from '../../db/schema.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { markOrderPaid, orderConfirmationMail, sendOrderConfirmation } from '../orders/mark-order-paid.ts';
import { presentOrder, type OrderWithLines } from '../orders/orders.presenter.ts';
import type { PayPalClient } from './paypal-client.ts';

export interface PaymentDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  paypal: PayPalClient | null;
}

/**
 * Records a payment that was taken (a PayPal capture, or a demo payment) and sends the order
 * confirmation: the one way an order becomes paid, whether the customer's pay call or the expiry
 * sweep finds the payment. Once only: `paid` is false when the order already was.
 */
export async function recordPayment(
  deps: PaymentDeps,
  found: OrderWithLines,
  payment: StoredPaymentResult,
  opts: { clearCartOf: string | null; unexpiredOnly: boolean },
): Promise<{ order: Order; paid: boolean }> {
  const customer = found.userName !== null && found.userEmail ? { name: found.userName, email: found.userEmail } : undefined;
  // The confirmation is written with the payment when the mailer can (one statement); it reads
  // the order as the payment leaves it (the lines never change once placed).
  const recordIn = deps.mailer.recordIn?.bind(deps.mailer);
  const confirmation = customer && recordIn
    ? (paidNow: SQL) => recordIn(orderConfirmationMail(
      presentOrder({ ...found, order: { ...found.order, isPaid: true, paymentProvider: payment.provider, paymentId: payment.id, paymentResult: payment } }),
      customer, deps.config.siteUrl,
    ), paidNow)
    : undefined;
  const { order, paid, mailed } = await markOrderPaid(deps.db, {
    orderId: found.order.id,
    payment,
    clearCartOf: opts.clearCartOf,
    unexpiredOnly: opts.unexpiredOnly,
    loaded: found,
    ...(confirmation ? { confirmation } : {}),
  });
  const presented = presentOrder(order);
  if (paid && !mailed) await sendOrderConfirmation({ db: deps.db, mailer: deps.mailer, log: deps.log, siteUrl: deps.config.siteUrl }, presented, customer);
  return { order: presented, paid };
}
