import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { JobRunner } from '../../lib/jobs.ts';
import { orderRefunds } from '../../db/schema.ts';
import type { PaymentDeps } from './record-payment.ts';
import { REFUND_SETTLE_AFTER_MS, settlePendingRefund } from './refund-order.ts';

export { REFUND_SETTLE_AFTER_MS };

/** The periodic job that settles refunds left pending (PayPal's answer or the shop's write was lost). */
export const REFUND_SETTLE_JOB = 'payments.refunds.settle';
/** Refunds asked about per round (each is a round trip to PayPal). */
export const REFUND_SETTLE_BATCH = 25;
/** After this many unanswered refunds in a row PayPal is taken to be down until the next round. */
const DOWN_AFTER = 2;

/**
 * One round: each refund pending for more than REFUND_SETTLE_AFTER_MS is asked again with its own
 * PayPal-Request-Id, so PayPal answers the refund it made (recorded once) or makes it now, or
 * refuses it (failed, nothing changed). Like the expiry sweep's PayPal check (release-stock.ts).
 */
export async function settlePendingRefunds(deps: PaymentDeps, now: Date = new Date()): Promise<{ succeeded: number; failed: number; unknown: number }> {
  const due = await deps.db.select().from(orderRefunds)
    .where(and(eq(orderRefunds.status, 'pending'), lte(orderRefunds.createdAt, new Date(now.getTime() - REFUND_SETTLE_AFTER_MS))))
    .orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.id))
    .limit(REFUND_SETTLE_BATCH);
  const result = { succeeded: 0, failed: 0, unknown: 0 };
  let unknownInARow = 0;
  for (const refund of due) {
    if (unknownInARow >= DOWN_AFTER) break;
    try {
      const settled = await settlePendingRefund(deps, refund);
      result[settled.status] += 1;
      unknownInARow = settled.status === 'unknown' ? unknownInARow + 1 : 0;
      if (settled.status === 'succeeded') deps.log.warn({ orderId: refund.orderId, refundId: refund.id }, 'recorded a PayPal refund left pending');
      if (settled.status === 'failed') deps.log.warn({ orderId: refund.orderId, refundId: refund.id, issue: settled.issue }, 'a refund left pending was refused by PayPal: nothing changed');
    } catch (err) {
      result.unknown += 1;
      deps.log.error({ err, orderId: refund.orderId, refundId: refund.id }, 'settling a pending refund failed');
    }
  }
  return result;
}

/**
 * Refunds PayPal accepted as PENDING (it completes them later, e.g. an eCheck) are asked about again
 * (GET /v2/payments/refunds/{id}) until PayPal settles them: the status shown follows PayPal's. One
 * PayPal later reports FAILED or CANCELLED (the money did not go back) is logged for an operator,
 * who repays the customer by hand; the shop's record of the refund is left as it was.
 */
export async function refreshPendingProviderRefunds(deps: PaymentDeps, now: Date = new Date()): Promise<{ checked: number; changed: number }> {
  if (!deps.paypal) return { checked: 0, changed: 0 };
  const due = await deps.db.select().from(orderRefunds)
    .where(and(eq(orderRefunds.status, 'succeeded'), eq(orderRefunds.providerStatus, 'PENDING'), isNotNull(orderRefunds.providerRefundId),
      lte(orderRefunds.settledAt, new Date(now.getTime() - REFUND_SETTLE_AFTER_MS))))
    .orderBy(asc(orderRefunds.settledAt), asc(orderRefunds.id))
    .limit(REFUND_SETTLE_BATCH);
  let checked = 0;
  let changed = 0;
  for (const refund of due) {
    const answer = await deps.paypal.getRefund(refund.providerRefundId!).catch(() => undefined);
    if (answer === undefined) break; // PayPal unreachable: next round
    checked += 1;
    const status = answer?.status.toUpperCase() ?? 'UNKNOWN';
    if (status === 'PENDING') continue;
    await deps.db.update(orderRefunds).set({ providerStatus: status }).where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.providerStatus, 'PENDING')));
    changed += 1;
    if (status !== 'COMPLETED') {
      deps.log.error({ orderId: refund.orderId, refundId: refund.id, paypalRefundId: refund.providerRefundId, status },
        'PayPal did not complete a refund it had accepted: the money did not go back, repay the customer by hand');
    }
  }
  return { checked, changed };
}

/** Registers the sweep on the job runner, every `everyMs` (once per period across a fleet). */
export function registerRefundSettlement(jobs: JobRunner, deps: PaymentDeps, everyMs: number): void {
  jobs.register(REFUND_SETTLE_JOB, async () => ({ ...await settlePendingRefunds(deps), providerStatus: await refreshPendingProviderRefunds(deps) }));
  jobs.schedule(REFUND_SETTLE_JOB, everyMs);
}
