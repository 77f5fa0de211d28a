import type { ListOrdersQuery, OrderListResponse, OrderStatus } from '@shop/contracts';
import { and, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, users } from '../../db/schema.ts';
import { isId } from '../../lib/ids.ts';
import { escapeLike } from '../../lib/like.ts';
import { loadOrders } from './find-orders.ts';
import { presentOrder } from './orders.presenter.ts';

const notCancelled = isNull(orders.cancelledAt);
const expiredSql = (now: Date) => and(notCancelled, eq(orders.isPaid, false), or(isNotNull(orders.stockReleasedAt), lte(orders.expiresAt, now)))!;
const unpaidSql = (now: Date) => and(notCancelled, eq(orders.isPaid, false), isNull(orders.stockReleasedAt),
  or(isNull(orders.expiresAt), sql`${orders.expiresAt} > ${now.toISOString()}::timestamptz`))!;

function filterCondition(filter: ListOrdersQuery['filter'], now: Date): SQL | undefined {
  switch (filter) {
    case 'paid': return eq(orders.isPaid, true);
    case 'delivered': return eq(orders.isDelivered, true);
    case 'expired': return expiredSql(now);
    case 'unpaid': return unpaidSql(now);
    default: return undefined;
  }
}

/** The orders whose `status` (orderStatus in the presenter, the same precedence) is this one. */
export function statusCondition(status: OrderStatus, now: Date): SQL {
  const refunded = sql`${orders.refundedAmount} > 0`;
  const full = sql`${orders.refundedAmount} >= ${orders.totalPrice}`;
  const notRefunded = sql`not (${orders.isPaid} and ${orders.refundedAmount} > 0)`;
  switch (status) {
    case 'cancelled': return isNotNull(orders.cancelledAt);
    case 'refunded': return and(notCancelled, eq(orders.isPaid, true), refunded, full)!;
    case 'partially_refunded': return and(notCancelled, eq(orders.isPaid, true), refunded, sql`not (${full})`)!;
    case 'delivered': return and(notCancelled, notRefunded, eq(orders.isDelivered, true))!;
    case 'paid': return and(notCancelled, notRefunded, eq(orders.isDelivered, false), eq(orders.isPaid, true))!;
    case 'expired': return and(eq(orders.isDelivered, false), expiredSql(now))!;
    case 'unpaid': return and(eq(orders.isDelivered, false), unpaidSql(now))!;
  }
}

/** "#1003" or "1003": an order number. */
const ORDER_NUMBER = /^#?\s*(\d{1,9})$/;

/** The admin order list: one page, newest first, filtered (paid/unpaid/delivered/expired, or by status) and searched by number, id, customer name or e-mail. */
export async function listAdminOrders(db: Executor, query: ListOrdersQuery, now = new Date()): Promise<OrderListResponse> {
  const conditions: SQL[] = [];
  const f = filterCondition(query.filter, now);
  if (f) conditions.push(f);
  if (query.status && query.status !== 'all') conditions.push(statusCondition(query.status, now));
  const term = query.search?.trim();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    let byText = or(ilike(users.name, pattern), ilike(users.email, pattern), sql`${orders.shippingAddress}->>'fullName' ilike ${pattern}`)!;
    const number = ORDER_NUMBER.exec(term)?.[1];
    if (number) byText = or(eq(orders.number, Number(number)), byText)!;
    conditions.push(isId(term.toLowerCase()) ? or(eq(orders.id, term.toLowerCase()), byText)! : /^[0-9a-f]{6,23}$/i.test(term) ? or(ilike(orders.id, `${term.toLowerCase()}%`), byText)! : byText);
  }
  conditions.push(isNull(orders.deletedAt));
  const where = and(...conditions);
  const [[{ n } = { n: 0 }], pageRows] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where),
    db.select({ id: orders.id, email: users.email }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id)).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
  ]);
  const loaded = pageRows.length ? await loadOrders(db, inArray(orders.id, pageRows.map((r) => r.id))) : [];
  const emailOf = new Map(pageRows.map((r) => [r.id, r.email]));
  return {
    orders: loaded.map((o) => ({ ...presentOrder(o, now, 'admin'), userEmail: emailOf.get(o.order.id) ?? null })),
    page: query.page,
    pages: Math.max(1, Math.ceil(n / query.pageSize)),
    countOrders: n,
  };
}
