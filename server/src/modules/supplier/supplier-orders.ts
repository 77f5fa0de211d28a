import {
  CJ_MESSAGES, CJ_PAGE_SIZE, type SupplierOrder, type SupplierOrderListResponse, type SupplierOrderStatus, type SupplierSource,
} from '@shop/contracts';
import { and, asc, count, desc, eq, inArray, isNotNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { jobs, orderEvents, orderItems, orders, products, productVariants, supplierShipments, type JobStatus } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import {
  enqueueJob, findJob, PermanentJobError, retryJob, RetryableJobError, type JobHandler, type JobRow,
} from '../../lib/jobs.ts';
import { CjApiError } from './cj-client.ts';
import type { CjCreateOrderBody } from './cj-types.ts';
import { resolveCountry } from './country-codes.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import type { StoredCjData } from './supplier.presenter.ts';
import { presentShipment } from './shipment.presenter.ts';

/** The job that creates the supplier order of a paid order (dedupe key: our order id). */
export const SUPPLIER_ORDER_JOB = 'supplier.order';
const MAX_ATTEMPTS = 8;

const lineSchema = z.object({ productId: z.string(), name: z.string(), vid: z.string(), quantity: z.number().int().positive() });
const payloadSchema = z.object({ orderId: z.string(), lines: z.array(lineSchema).min(1) });
type SupplierOrderPayload = z.infer<typeof payloadSchema>;

/**
 * Whether the order (`orderId`: a column or value) holds a supplier product: a cheap test a caller
 * may put in the statement that marks the order paid, to call enqueueSupplierOrder only then.
 */
export function holdsSupplierProducts(orderId: SQLWrapper | string): SQL<boolean> {
  // Aliased: a RETURNING clause renders drizzle's columns without their table.
  return sql<boolean>`exists (select 1 from ${orderItems} oi inner join ${products} p on p.id = oi.product_id
    where oi.order_id = ${orderId} and p.cj_data is not null)`;
}

/**
 * Queues the supplier order of a paid order that holds supplier products. Call it in the
 * transaction that marks the order paid: the job exists exactly when the payment does, and (kind,
 * order id) is unique, so a replayed payment never queues a second one. Returns whether it queued.
 */
export async function enqueueSupplierOrder(tx: Executor, orderId: string): Promise<boolean> {
  const rows = await tx.select({
    productId: orderItems.productId, name: orderItems.name, quantity: orderItems.quantity, cjData: products.cjData, variantVid: productVariants.vid,
  })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
    .where(and(eq(orderItems.orderId, orderId), isNotNull(products.cjData)))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  const lines = rows.flatMap((r) => {
    const cj = r.cjData as unknown as Partial<StoredCjData> | null;
    // Each line's own variant; lines sold before variants existed: the product's variant.
    const vid = r.variantVid ?? cj?.vid ?? cj?.variants?.[0]?.vid;
    return vid ? [{ productId: r.productId.trim(), name: r.name, vid, quantity: r.quantity }] : [];
  });
  if (!lines.length) return false;
  const payload: SupplierOrderPayload = { orderId, lines };
  const { created } = await enqueueJob(tx, { kind: SUPPLIER_ORDER_JOB, dedupeKey: orderId, payload, maxAttempts: MAX_ATTEMPTS });
  return created;
}

/**
 * The job handler: creates the order at CJ (shopping/order/createOrderV2) with our order id as the
 * order number, the shipping address and each line's vid and quantity. CJ treats a repeated order
 * number as the same order, so running again after a crash mid-send makes no second order.
 */
export function sendSupplierOrderHandler(deps: { db: Executor; catalogue: SupplierCatalogue; config: Pick<Config, 'cj'> }): JobHandler {
  return async (raw) => {
    const parsed = payloadSchema.safeParse(raw);
    if (!parsed.success) throw new PermanentJobError('The supplier order job is malformed');
    const { orderId, lines } = parsed.data;
    const [order] = await deps.db.select({ shippingAddress: orders.shippingAddress, isPaid: orders.isPaid, cancelledAt: orders.cancelledAt })
      .from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order) throw new PermanentJobError('The order no longer exists');
    if (!order.isPaid) throw new PermanentJobError('The order is not paid');
    if (order.cancelledAt) throw new PermanentJobError('Withdrawn: the order was cancelled');
    const a = order.shippingAddress;
    const country = resolveCountry(a.country);
    if (!country) throw new PermanentJobError(`CJ needs a country it knows: '${a.country}' is not recognised (use the country's name or its two-letter code)`);
    const body: CjCreateOrderBody = {
      orderNumber: orderId,
      shippingZip: a.postalCode,
      shippingCountryCode: country.code,
      shippingCountry: country.name,
      shippingProvince: '',
      shippingCity: a.city,
      shippingAddress: a.address,
      shippingCustomerName: a.fullName,
      shippingPhone: '',
      remark: `Shop order ${orderId}`,
      logisticName: deps.config.cj.logisticName,
      fromCountryCode: deps.config.cj.fromCountryCode,
      payType: 3,
      products: lines.map((l, i) => ({ vid: l.vid, quantity: l.quantity, storeLineItemId: `${orderId}-${i + 1}` })),
    };
    try {
      const created = await deps.catalogue.createOrder(body);
      // The order's timeline (once, however often the job runs: the event's dedupe key).
      await deps.db.insert(orderEvents).values({
        id: newId(), orderId, type: 'forwarded', data: { cjOrderId: created.orderId }, dedupeKey: 'forwarded',
      }).onConflictDoNothing();
      return { cjOrderId: created.orderId, cjOrderStatus: created.orderStatus ?? null, sentAt: new Date().toISOString() };
    } catch (err) {
      if (!(err instanceof CjApiError)) throw err;
      // CJ refused this order (bad variant, address, logistic...): retrying the same request cannot help.
      if (err.code === 'SUPPLIER_REFUSED' || err.code === 'SUPPLIER_NOT_FOUND') throw new PermanentJobError(err.message);
      throw new RetryableJobError(err.message, err.statusCode === 429 ? 60_000 : undefined);
    }
  };
}

const STATUS: Record<JobStatus, SupplierOrderStatus> = { pending: 'pending', running: 'sending', done: 'sent', failed: 'failed' };

export function presentSupplierOrder(job: JobRow, source: SupplierSource): SupplierOrder {
  const payload = payloadSchema.safeParse(job.payload);
  const result = (job.result ?? {}) as { cjOrderId?: unknown; sentAt?: unknown };
  return {
    orderId: job.dedupeKey,
    status: STATUS[job.status],
    source,
    cjOrderId: typeof result.cjOrderId === 'string' ? result.cjOrderId : null,
    lastError: job.lastError,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    nextAttemptAt: job.status === 'pending' ? job.runAt.toISOString() : null,
    lines: payload.success ? payload.data.lines : [],
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    sentAt: typeof result.sentAt === 'string' ? result.sentAt : null,
  };
}

/** The supplier order of one of our orders (the admin order page). */
export async function getSupplierOrder(db: Executor, orderId: string, source: SupplierSource): Promise<SupplierOrder> {
  const job = isId(orderId) ? await findJob(db, SUPPLIER_ORDER_JOB, orderId) : undefined;
  if (!job) throw notFound(CJ_MESSAGES.orderNotFound);
  const [shipment] = await db.select().from(supplierShipments).where(eq(supplierShipments.orderId, orderId)).limit(1);
  return { ...presentSupplierOrder(job, source), shipment: shipment ? presentShipment(shipment) : null };
}

/** Supplier orders, newest first (the admin list). */
export async function listSupplierOrders(
  db: Executor, q: { page: number; status: 'all' | SupplierOrderStatus }, source: SupplierSource,
): Promise<SupplierOrderListResponse> {
  const byStatus: Record<SupplierOrderStatus, JobStatus> = { pending: 'pending', sending: 'running', sent: 'done', failed: 'failed' };
  const where = (q.status === 'all'
    ? eq(jobs.kind, SUPPLIER_ORDER_JOB)
    : and(eq(jobs.kind, SUPPLIER_ORDER_JOB), eq(jobs.status, byStatus[q.status]))) as SQL;
  const [total] = await db.select({ n: count() }).from(jobs).where(where);
  const rows = await db.select().from(jobs).where(where).orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(CJ_PAGE_SIZE).offset((q.page - 1) * CJ_PAGE_SIZE);
  const n = Number(total?.n ?? 0);
  // Our orders' numbers, read by primary key for this page (the job's key is the order id).
  const orderIds = rows.map((r) => r.dedupeKey).filter(isId);
  const numbers = new Map(orderIds.length
    ? (await db.select({ id: orders.id, number: orders.number }).from(orders).where(inArray(orders.id, orderIds))).map((o) => [o.id, o.number])
    : []);
  return {
    data: { content: rows.map((r) => ({ ...presentSupplierOrder(r, source), orderNumber: numbers.get(r.dedupeKey) ?? null })), pageNum: q.page, pageSize: CJ_PAGE_SIZE, total: n, totalPages: Math.ceil(n / CJ_PAGE_SIZE) },
    source,
  };
}

/** An administrator's Retry on a failed supplier order. */
export async function retrySupplierOrder(db: Executor, orderId: string, source: SupplierSource): Promise<SupplierOrder> {
  const job = isId(orderId) ? await findJob(db, SUPPLIER_ORDER_JOB, orderId) : undefined;
  if (!job) throw notFound(CJ_MESSAGES.orderNotFound);
  if (!(await retryJob(db, job.id))) throw conflict(CJ_MESSAGES.orderNotFailed);
  return getSupplierOrder(db, orderId, source);
}
