import { ORDER_MESSAGES, type Order } from '@shop/contracts';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.ts';
import type { Executor } from '../../db/client.ts';
import { orderItems, orderRefunds, orders, products, supplierShipments, users } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { holdsSupplierProducts } from '../supplier/index.ts';
import { loadOrderEvents } from './order-events.ts';
import { presentOrder, type OrderItemRow, type OrderWithLines } from './orders.presenter.ts';

/** Whether an order line sold a supplier product (its tracking is the supplier's parcel's; own products' variants are not). */
const lineFromSupplier = sql<boolean>`exists (select 1 from ${products} p where p.id = ${orderItems.productId} and p.cj_data is not null)`;

/** Orders with their lines and customer name, newest first (deleted ones never: see deleteOrder). */
export async function loadOrders(db: Executor, where?: SQL, limit?: number): Promise<OrderWithLines[]> {
  const base = db.select({ order: orders, userName: users.name, shipment: supplierShipments }).from(orders).leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(supplierShipments, eq(supplierShipments.orderId, orders.id))
    .where(and(isNull(orders.deletedAt), where)).orderBy(desc(orders.createdAt), desc(orders.id));
  const rows = limit ? await base.limit(limit) : await base;
  if (!rows.length) return [];
  const lines = await db.select({ ...getTableColumns(orderItems), fromSupplier: lineFromSupplier }).from(orderItems)
    .where(inArray(orderItems.orderId, rows.map((r) => r.order.id)))
    .orderBy(asc(orderItems.orderId), asc(orderItems.position));
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const l of lines) {
    const list = byOrder.get(l.orderId) ?? [];
    list.push(l);
    byOrder.set(l.orderId, list);
  }
  return rows.map((r) => ({ order: r.order, userName: r.userName, items: byOrder.get(r.order.id) ?? [], shipment: r.shipment }));
}

/** The statement of loadOrder, built once per database handle (placeholder `id`), then only executed. */
const orderStatement = builtOnce<'order', ReturnType<typeof buildLoadOrder>>();

function buildLoadOrder(db: Executor) {
  return db.select({ order: orders, userName: users.name, userEmail: users.email, item: orderItems, itemFromSupplier: lineFromSupplier, hasSupplierLines: holdsSupplierProducts(orders.id), shipment: supplierShipments }).from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(supplierShipments, eq(supplierShipments.orderId, orders.id))
    .leftJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(eq(orders.id, sql.placeholder('id')), isNull(orders.deletedAt)))
    .orderBy(asc(orderItems.position))
    .prepare('load_order');
}

/** One order by id with its lines and customer (name and e-mail), in one query; or null (also when deleted). */
export async function loadOrder(db: Executor, id: string): Promise<OrderWithLines | null> {
  if (!isId(id)) return null;
  const rows = await orderStatement(db, 'order', () => buildLoadOrder(db)).execute({ id });
  const first = rows[0];
  if (!first) return null;
  const items: OrderItemRow[] = [];
  for (const r of rows) if (r.item) items.push({ ...r.item, fromSupplier: Boolean(r.itemFromSupplier) });
  return { order: first.order, userName: first.userName, userEmail: first.userEmail, items, hasSupplierLines: Boolean(first.hasSupplierLines), shipment: first.shipment };
}

/** One order with its refunds and timeline too (the order page and the answers of actions on it); or null. */
export async function loadOrderDetail(db: Executor, id: string): Promise<OrderWithLines | null> {
  const found = await loadOrder(db, id);
  if (!found) return null;
  const [refunds, events] = await Promise.all([
    db.select().from(orderRefunds).where(eq(orderRefunds.orderId, id)).orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.id)),
    loadOrderEvents(db, id),
  ]);
  return { ...found, refunds, events };
}

/** The order (with refunds and timeline) if `viewer` owns it or is an admin; anyone else gets 404 'Order Not Found'. */
export async function findOrderFor(db: Executor, viewer: AuthUser, id: string): Promise<OrderWithLines> {
  const found = await loadOrderDetail(db, id);
  if (!found || (!viewer.isAdmin && found.order.userId !== viewer.id)) throw notFound(ORDER_MESSAGES.notFound);
  return found;
}

/** The API shape of one order for this viewer (administrators see every event and pending refunds). */
export async function presentOrderFor(db: Executor, viewer: AuthUser, id: string): Promise<Order> {
  return presentOrder(await findOrderFor(db, viewer, id), new Date(), viewer.isAdmin ? 'admin' : 'customer');
}

export async function listMyOrders(db: Executor, userId: string): Promise<Order[]> {
  return (await loadOrders(db, eq(orders.userId, userId))).map((o) => presentOrder(o));
}
