import { and, asc, eq, inArray, isNull, lte, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import type { JobRunner } from '../../lib/jobs.ts';
import { orderItems, orders, products, productVariants } from '../../db/schema.ts';

/**
 * Puts the stock reserved by these orders back on sale. Call it inside the transaction that set
 * their `stock_released_at` (the conditional update that makes the release happen exactly once).
 */
export async function restockOrders(tx: Tx, orderIds: string[]): Promise<void> {
  if (!orderIds.length) return;
  const lines = await tx
    .select({ productId: orderItems.productId, variantId: orderItems.variantId, quantity: sum(orderItems.quantity).mapWith(Number) })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .groupBy(orderItems.productId, orderItems.variantId)
    .orderBy(asc(orderItems.productId), asc(orderItems.variantId)); // one lock order everywhere: no deadlocks
  // Products first, then variants (the checkout locks products before it touches their variants).
  for (const line of lines.filter((l) => l.variantId === null)) {
    await tx.update(products)
      .set({ countInStock: sql`${products.countInStock} + ${line.quantity}` })
      .where(eq(products.id, line.productId));
  }
  for (const line of lines.filter((l) => l.variantId !== null)) {
    const [v] = await tx.update(productVariants)
      .set({ countInStock: sql`${productVariants.countInStock} + ${line.quantity}` })
      .where(eq(productVariants.id, line.variantId!))
      .returning({ vid: productVariants.vid });
    // The product's own stock mirrors the variant its listing opens on.
    if (v) {
      await tx.update(products).set({ countInStock: sql`${products.countInStock} + ${line.quantity}` })
        .where(and(eq(products.id, line.productId), sql`(${products.cjData} ->> 'vid') = ${v.vid}`));
    }
  }
}

const BATCH = 200;

/**
 * Expires unpaid orders whose time is up at `now` and releases their stock, each exactly once even
 * when several instances sweep at the same moment. Returns the ids it expired.
 */
export async function expireUnpaidOrders(db: Db, now: Date = new Date()): Promise<string[]> {
  const expired: string[] = [];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const due = await tx.select({ id: orders.id }).from(orders)
        .where(and(eq(orders.isPaid, false), isNull(orders.stockReleasedAt), lte(orders.expiresAt, now)))
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
        ))
        .returning({ id: orders.id });
      await restockOrders(tx, released.map((r) => r.id));
      return released.map((r) => r.id);
    });
    expired.push(...batch);
    if (batch.length < BATCH) return expired;
  }
}

/** The periodic sweep that expires unpaid orders (one run per period across a fleet, lib/jobs.ts). */
export const ORDER_EXPIRY_JOB = 'orders.expire';

/**
 * Registers the expiry sweep on the instance's job runner, every `everyMs`. Each period's sweep is
 * one job, claimed by one instance; should two sweeps ever overlap (a sweep outliving its lease),
 * the conditional update in expireUnpaidOrders still releases each order's stock once.
 */
export function registerOrderExpiry(jobs: JobRunner, db: Db, opts: { everyMs: number; log: FastifyBaseLogger }): void {
  jobs.register(ORDER_EXPIRY_JOB, async () => {
    const ids = await expireUnpaidOrders(db);
    if (ids.length) opts.log.info({ count: ids.length, orderIds: ids.slice(0, 1000) }, 'expired unpaid orders and released their stock');
    return { expired: ids.length };
  });
  jobs.schedule(ORDER_EXPIRY_JOB, opts.everyMs);
}
