import type { ListOrdersQuery, OrderListResponse } from '@shop/contracts';
import { and, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, users } from '../../db/schema.ts';
import { isId } from '../../lib/ids.ts';
import { escapeLike } from '../../lib/like.ts';
import { loadOrders } from './find-orders.ts';
import { presentOrder } from './orders.presenter.ts';

function filterCondition(filter: ListOrdersQuery['filter'], now: Date): SQL | undefined {
  const expired = and(eq(orders.isPaid, false), or(isNotNull(orders.stockReleasedAt), lte(orders.expiresAt, now)));
  switch (filter) {
    case 'paid': return eq(orders.isPaid, true);
    case 'delivered': return eq(orders.isDelivered, true);
    case 'expired': return expired;
    case 'unpaid': return and(eq(orders.isPaid, false), isNull(orders.stockReleasedAt), or(isNull(orders.expiresAt), sql`${orders.expiresAt} > ${now.toISOString()}::timestamptz`));
    default: return undefined;
  }
}

/** The admin order list: one page, newest first, filtered (paid/unpaid/delivered/expired) and searched by id, customer name or e-mail. */
export async function listAdminOrders(db: Executor, query: ListOrdersQuery, now = new Date()): Promise<OrderListResponse> {
  const conditions: SQL[] = [];
  const f = filterCondition(query.filter, now);
  if (f) conditions.push(f);
  const term = query.search?.trim();
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    const byText = or(ilike(users.name, pattern), ilike(users.email, pattern), sql`${orders.shippingAddress}->>'fullName' ilike ${pattern}`)!;
    conditions.push(isId(term.toLowerCase()) ? or(eq(orders.id, term.toLowerCase()), byText)! : /^[0-9a-f]{6,23}$/i.test(term) ? or(ilike(orders.id, `${term.toLowerCase()}%`), byText)! : byText);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [[{ n } = { n: 0 }], pageRows] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where),
    db.select({ id: orders.id, email: users.email }).from(orders).leftJoin(users, eq(users.id, orders.userId)).where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id)).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
  ]);
  const loaded = pageRows.length ? await loadOrders(db, inArray(orders.id, pageRows.map((r) => r.id))) : [];
  const emailOf = new Map(pageRows.map((r) => [r.id, r.email]));
  return {
    orders: loaded.map((o) => ({ ...presentOrder(o, now), userEmail: emailOf.get(o.order.id) ?? null })),
    page: query.page,
    pages: Math.max(1, Math.ceil(n / query.pageSize)),
    countOrders: n,
  };
}
