import { formatOrderNumber, ORDER_MESSAGES, type Order } from '@shop/contracts';
import { and, eq, getTableColumns, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jsonValue, readColumns } from '../../db/raw-rows.ts';
import { cartDiscounts, cartItems, orders, users, type StoredPaymentResult } from '../../db/schema.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { formatMoney } from '../../lib/money.ts';
import type { Mail, Mailer, MailRecording } from '../../lib/mailer.ts';
import { clearCart } from '../cart/get-cart.ts';
import { enqueueSupplierOrder, holdsSupplierProducts } from '../supplier/index.ts';
import { loadOrder } from './find-orders.ts';
import { orderEventCte, recordOrderEvents } from './order-events.ts';
import type { OrderRow, OrderWithLines } from './orders.presenter.ts';

/** How long a payment in progress holds an order against expiry. */
const PAYMENT_WINDOW_MS = 10 * 60_000;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * Holds an unpaid, unexpired order for the payment about to be taken, so the expiry sweep cannot
 * release its stock while the provider captures. Throws 'This order has expired...' otherwise.
 */
export async function holdOrderForPayment(db: Db, orderId: string, now: Date = new Date()): Promise<void> {
  const held = await db.update(orders)
    .set({ expiresAt: new Date(now.getTime() + PAYMENT_WINDOW_MS), updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.isPaid, false), isNull(orders.stockReleasedAt), gt(orders.expiresAt, now)))
    .returning({ id: orders.id });
  if (held.length) return;
  const found = await loadOrder(db, orderId);
  if (found?.order.isPaid) return; // a concurrent call paid it: the caller answers 'Order is paid'
  throw badRequest(ORDER_MESSAGES.expired, undefined, 'ORDER_EXPIRED');
}

export interface MarkPaidInput {
  orderId: string;
  payment: StoredPaymentResult;
  /** Whose cart to empty: the owner's, when the owner paid. */
  clearCartOf: string | null;
  /**
   * Pay only an order not yet past its expiry (a payment taken at once, without a hold: the check
   * holdOrderForPayment would make is part of the update).
   */
  unexpiredOnly?: boolean;
  /** The order as the caller loaded it: its lines and customer are reused, not read again. */
  loaded?: OrderWithLines;
  /**
   * A confirmation to record in the same statement as the payment, when the one-statement path
   * pays (given the condition "this statement paid the order"). `mailed` in the answer says
   * whether it was; otherwise the caller sends it after.
   */
  confirmation?: (paid: SQL) => MailRecording;
  now?: Date;
}

/** What the timeline keeps about a payment: the provider and PayPal's capture id. */
const paidEventData = (payment: StoredPaymentResult) =>
  (payment.provider === 'paypal' ? { provider: 'paypal', captureId: payment.id } : { provider: payment.provider });

/**
 * The common case in one statement, without a transaction: an order none of whose lines is a
 * supplier product is marked paid and the payer's cart emptied together. Anything else (a supplier
 * order, whose job must be written in the same transaction; an order already paid, released or
 * expired) updates nothing here and takes the transaction in markOrderPaid, which decides.
 */
async function payWithoutSupplierLines(db: Db, input: MarkPaidInput, now: Date): Promise<{ order: OrderRow; mail: MailRecording | undefined } | undefined> {
  const at = now.toISOString();
  const mail = input.confirmation?.(sql`exists (select 1 from paid)`);
  const { rows } = (await db.execute(sql`
    with paid as (
      update ${orders} o set is_paid = true, paid_at = ${at}::timestamptz, payment_provider = ${input.payment.provider}::text,
        payment_id = ${input.payment.id}::text, payment_result = ${JSON.stringify(input.payment)}::jsonb, updated_at = ${at}::timestamptz
      where o.id = ${input.orderId}::char(24) and not o.is_paid and o.stock_released_at is null
        and (not ${input.unexpiredOnly === true}::boolean or o.expires_at > ${at}::timestamptz)
        and not ${holdsSupplierProducts(sql`o.id`)}
      returning o.*
    ), cleared as (
      delete from ${cartItems} c where c.user_id = ${input.clearCartOf}::char(24) and exists (select 1 from paid)
    ), cleared_discount as (
      delete from ${cartDiscounts} d where d.user_id = ${input.clearCartOf}::char(24) and exists (select 1 from paid)
    ), ${orderEventCte('paid_event', 'paid', { type: 'paid', data: paidEventData(input.payment), at: now })}${mail ? sql`, ${mail.ctes}` : sql``}
    select row_to_json(paid) as "order" from paid`)) as unknown as { rows: Array<{ order: unknown }> };
  const row = rows[0]?.order;
  if (!row) return undefined;
  return { order: readColumns<OrderRow>(getTableColumns(orders), jsonValue<Record<string, unknown>>(row), ''), mail };
}

/**
 * Marks an order paid once. Returns `paid: false` when it already was (a repeated call changes
 * nothing). One payment id (PayPal capture) can pay one order only.
 */
export async function markOrderPaid(db: Db, input: MarkPaidInput): Promise<{ order: OrderWithLines; paid: boolean; mailed: boolean }> {
  const now = input.now ?? new Date();
  let updated: OrderRow | undefined;
  let mailed = false;
  try {
    const fast = await payWithoutSupplierLines(db, input, now);
    if (fast?.mail) {
      fast.mail.recorded();
      mailed = true;
    }
    updated = fast?.order ?? await db.transaction(async (tx) => {
      const [row] = await tx.update(orders)
        .set({
          isPaid: true, paidAt: now, paymentProvider: input.payment.provider, paymentId: input.payment.id,
          paymentResult: input.payment, updatedAt: now,
        })
        .where(and(
          eq(orders.id, input.orderId), eq(orders.isPaid, false), isNull(orders.stockReleasedAt),
          input.unexpiredOnly ? gt(orders.expiresAt, now) : undefined,
        ))
        .returning({ ...getTableColumns(orders), holdsSupplierProducts: holdsSupplierProducts(sql`${orders}.${sql.identifier('id')}`) });
      if (!row) return undefined;
      await recordOrderEvents(tx, [{ orderId: input.orderId, type: 'paid', data: paidEventData(input.payment), at: now }]);
      if (input.clearCartOf) await clearCart(tx, input.clearCartOf);
      // Supplier lines are forwarded to the supplier by a job written in this same transaction.
      const { holdsSupplierProducts: forSupplier, ...order } = row;
      if (forSupplier) await enqueueSupplierOrder(tx, input.orderId);
      return order;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(ORDER_MESSAGES.paymentReused, undefined, 'PAYMENT_REUSED');
    throw err;
  }
  // Lines never change once placed: the caller's copy, with the row as the update left it.
  if (updated && input.loaded?.order.id === input.orderId) return { order: { ...input.loaded, order: updated }, paid: true, mailed };
  const found = await loadOrder(db, input.orderId);
  if (!found) throw conflict(ORDER_MESSAGES.notFound);
  if (!updated && !found.order.isPaid) throw badRequest(ORDER_MESSAGES.expired, undefined, 'ORDER_EXPIRED');
  return { order: found, paid: !!updated, mailed };
}

/** The order confirmation to `customer` (the order as paid); its link is on `siteUrl` (config.siteUrl). */
export function orderConfirmationMail(order: Order, customer: { name: string; email: string }, siteUrl: string): Mail {
  const money = formatMoney;
  const lines = order.orderItems.map((i) => `  ${i.quantity} x ${i.name} @ ${money(i.price)} = ${money(i.price * i.quantity)}`);
  const link = `${siteUrl}/order/${order._id}`;
  const demo = order.paymentResult?.provider === 'demo' ? '\nThis was a demo payment: no money was taken.\n' : '';
  const a = order.shippingAddress;
  const text = [
    `Hello ${customer.name},`,
    '',
    `Thank you for your order ${formatOrderNumber(order.number)}. Your payment has been received.`,
    demo,
    ...lines,
    '',
    `Items: ${money(order.itemsPrice)}`,
    ...(order.discountCode ? [`Discount (${order.discountCode}): -${money(order.discountPrice ?? 0)}`] : []),
    `Shipping: ${money(order.shippingPrice)}`,
    `Tax: ${money(order.taxPrice)}`,
    `Total: ${money(order.totalPrice)} USD`,
    '',
    `Shipping to: ${a.fullName}, ${a.address}, ${a.city} ${a.postalCode}, ${a.country}`,
    '',
    `View your order: ${link}`,
  ].join('\n');
  return { to: customer.email, subject: `Order confirmation ${formatOrderNumber(order.number)}`, text };
}

/** Sends the order confirmation; a mail failure is logged, never fails the payment. */
export async function sendOrderConfirmation(
  deps: { db: Db; mailer: Mailer; log: FastifyBaseLogger; siteUrl: string },
  order: Order,
  /** The customer's name and e-mail when the caller has them (otherwise read here). */
  customer?: { name: string; email: string },
): Promise<void> {
  try {
    if (!order.user) return;
    const [u] = customer
      ? [customer]
      : await deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, order.user._id)).limit(1);
    if (!u) return;
    await deps.mailer.send(orderConfirmationMail(order, u, deps.siteUrl));
  } catch (err) {
    deps.log.error({ err, orderId: order._id }, 'order confirmation mail failed');
  }
}
