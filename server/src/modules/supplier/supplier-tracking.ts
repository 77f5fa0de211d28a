import { CJ_MESSAGES, formatOrderNumber, shopperCarrier, trackingUrlFor, type SupplierOrder, type SupplierSource } from '@shop/contracts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobs, orderEvents, orders, supplierShipments, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { findJob } from '../../lib/jobs.ts';
import type { Mail, Mailer } from '../../lib/mailer.ts';
import type { CjOrderDetail } from './cj-types.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import { getSupplierOrder, SUPPLIER_ORDER_JOB } from './supplier-orders.ts';

/** The periodic job that asks CJ about forwarded orders not yet delivered. */
export const SUPPLIER_TRACKING_JOB = 'supplier.tracking';
/** Orders asked about per round (CJ's per-second limit is honoured by the client). */
export const TRACKING_BATCH = 50;

export interface TrackingDeps {
  db: Db;
  catalogue: SupplierCatalogue;
  mailer: Mailer;
  /** The origin of the order link in the mail (config.siteUrl). */
  siteUrl: string;
  log: FastifyBaseLogger;
}

/** The "your order has shipped" e-mail, in the shop's words: the carrier shoppers know and a tracking link (issue 34.4). */
export function shippedMail(to: { name: string; email: string; number: number }, orderId: string, d: { trackingNumber: string; carrier: string | null }, siteUrl: string): Mail {
  const link = `${siteUrl}/order/${orderId}`;
  return {
    to: to.email,
    subject: `Your order ${formatOrderNumber(to.number)} has shipped`,
    text: [
      `Hello ${to.name},`,
      '',
      `Good news: your order ${formatOrderNumber(to.number)} has shipped.`,
      '',
      `Carrier: ${shopperCarrier(d.carrier) ?? 'Standard shipping'}`,
      `Tracking number: ${d.trackingNumber}`,
      `Track your parcel: ${trackingUrlFor(d.trackingNumber)}`,
      '',
      `View your order: ${link}`,
    ].join('\n'),
  };
}

const cjOrderIdOf = sql<string>`(${jobs.result} ->> 'cjOrderId')`;

/**
 * Stores what CJ answered about one forwarded order. The first time a tracking number appears,
 * the customer's "your order has shipped" e-mail is recorded in the same statement that marks it
 * sent (shipped_mail_at), so it is recorded exactly once however often or wherever this runs.
 * Returns whether anything changed and whether the e-mail was recorded.
 */
export async function recordShipment(deps: TrackingDeps, orderId: string, cjOrderId: string, d: CjOrderDetail): Promise<{ changed: boolean; mailed: boolean }> {
  const { db } = deps;
  const now = new Date();
  const status = d.orderStatus.toUpperCase();
  const delivered = status === 'DELIVERED';
  const [before] = await db.select().from(supplierShipments).where(eq(supplierShipments.orderId, orderId)).limit(1);
  const tracking = d.trackNumber ?? before?.trackingNumber ?? null;
  const carrier = d.logisticName ?? before?.carrier ?? null;
  const changed = !before || before.status !== status || before.trackingNumber !== tracking || before.carrier !== carrier
    || (delivered && !before.deliveredAt);
  await db.insert(supplierShipments).values({
    orderId, cjOrderId, status, trackingNumber: tracking, carrier, checkedAt: now,
    shippedAt: tracking ? now : null, deliveredAt: delivered ? now : null,
  }).onConflictDoUpdate({
    target: supplierShipments.orderId,
    set: {
      cjOrderId, status, trackingNumber: tracking, carrier, checkedAt: now,
      shippedAt: sql`coalesce(${supplierShipments.shippedAt}, ${tracking ? now.toISOString() : null}::timestamptz)`,
      deliveredAt: sql`coalesce(${supplierShipments.deliveredAt}, ${delivered ? now.toISOString() : null}::timestamptz)`,
    },
  });
  if (!tracking) return { changed, mailed: false };

  const [customer] = await db.select({ name: users.name, email: users.email, number: orders.number }).from(orders)
    .innerJoin(users, eq(users.id, orders.userId)).where(eq(orders.id, orderId)).limit(1);
  // Marking the mail also writes the order's "shipped" event (once: its dedupe key).
  const markOnly = sql`update ${supplierShipments} set shipped_mail_at = ${now.toISOString()}::timestamptz
    where order_id = ${orderId}::char(24) and tracking_number is not null and shipped_mail_at is null returning order_id`;
  const shippedEvent = sql`shipped_event as (
    insert into ${orderEvents} (id, order_id, type, data, dedupe_key, created_at)
    select ${newId(now.getTime())}::char(24), m.order_id, 'shipped', ${JSON.stringify({ carrier, trackingNumber: tracking })}::jsonb, 'shipped', ${now.toISOString()}::timestamptz
    from marked m on conflict do nothing
  )`;
  const mark = sql`with marked as (${markOnly}), ${shippedEvent} select order_id from marked`;
  if (!customer) {
    await db.execute(mark); // no customer to tell (account deleted): nothing to send, ever
    return { changed, mailed: false };
  }
  const mail = shippedMail(customer, orderId, { trackingNumber: tracking, carrier }, deps.siteUrl);
  const recording = deps.mailer.recordIn?.(mail, sql`exists (select 1 from marked)`);
  if (recording) {
    const { rows } = (await db.execute(sql`with marked as (${markOnly}), ${shippedEvent}, ${recording.ctes} select count(*)::int as n from marked`)) as unknown as { rows: Array<{ n: number }> };
    const mailed = Number(rows[0]?.n ?? 0) > 0;
    if (mailed) recording.recorded();
    return { changed, mailed };
  }
  const { rows } = (await db.execute(mark)) as unknown as { rows: unknown[] };
  if (rows.length) await deps.mailer.send(mail);
  return { changed, mailed: rows.length > 0 };
}

/** Asks CJ about one forwarded order and stores the answer. */
async function pollOne(deps: TrackingDeps, orderId: string, cjOrderId: string) {
  const detail = await deps.catalogue.getOrderDetail(cjOrderId);
  return recordShipment(deps, orderId, cjOrderId, detail);
}

/**
 * One round of the tracking job: the forwarded orders not yet delivered, least recently asked
 * first. A failure on one order (CJ busy, rate limit) ends the round; the rest wait for the next.
 */
export async function pollTracking(deps: TrackingDeps, limit = TRACKING_BATCH): Promise<{ checked: number; changed: number; mailed: number }> {
  const due = await deps.db.select({ orderId: jobs.dedupeKey, cjOrderId: cjOrderIdOf })
    .from(jobs)
    .leftJoin(supplierShipments, eq(sql`${supplierShipments.orderId}::text`, jobs.dedupeKey))
    .where(and(
      eq(jobs.kind, SUPPLIER_ORDER_JOB), eq(jobs.status, 'done'), sql`${cjOrderIdOf} is not null`, isNull(supplierShipments.deliveredAt),
      // A cancelled order's supplier order was withdrawn: nothing to follow.
      sql`not exists (select 1 from ${orders} o where o.id::text = ${jobs.dedupeKey} and o.cancelled_at is not null)`,
    ))
    .orderBy(sql`${supplierShipments.checkedAt} asc nulls first`, asc(jobs.id))
    .limit(limit);
  let checked = 0;
  let changed = 0;
  let mailed = 0;
  for (const row of due) {
    try {
      const r = await pollOne(deps, row.orderId, row.cjOrderId);
      checked += 1;
      if (r.changed) changed += 1;
      if (r.mailed) mailed += 1;
    } catch (err) {
      deps.log.warn({ orderId: row.orderId, reason: err instanceof Error ? err.message : 'unknown' }, 'supplier tracking round stopped');
      break;
    }
  }
  return { checked, changed, mailed };
}

/** An administrator's "Refresh now" on one supplier order. */
export async function refreshTrackingNow(deps: TrackingDeps, orderId: string, source: SupplierSource): Promise<SupplierOrder> {
  const job = isId(orderId) ? await findJob(deps.db, SUPPLIER_ORDER_JOB, orderId) : undefined;
  if (!job) throw notFound(CJ_MESSAGES.orderNotFound);
  const cjOrderId = (job.result as { cjOrderId?: unknown } | null)?.cjOrderId;
  if (job.status !== 'done' || typeof cjOrderId !== 'string') throw conflict('This supplier order has not been sent yet');
  await pollOne(deps, orderId, cjOrderId);
  return getSupplierOrder(deps.db, orderId, source);
}
