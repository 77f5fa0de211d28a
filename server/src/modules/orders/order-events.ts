import { formatOrderNumber, type OrderEvent, type OrderEventType } from '@shop/contracts';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orderEvents, users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';

export type OrderEventRow = typeof orderEvents.$inferSelect & { authorName?: string | null };

/** Who reads the timeline: customers see customer-facing events in customer words only. */
export type Audience = 'customer' | 'admin';

/** Events only administrators see. */
const INTERNAL_TYPES: ReadonlySet<OrderEventType> = new Set(['note', 'supplier_cancelled']);
/** Events that happen once per order (their type is their dedupe key). */
const ONCE: ReadonlySet<OrderEventType> = new Set(['placed', 'paid', 'forwarded', 'shipped', 'cancelled', 'expired', 'supplier_cancelled']);

export interface NewOrderEvent {
  orderId: string;
  type: OrderEventType;
  data?: Record<string, unknown>;
  authorId?: string | null;
  at?: Date;
}

const dedupeKeyOf = (type: OrderEventType) => (ONCE.has(type) ? type : null);

/**
 * Records events in the caller's transaction (the one that makes the change they describe). A
 * one-time event already recorded (a replayed job, a concurrent duplicate) is skipped.
 */
export async function recordOrderEvents(tx: Executor, events: NewOrderEvent[]): Promise<string[]> {
  if (!events.length) return [];
  const ids = events.map((e) => newId(e.at?.getTime()));
  await tx.insert(orderEvents).values(events.map((e, i) => ({
    id: ids[i]!,
    orderId: e.orderId,
    type: e.type,
    data: e.data ?? {},
    authorId: e.authorId ?? null,
    dedupeKey: dedupeKeyOf(e.type),
    ...(e.at ? { createdAt: e.at } : {}),
  }))).onConflictDoNothing();
  return ids;
}

/**
 * The same insert as a common table expression (`name as (insert ... select ... from source)`), for
 * one-statement writes: one event per row of `source`, whose column `id` is the order id.
 */
export function orderEventCte(name: string, source: string, e: Omit<NewOrderEvent, 'orderId'> & { at: Date }): SQL {
  return sql`${sql.raw(name)} as (
    insert into ${orderEvents} (id, order_id, type, data, author_id, dedupe_key, created_at)
    select ${newId(e.at.getTime())}::char(24), s.id, ${e.type}::text, ${JSON.stringify(e.data ?? {})}::jsonb, ${e.authorId ?? null}::char(24),
      ${dedupeKeyOf(e.type)}::text, ${e.at.toISOString()}::timestamptz
    from ${sql.raw(source)} s
    on conflict do nothing
  )`;
}

/** An order's events, oldest first, with the author's name. */
export async function loadOrderEvents(db: Executor, orderId: string): Promise<OrderEventRow[]> {
  const rows = await db.select({ event: orderEvents, authorName: users.name }).from(orderEvents)
    .leftJoin(users, eq(users.id, orderEvents.authorId))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
  return rows.map((r) => ({ ...r.event, authorName: r.authorName }));
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** What the event says to this audience; customers never read the supplier's name or internal notes. */
function describe(type: OrderEventType, d: Record<string, unknown>, audience: Audience): string {
  const admin = audience === 'admin';
  switch (type) {
    case 'placed': return 'Order placed';
    case 'paid':
      if (d.provider === 'demo') return admin ? 'Paid (demo payment: no money was taken)' : 'Payment received (demo payment: no money was taken)';
      return admin ? `Paid with PayPal${text(d.captureId) ? ` (capture ${text(d.captureId)})` : ''}` : 'Payment received';
    case 'forwarded':
      return admin ? `Forwarded to the supplier${text(d.cjOrderId) ? ` (CJ order ${text(d.cjOrderId)})` : ''}` : 'Processing';
    case 'shipped': {
      const tracking = text(d.trackingNumber);
      if (!admin) return tracking ? `Shipped, tracking number ${tracking}` : 'Shipped';
      return `Shipped by the supplier${text(d.carrier) ? ` with ${text(d.carrier)}` : ''}${tracking ? `, tracking number ${tracking}` : ''}`;
    }
    case 'delivered': return 'Delivered';
    case 'undelivered': return admin ? 'Marked as not delivered' : 'Delivery status corrected: not delivered yet';
    case 'refunded': {
      const amount = num(d.amount);
      const base = amount === null ? 'Refunded' : `Refunded ${formatMoney(amount)}`;
      return admin && text(d.reason) ? `${base}: ${text(d.reason)}` : base;
    }
    case 'cancelled': {
      if (!admin) return 'Order cancelled';
      const by = d.byCustomer === true ? 'Cancelled by the customer' : 'Cancelled';
      return text(d.reason) ? `${by}: ${text(d.reason)}` : by;
    }
    case 'expired': return admin ? 'Expired unpaid: stock released' : 'Expired unpaid';
    case 'note': return text(d.text) ?? '';
    case 'supplier_cancelled':
      return d.withdrawn === true
        ? 'Supplier order withdrawn before it was sent'
        : `Supplier order cancelled at CJ${text(d.cjOrderId) ? ` (CJ order ${text(d.cjOrderId)})` : ''}`;
  }
}

/** One event for this audience, or null when the audience may not see it. */
export function presentOrderEvent(row: OrderEventRow, audience: Audience): OrderEvent | null {
  const type = row.type as OrderEventType;
  const internal = INTERNAL_TYPES.has(type);
  if (internal && audience !== 'admin') return null;
  const d = row.data ?? {};
  const admin = audience === 'admin';
  return {
    _id: row.id,
    type,
    message: describe(type, d, audience),
    createdAt: row.createdAt.toISOString(),
    internal,
    ...(type === 'refunded' ? { amount: num(d.amount) } : {}),
    ...(type === 'shipped' ? { trackingNumber: text(d.trackingNumber), carrier: admin ? text(d.carrier) : null } : {}),
    ...(admin && row.authorId ? { author: { _id: row.authorId, name: row.authorName ?? 'DELETED USER' } } : {}),
  };
}

export const presentOrderEvents = (rows: OrderEventRow[], audience: Audience): OrderEvent[] =>
  rows.flatMap((r) => {
    const e = presentOrderEvent(r, audience);
    return e ? [e] : [];
  });

/** "order #1003" in text a customer reads. */
export const orderName = (number: number) => `order ${formatOrderNumber(number)}`;
