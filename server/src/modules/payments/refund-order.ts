import { ORDER_MESSAGES, type CreateRefundBody, type RefundResponse } from '@shop/contracts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orderItems, orderRefunds, orders, supplierShipments, type StoredRefundLine } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { fromCents, toCents } from '../../lib/money.ts';
import { loadOrderDetail } from '../orders/find-orders.ts';
import { recordOrderEvents } from '../orders/order-events.ts';
import { presentOrder, presentRefund, type OrderRow, type RefundRow } from '../orders/orders.presenter.ts';
import { restockLines, type RestockLine } from '../orders/release-stock.ts';
import { PayPalApiError } from './paypal-client.ts';
import { cancellationMail, customerOf, orderPageUrl, recordMailIn, refundMail } from './refund-mails.ts';
import type { PaymentDeps } from './record-payment.ts';

/**
 * A pending refund younger than this belongs to a request still under way: another request waits
 * for it (409), the sweep leaves it alone. Only a retry of the same request settles it sooner.
 */
export const REFUND_SETTLE_AFTER_MS = 60_000;

/** What is asked: a refund of lines and an amount, or the full refund of a cancellation. */
export type RefundRequest =
  | { kind: 'refund'; body: CreateRefundBody }
  | { kind: 'cancel'; reason: string | null };

/** PayPal's refusals (details[].issue), in words for the administrator. */
const PAYPAL_REFUND_ISSUES: Record<string, string> = {
  REFUND_AMOUNT_EXCEEDED: 'the amount is more than is left to refund on the PayPal payment',
  CAPTURE_FULLY_REFUNDED: 'the PayPal payment has already been refunded in full',
  CAPTURED_AMOUNT_FULLY_REFUNDED: 'the PayPal payment has already been refunded in full',
  REFUND_TIME_LIMIT_EXCEEDED: 'the PayPal payment is too old to be refunded (send the money as a new payment instead)',
  REFUND_FAILED_INSUFFICIENT_FUNDS: 'the PayPal account does not hold enough money for it',
  MAX_NUMBER_OF_REFUNDS_EXCEEDED: 'PayPal allows no more refunds on this payment',
  REFUND_NOT_ALLOWED: 'PayPal does not allow a refund of this payment',
  TRANSACTION_DISPUTED: 'the PayPal payment is disputed: settle the dispute in PayPal',
  PENDING_CAPTURE: 'the PayPal payment is still pending',
};

export const refundRefused = (issue: string | undefined) =>
  badRequest(`PayPal refused the refund: ${(issue && PAYPAL_REFUND_ISSUES[issue]) || 'it gave no reason we know'}${issue ? ` (${issue})` : ''}. Nothing was changed.`, undefined, 'REFUND_REFUSED');

/** PayPal's answer is not known (unreachable, or a 5xx): the refund stays pending and is asked again. */
const refundUnknown = () => new AppError(502,
  'PayPal could not be reached. The refund is recorded as pending and is asked again automatically; do not refund again.', 'PAYPAL_UNAVAILABLE');

type Plan = { lines: StoredRefundLine[]; amountCents: number; extraCents: number };

/** A line is on its way to the customer: its units are not put back in stock by default. */
function isLineShipped(order: OrderRow, item: { variantId: string | null }, trackingNumber: string | null): boolean {
  return order.isDelivered || Boolean(item.variantId && trackingNumber);
}

/**
 * Works out the refund under the order's lock: which lines and units, how much, whether to restock,
 * never more units than were bought and not yet refunded, never more money than was paid and not yet
 * refunded. Throws a 4xx that changes nothing.
 */
function planRefund(order: OrderRow, items: Array<typeof orderItems.$inferSelect>, trackingNumber: string | null, request: RefundRequest): Plan {
  const remainingCents = toCents(order.totalPrice) - toCents(order.refundedAmount);
  const byId = new Map(items.map((i) => [i.id, i]));
  if (request.kind === 'cancel') {
    const lines = items.filter((i) => i.quantity > i.refundedQuantity).map((i) => {
      const quantity = i.quantity - i.refundedQuantity;
      return { orderItemId: i.id, name: i.name, quantity, amount: fromCents(toCents(i.price) * quantity), restock: !isLineShipped(order, i, trackingNumber) };
    });
    const linesCents = lines.reduce((n, l) => n + toCents(l.amount), 0);
    return { lines, amountCents: remainingCents, extraCents: remainingCents - linesCents };
  }
  const { body } = request;
  const fieldErrors: Record<string, string> = {};
  const seen = new Set<string>();
  const lines: StoredRefundLine[] = [];
  body.lines.forEach((l, index) => {
    const item = byId.get(l.orderItemId);
    if (!item) {
      fieldErrors[`lines.${index}.orderItemId`] = 'This line is not part of the order';
      return;
    }
    if (seen.has(l.orderItemId)) {
      fieldErrors[`lines.${index}.orderItemId`] = 'This line is listed twice';
      return;
    }
    seen.add(l.orderItemId);
    const left = item.quantity - item.refundedQuantity;
    if (l.quantity > left) {
      fieldErrors[`lines.${index}.quantity`] = left ? `Only ${left} of '${item.name}' can still be refunded` : `'${item.name}' has been refunded in full`;
      return;
    }
    lines.push({
      orderItemId: item.id, name: item.name, quantity: l.quantity, amount: fromCents(toCents(item.price) * l.quantity),
      restock: l.restock ?? !isLineShipped(order, item, trackingNumber),
    });
  });
  const first = Object.values(fieldErrors)[0];
  if (first) throw badRequest(first, fieldErrors, 'INVALID_REFUND');
  let extraCents = toCents(body.amount ?? 0);
  let amountCents = lines.reduce((n, l) => n + toCents(l.amount), 0) + extraCents;
  // Lines of an order bought with a discount code (issue 34.1): what they cost beyond what is left of
  // the discounted total is the discount, kept back (a negative extra amount), never given as money.
  const discountCents = toCents(order.discountPrice ?? 0);
  if (extraCents === 0 && discountCents > 0 && amountCents > remainingCents && amountCents - remainingCents <= discountCents) {
    extraCents = remainingCents - amountCents;
    amountCents = remainingCents;
  }
  if (amountCents <= 0) throw badRequest(ORDER_MESSAGES.refundEmpty, { lines: ORDER_MESSAGES.refundEmpty }, 'INVALID_REFUND');
  if (amountCents > remainingCents) {
    const message = `${ORDER_MESSAGES.refundTooLarge} (${fromCents(remainingCents).toFixed(2)} USD left, ${fromCents(amountCents).toFixed(2)} asked)`;
    throw badRequest(message, { amount: message }, 'REFUND_TOO_LARGE');
  }
  return { lines, amountCents, extraCents };
}

/** Whether a pending refund is this same request, asked again (a retry after an unknown outcome). */
function isSameRequest(pending: RefundRow, request: RefundRequest): boolean {
  if (request.kind === 'cancel') return pending.isCancellation;
  if (pending.isCancellation) return false;
  const key = (ls: Array<{ orderItemId: string; quantity: number }>) => ls.map((l) => `${l.orderItemId}:${l.quantity}`).sort().join(',');
  return key(pending.lines) === key(request.body.lines) && toCents(pending.extraAmount) === toCents(request.body.amount ?? 0)
    && pending.reason === request.body.reason;
}

export interface RefundOutcome {
  refund: RefundRow;
  /** Mails and other work to run once the change committed. */
  after: Array<() => Promise<void>>;
}

/**
 * Records a refund that the provider accepted (or a demo refund), in the caller's transaction and
 * exactly once: the conditional update from `pending` is the one thing that applies it. It adds to
 * the order's refunded amount (a CHECK keeps it within the total) and to each line's refunded units
 * (a CHECK keeps them within the quantity), restocks the lines chosen, writes the timeline (and the
 * cancellation, for a cancellation's refund) and the customer's mail. null: already settled.
 */
async function applyRefund(deps: PaymentDeps, tx: Tx, refundId: string, provider: { refundId: string | null; status: string | null }, now: Date): Promise<RefundOutcome | null> {
  const [refund] = await tx.update(orderRefunds)
    .set({ status: 'succeeded', settledAt: now, providerRefundId: provider.refundId, providerStatus: provider.status })
    .where(and(eq(orderRefunds.id, refundId), eq(orderRefunds.status, 'pending')))
    .returning();
  if (!refund) return null;
  const [order] = await tx.update(orders)
    .set({
      refundedAmount: sql`${orders.refundedAmount} + ${refund.amount.toFixed(2)}::numeric`, updatedAt: now,
      ...(refund.isCancellation ? { cancelledAt: now, cancelReason: refund.reason || null } : {}),
    })
    .where(eq(orders.id, refund.orderId))
    .returning();
  const restock: RestockLine[] = [];
  for (const line of refund.lines) {
    const [item] = await tx.update(orderItems)
      .set({ refundedQuantity: sql`${orderItems.refundedQuantity} + ${line.quantity}::int` })
      .where(and(eq(orderItems.id, line.orderItemId), eq(orderItems.orderId, refund.orderId)))
      .returning({ productId: orderItems.productId, variantId: orderItems.variantId });
    if (item && line.restock) restock.push({ productId: item.productId, variantId: item.variantId, quantity: line.quantity });
  }
  await restockLines(tx, restock);
  await recordOrderEvents(tx, [
    { orderId: refund.orderId, type: 'refunded', data: { amount: refund.amount, reason: refund.reason, refundId: refund.id }, authorId: refund.createdBy, at: now },
    ...(refund.isCancellation ? [{ orderId: refund.orderId, type: 'cancelled' as const, data: { reason: refund.reason || null }, authorId: refund.createdBy, at: now }] : []),
  ]);
  const after: Array<() => Promise<void>> = [];
  const customer = await customerOf(tx, order!.userId);
  if (customer) {
    const mailOrder = { id: order!.id, number: order!.number, provider: order!.paymentProvider };
    const link = orderPageUrl(deps.config, order!.id);
    const mail = refund.isCancellation
      ? cancellationMail(customer, mailOrder, { reason: refund.reason || null, refund }, link)
      : refundMail(customer, mailOrder, refund, link);
    after.push(await recordMailIn(tx, deps.mailer, mail));
  }
  return { refund, after };
}

/** Marks a pending refund failed (PayPal refused it): nothing else changes. */
async function failRefund(deps: PaymentDeps, refundId: string, failure: string): Promise<void> {
  await deps.db.update(orderRefunds).set({ status: 'failed', failure, settledAt: new Date() })
    .where(and(eq(orderRefunds.id, refundId), eq(orderRefunds.status, 'pending')));
}

export type SettleResult = { status: 'succeeded'; refund: RefundRow } | { status: 'failed'; issue: string | undefined } | { status: 'unknown' };

/**
 * Asks PayPal for a pending refund with the PayPal-Request-Id derived from its id: PayPal answers
 * the refund it already made for that id, or makes it now. Accepted (COMPLETED, or PENDING while
 * PayPal completes it): recorded once. Refused: failed, nothing changed. No answer: still pending.
 */
export async function settlePendingRefund(deps: PaymentDeps, pending: RefundRow): Promise<SettleResult> {
  const [order] = await deps.db.select({ paymentId: orders.paymentId, provider: orders.paymentProvider }).from(orders).where(eq(orders.id, pending.orderId)).limit(1);
  if (!order?.paymentId || order.provider !== 'paypal' || !deps.paypal) return { status: 'unknown' };
  let answer;
  try {
    answer = await deps.paypal.refundCapture(order.paymentId, {
      amount: pending.amount.toFixed(2), currency: 'USD', noteToPayer: pending.reason || undefined, customId: pending.id, requestId: `refund-${pending.id}`,
    });
  } catch (err) {
    if (err instanceof PayPalApiError) {
      deps.log.warn({ orderId: pending.orderId, refundId: pending.id, issue: err.issue, status: err.status }, 'PayPal refused a refund');
      await failRefund(deps, pending.id, err.issue ?? `HTTP ${err.status}`);
      return { status: 'failed', issue: err.issue };
    }
    if (err instanceof AppError) return { status: 'unknown' }; // unreachable, 5xx, nonsense: ask again later
    throw err;
  }
  const status = answer.status.toUpperCase();
  if (status === 'FAILED' || status === 'CANCELLED') {
    await failRefund(deps, pending.id, `PayPal refund ${answer.id} ${status}`);
    return { status: 'failed', issue: status === 'FAILED' ? 'REFUND_FAILED' : 'REFUND_CANCELLED' };
  }
  const now = new Date();
  const outcome = await deps.db.transaction((tx) => applyRefund(deps, tx, pending.id, { refundId: answer.id, status }, now));
  if (outcome) {
    for (const fn of outcome.after) await fn().catch((err: unknown) => deps.log.error({ err, refundId: pending.id }, 'refund mail failed'));
    return { status: 'succeeded', refund: outcome.refund };
  }
  // Settled meanwhile (a concurrent retry, or the sweep): answer what it became.
  const [now2] = await deps.db.select().from(orderRefunds).where(eq(orderRefunds.id, pending.id)).limit(1);
  if (now2?.status === 'succeeded') return { status: 'succeeded', refund: now2 };
  return { status: 'failed', issue: now2?.failure ?? undefined };
}

async function answerFor(deps: PaymentDeps, orderId: string, refund: RefundRow): Promise<RefundResponse> {
  const detail = await loadOrderDetail(deps.db, orderId);
  if (!detail) throw notFound(ORDER_MESSAGES.notFound);
  return { refund: presentRefund(refund), order: presentOrder(detail, new Date(), 'admin') };
}

/**
 * Opens a refund under the order's row lock (FOR UPDATE): every refund of an order is worked out
 * one at a time, so two administrators refunding at once can never give back more than was paid. A
 * PayPal refund is written `pending` and the transaction ends before PayPal is asked; a demo refund
 * is recorded at once.
 */
async function openRefund(deps: PaymentDeps, actor: AuthUser, orderId: string, request: RefundRequest, now: Date): Promise<RefundOutcome> {
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.id, orderId), isNull(orders.deletedAt))).for('update');
    if (!order) throw notFound(ORDER_MESSAGES.notFound);
    if (!order.isPaid) throw badRequest(ORDER_MESSAGES.notRefundable, undefined, 'ORDER_NOT_PAID');
    // A PayPal payment is refunded at PayPal only: without PayPal configured nothing is written.
    if (order.paymentProvider === 'paypal' && (!deps.paypal || !order.paymentId)) throw badRequest(ORDER_MESSAGES.paypalUnavailable, undefined, 'PAYPAL_UNAVAILABLE');
    if (request.kind === 'refund' && order.cancelledAt) throw new AppError(409, ORDER_MESSAGES.alreadyCancelled, 'ORDER_CANCELLED');
    if (toCents(order.refundedAmount) >= toCents(order.totalPrice)) throw new AppError(409, ORDER_MESSAGES.fullyRefunded, 'ORDER_REFUNDED');
    const [pending] = await tx.select({ id: orderRefunds.id }).from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.status, 'pending'))).limit(1);
    if (pending) throw new AppError(409, ORDER_MESSAGES.refundPending, 'REFUND_PENDING', undefined, 60);
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.position), asc(orderItems.id));
    const [shipment] = await tx.select({ trackingNumber: supplierShipments.trackingNumber }).from(supplierShipments).where(eq(supplierShipments.orderId, orderId)).limit(1);
    const plan = planRefund(order, items, shipment?.trackingNumber ?? null, request);
    if (plan.amountCents <= 0) throw new AppError(409, ORDER_MESSAGES.fullyRefunded, 'ORDER_REFUNDED');
    const provider = order.paymentProvider === 'paypal' ? 'paypal' : 'demo';
    const [refund] = await tx.insert(orderRefunds).values({
      id: newId(now.getTime()),
      orderId,
      amount: fromCents(plan.amountCents),
      extraAmount: fromCents(plan.extraCents),
      lines: plan.lines,
      reason: request.kind === 'refund' ? request.body.reason : (request.reason ?? ''),
      provider,
      isCancellation: request.kind === 'cancel',
      createdBy: actor.id,
      createdAt: now,
    }).returning();
    if (provider === 'paypal') return { refund: refund!, after: [] };
    // Demo payments took no money: the refund is recorded at once, in this transaction.
    const applied = await applyRefund(deps, tx, refund!.id, { refundId: null, status: null }, now);
    return applied!;
  });
}

/**
 * POST orders/{id}/refunds (admin), and the refund of a cancellation. A pending refund left by an
 * earlier attempt (PayPal's answer or our write was lost) is settled first with its own
 * PayPal-Request-Id, so it is never made twice; when it is this same request (a retry), its result
 * is the answer. Another request waits (409) while a pending refund is younger than
 * REFUND_SETTLE_AFTER_MS: it is probably still under way. Then the refund is opened under the order's lock, PayPal is asked (POST
 * /v2/payments/captures/{capture_id}/refund with PayPal-Request-Id `refund-<id>`), and its answer
 * is recorded once. PayPal refusing changes nothing and says why (400 REFUND_REFUSED); no answer
 * leaves it pending (502), asked again by a retry or the sweep (settle-refunds.ts).
 */
export async function refundOrder(deps: PaymentDeps, actor: AuthUser, orderId: string, request: RefundRequest): Promise<RefundResponse> {
  if (!isId(orderId)) throw notFound(ORDER_MESSAGES.notFound);
  const [leftBehind] = await deps.db.select().from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.status, 'pending'))).limit(1);
  if (leftBehind) {
    // Another administrator's refund still under way: wait for it (the sweep settles it if abandoned).
    const isYoung = Date.now() - leftBehind.createdAt.getTime() < REFUND_SETTLE_AFTER_MS;
    if (isYoung && !isSameRequest(leftBehind, request)) throw new AppError(409, ORDER_MESSAGES.refundPending, 'REFUND_PENDING', undefined, 60);
    const settled = await settlePendingRefund(deps, leftBehind);
    if (settled.status === 'unknown') throw refundUnknown();
    if (isSameRequest(leftBehind, request)) {
      if (settled.status === 'failed') throw refundRefused(settled.issue);
      return answerFor(deps, orderId, settled.refund);
    }
  }
  const opened = await openRefund(deps, actor, orderId, request, new Date());
  if (opened.refund.status === 'succeeded') {
    for (const fn of opened.after) await fn().catch((err: unknown) => deps.log.error({ err, refundId: opened.refund.id }, 'refund mail failed'));
    return answerFor(deps, orderId, opened.refund);
  }
  const settled = await settlePendingRefund(deps, opened.refund);
  if (settled.status === 'unknown') throw refundUnknown();
  if (settled.status === 'failed') throw refundRefused(settled.issue);
  return answerFor(deps, orderId, settled.refund);
}
