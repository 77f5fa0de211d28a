import { and, asc, eq, inArray, isNotNull, isNull, lte, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import type { JobRunner } from '../../lib/jobs.ts';
import { orderItems, orders, products, productVariants } from '../../db/schema.ts';
import { releaseDiscountUses } from '../discounts/index.ts';
import { recordOrderEvents } from './order-events.ts';

/**
 * Puts the stock reserved by these orders back on sale, and gives back the discount-code uses they
 * held. Call it inside the transaction that set their `stock_released_at` (the conditional update
 * that makes the release happen exactly once): expiry, cancellation of an unpaid order, deletion.
 */
export async function restockOrders(tx: Tx, orderIds: string[]): Promise<void> {
  if (!orderIds.length) return;
  await releaseDiscountUses(tx, orderIds);
  const lines = await tx
    .select({ productId: orderItems.productId, variantId: orderItems.variantId, quantity: sum(orderItems.quantity).mapWith(Number) })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .groupBy(orderItems.productId, orderItems.variantId)
    .orderBy(asc(orderItems.productId), asc(orderItems.variantId)); // one lock order everywhere: no deadlocks
  await restockLines(tx, lines);
}

export interface RestockLine { productId: string; variantId: string | null; quantity: number }

/**
 * Puts these quantities back on sale (an order's stock released, a refunded line restocked), in the
 * caller's transaction: products locked in id order first, then variants, as the checkout locks them
 * (no deadlocks).
 */
export async function restockLines(tx: Tx, input: RestockLine[]): Promise<void> {
  const lines = [...input].filter((l) => l.quantity > 0)
    .sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : (a.variantId ?? '') < (b.variantId ?? '') ? -1 : 1));
  if (!lines.length) return;
  await tx.select({ id: products.id }).from(products)
    .where(inArray(products.id, [...new Set(lines.map((l) => l.productId))])).orderBy(asc(products.id)).for('update');
  for (const line of lines.filter((l) => l.variantId === null)) {
    await tx.update(products)
      .set({ countInStock: sql`${products.countInStock} + ${line.quantity}` })
      .where(eq(products.id, line.productId));
  }
  for (const line of lines.filter((l) => l.variantId !== null)) {
    const [v] = await tx.update(productVariants)
      .set({ countInStock: sql`${productVariants.countInStock} + ${line.quantity}` })
      .where(eq(productVariants.id, line.variantId!))
      .returning({ vid: productVariants.vid, enabled: productVariants.enabled });
    // The product's own stock mirrors the variant its listing opens on (supplier products), or is
    // the sum of its variants on sale (own products with options).
    if (v) {
      await tx.update(products).set({ countInStock: sql`${products.countInStock} + ${line.quantity}` })
        .where(and(eq(products.id, line.productId), v.enabled
          ? sql`((${products.cjData} ->> 'vid') = ${v.vid} or ${products.cjData} is null)`
          : sql`(${products.cjData} ->> 'vid') = ${v.vid}`));
    }
  }
}

const BATCH = 200;

/**
 * What PayPal says about the PayPal order of an unpaid order due to expire (asked by the payments
 * module, which owns the PayPal client, through app.ctx.checkPayPalOrder):
 * - 'paid': it was captured for this order, and the payment is now recorded (or already was);
 * - 'unpaid': no money was taken (never approved or captured, voided, unknown to PayPal, refunded);
 * - 'pending': PayPal holds a capture not completed yet (e.g. an eCheck);
 * - 'unreachable': PayPal could not be asked.
 */
export type PayPalOrderCheck = 'paid' | 'unpaid' | 'pending' | 'unreachable';
export type CheckPayPalOrder = (order: { orderId: string; paypalOrderId: string }) => Promise<PayPalOrderCheck>;

/**
 * How long an order whose PayPal order could not be checked (PayPal unreachable, capture pending) is
 * kept past its expiry, its stock still reserved, before it expires anyway with a warning.
 */
export const PAYPAL_CHECK_GRACE_MS = 6 * 3_600_000;
/** PayPal orders looked up per sweep: each is a round trip to PayPal. */
export const PAYPAL_CHECKS_PER_SWEEP = 25;
/** A sweep starts no PayPal lookup after this long (well within the job's lease of 2 minutes). */
const PAYPAL_CHECK_BUDGET_MS = 45_000;
/** After this many unreachable answers in a row, PayPal is taken to be down until the next sweep. */
const PAYPAL_DOWN_AFTER = 2;

export interface SweepResult {
  /** Expired, their stock released. */
  expired: string[];
  /** Found captured on PayPal and recorded as paid instead of expiring. */
  paid: string[];
  /** Kept for the next sweep: their PayPal order could not be checked (within the grace). */
  kept: string[];
}

/** Releases one order's stock if it is still unpaid, unreleased, due and bound to that PayPal order. */
async function expirePayPalOrder(db: Db, orderId: string, paypalOrderId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const released = await tx.update(orders)
      .set({ stockReleasedAt: now, updatedAt: now })
      .where(and(
        eq(orders.id, orderId), eq(orders.paypalOrderId, paypalOrderId),
        eq(orders.isPaid, false), isNull(orders.stockReleasedAt), lte(orders.expiresAt, now),
      ))
      .returning({ id: orders.id });
    await restockOrders(tx, released.map((r) => r.id));
    await recordOrderEvents(tx, released.map((r) => ({ orderId: r.id, type: 'expired' as const, at: now })));
    return released.length > 0;
  });
}

/**
 * Unpaid orders due at `now` that have a PayPal order: PayPal is asked first, as the money may have
 * been taken by a pay call whose write failed. Captured: recorded as paid. Not captured: expired.
 * No answer: kept for the next sweep, until PAYPAL_CHECK_GRACE_MS past its expiry, then expired
 * with a warning naming the order. Bounded: PAYPAL_CHECKS_PER_SWEEP orders, PAYPAL_CHECK_BUDGET_MS.
 */
async function sweepPayPalOrders(db: Db, now: Date, opts: SweepOptions, result: SweepResult): Promise<void> {
  const due = await db.select({ orderId: orders.id, paypalOrderId: orders.paypalOrderId, expiresAt: orders.expiresAt }).from(orders)
    .where(and(eq(orders.isPaid, false), isNull(orders.stockReleasedAt), lte(orders.expiresAt, now), isNotNull(orders.paypalOrderId)))
    .orderBy(asc(orders.expiresAt), asc(orders.id))
    .limit(PAYPAL_CHECKS_PER_SWEEP);
  const deadline = Date.now() + PAYPAL_CHECK_BUDGET_MS;
  let unreachableInARow = 0;
  for (const { orderId, paypalOrderId, expiresAt } of due) {
    const order = { orderId, paypalOrderId: paypalOrderId! };
    let verdict: PayPalOrderCheck = 'unreachable';
    if (opts.checkPayPalOrder && unreachableInARow < PAYPAL_DOWN_AFTER && Date.now() < deadline) {
      try {
        verdict = await opts.checkPayPalOrder(order);
      } catch (err) {
        // Asked, but the answer could not be acted on (e.g. the database failed while recording).
        opts.log?.error({ err, ...order }, 'checking the PayPal order of an order due to expire failed');
        verdict = 'pending';
      }
      unreachableInARow = verdict === 'unreachable' ? unreachableInARow + 1 : 0;
    }
    if (verdict === 'paid') {
      result.paid.push(orderId);
      continue;
    }
    const isPastGrace = expiresAt!.getTime() <= now.getTime() - PAYPAL_CHECK_GRACE_MS;
    if (verdict !== 'unpaid' && !isPastGrace) {
      result.kept.push(orderId);
      continue;
    }
    if (!(await expirePayPalOrder(db, orderId, order.paypalOrderId, now))) continue;
    result.expired.push(orderId);
    if (verdict !== 'unpaid') {
      opts.log?.warn({ ...order, verdict, expiresAt }, `expired order ${orderId} without knowing whether its PayPal order was paid: check it on PayPal`);
    }
  }
}

export interface SweepOptions {
  /** Asks PayPal about an order's PayPal order; without it, such orders are kept until the grace ends. */
  checkPayPalOrder?: CheckPayPalOrder | undefined;
  log?: FastifyBaseLogger | undefined;
}

/**
 * Expires unpaid orders whose time is up at `now` and releases their stock, each exactly once even
 * when several instances sweep at the same moment. An order with a PayPal order is first checked
 * with PayPal (sweepPayPalOrders): a payment taken is recorded rather than lost.
 */
export async function sweepUnpaidOrders(db: Db, now: Date = new Date(), opts: SweepOptions = {}): Promise<SweepResult> {
  const result: SweepResult = { expired: [], paid: [], kept: [] };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const due = await tx.select({ id: orders.id }).from(orders)
        .where(and(eq(orders.isPaid, false), isNull(orders.stockReleasedAt), lte(orders.expiresAt, now), isNull(orders.paypalOrderId)))
        .orderBy(asc(orders.expiresAt), asc(orders.id))
        .limit(BATCH);
      if (!due.length) return [];
      const released = await tx.update(orders)
        .set({ stockReleasedAt: now, updatedAt: now })
        .where(and(
          inArray(orders.id, due.map((d) => d.id)),
          eq(orders.isPaid, false),
          isNull(orders.stockReleasedAt),
          lte(orders.expiresAt, now),
          isNull(orders.paypalOrderId),
        ))
        .returning({ id: orders.id });
      await restockOrders(tx, released.map((r) => r.id));
      await recordOrderEvents(tx, released.map((r) => ({ orderId: r.id, type: 'expired' as const, at: now })));
      return released.map((r) => r.id);
    });
    result.expired.push(...batch);
    if (batch.length < BATCH) break;
  }
  await sweepPayPalOrders(db, now, opts, result);
  return result;
}

/** sweepUnpaidOrders, answering the ids it expired. */
export async function expireUnpaidOrders(db: Db, now: Date = new Date(), opts: SweepOptions = {}): Promise<string[]> {
  return (await sweepUnpaidOrders(db, now, opts)).expired;
}

/** The periodic sweep that expires unpaid orders (one run per period across a fleet, lib/jobs.ts). */
export const ORDER_EXPIRY_JOB = 'orders.expire';

/**
 * Registers the expiry sweep on the instance's job runner, every `everyMs`. Each period's sweep is
 * one job, claimed by one instance; should two sweeps ever overlap (a sweep outliving its lease),
 * the conditional updates still release each order's stock once and pay it once.
 */
export function registerOrderExpiry(
  jobs: JobRunner, db: Db, opts: { everyMs: number; log: FastifyBaseLogger; checkPayPalOrder: () => CheckPayPalOrder | undefined },
): void {
  jobs.register(ORDER_EXPIRY_JOB, async () => {
    const { expired, paid, kept } = await sweepUnpaidOrders(db, new Date(), { checkPayPalOrder: opts.checkPayPalOrder(), log: opts.log });
    if (expired.length) opts.log.info({ count: expired.length, orderIds: expired.slice(0, 1000) }, 'expired unpaid orders and released their stock');
    if (paid.length) opts.log.warn({ count: paid.length, orderIds: paid }, 'recorded PayPal payments found captured when their orders were due to expire');
    if (kept.length) opts.log.info({ count: kept.length, orderIds: kept }, 'kept unpaid orders whose PayPal order could not be checked');
    return { expired: expired.length, paid: paid.length, kept: kept.length };
  });
  jobs.schedule(ORDER_EXPIRY_JOB, opts.everyMs);
}
