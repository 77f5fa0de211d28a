import { ORDER_MESSAGES } from '@shop/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobs, supplierShipments } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { findJob } from '../../lib/jobs.ts';
import { CjApiError } from './cj-client.ts';
import { CJ_SHIPPED_STATES } from './cj-types.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import { SUPPLIER_ORDER_JOB } from './supplier-orders.ts';

/**
 * What happened to the supplier side of an order being cancelled:
 * - none: it has no supplier order;
 * - withdrawn: its supplier order had not been sent (pending, or failed): it never will be;
 * - cancelled: CJ withdrew the order it had (shopping/order/deleteOrder).
 */
export type SupplierCancelOutcome = { kind: 'none' } | { kind: 'withdrawn' } | { kind: 'cancelled'; cjOrderId: string };
export type CancelSupplierOrder = (orderId: string) => Promise<SupplierCancelOutcome>;

export const SUPPLIER_WITHDRAWN_ERROR = 'Withdrawn: the order was cancelled';

/**
 * Cancels the supplier order of one of our orders, before the order itself is cancelled. Refuses
 * (409, nothing changed) when CJ has shipped it (SUPPLIER_SHIPPED: a refund stays possible), when
 * CJ refuses to withdraw it (SUPPLIER_CANCEL_REFUSED, CJ's words), or while it is being sent
 * (SUPPLIER_SENDING, try again). CJ unreachable: its own 503/502 error, nothing changed.
 */
export function createCancelSupplierOrder(deps: { db: Db; catalogue: SupplierCatalogue; log: FastifyBaseLogger }): CancelSupplierOrder {
  return async (orderId) => {
    const job = await findJob(deps.db, SUPPLIER_ORDER_JOB, orderId);
    if (!job) return { kind: 'none' };
    if (job.status === 'pending' || job.status === 'failed') {
      // Not sent: withdrawn by the conditional update that a claim would otherwise win.
      const withdrawn = await deps.db.update(jobs)
        .set({ status: 'failed', lastError: SUPPLIER_WITHDRAWN_ERROR, lockedUntil: null, leaseToken: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(jobs.id, job.id), inArray(jobs.status, ['pending', 'failed'])))
        .returning({ id: jobs.id });
      if (withdrawn.length) return { kind: 'withdrawn' };
      return createCancelSupplierOrder(deps)(orderId); // claimed meanwhile: decide again
    }
    if (job.status === 'running') throw new AppError(409, ORDER_MESSAGES.supplierSending, 'SUPPLIER_SENDING', undefined, 30);
    const cjOrderId = (job.result as { cjOrderId?: unknown } | null)?.cjOrderId;
    if (typeof cjOrderId !== 'string') return { kind: 'none' };
    const detail = await deps.catalogue.getOrderDetail(cjOrderId);
    const status = detail.orderStatus.toUpperCase();
    if (CJ_SHIPPED_STATES.has(status) || detail.trackNumber) {
      const parcel = [detail.logisticName, detail.trackNumber ? `tracking number ${detail.trackNumber}` : null].filter(Boolean).join(', ');
      throw new AppError(409, `CJ has already shipped this order (status ${status || 'SHIPPED'}${parcel ? `, ${parcel}` : ''}): it can no longer be cancelled. Refund the customer instead.`, 'SUPPLIER_SHIPPED');
    }
    if (status !== 'CANCELLED') {
      try {
        await deps.catalogue.deleteOrder(cjOrderId);
      } catch (err) {
        if (err instanceof CjApiError && (err.code === 'SUPPLIER_REFUSED' || err.code === 'SUPPLIER_NOT_FOUND')) {
          deps.log.warn({ orderId, cjOrderId, reason: err.message }, 'CJ refused to cancel a supplier order');
          throw new AppError(409, `CJ did not cancel its order ${cjOrderId}: ${err.message}`, 'SUPPLIER_CANCEL_REFUSED');
        }
        throw err;
      }
    }
    const now = new Date();
    await deps.db.insert(supplierShipments).values({ orderId, cjOrderId, status: 'CANCELLED', checkedAt: now })
      .onConflictDoUpdate({ target: supplierShipments.orderId, set: { status: 'CANCELLED', checkedAt: now } });
    deps.log.info({ orderId, cjOrderId }, 'supplier order cancelled at CJ');
    return { kind: 'cancelled', cjOrderId };
  };
}
