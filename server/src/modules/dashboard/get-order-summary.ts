import { SUMMARY_DEFAULT_DAYS, SUMMARY_MAX_DAYS, type OrderSummary, type SummaryQuery } from '@shop/contracts';
import { and, asc, desc, gt, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, productCategoryCounts, salesDaily, users } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The period asked for: `from`..`to` inclusive, UTC days; by default the last 30 days up to today. */
export function resolveRange(query: SummaryQuery, now = new Date()): { from: string; to: string; days: number } {
  const to = query.to ?? dayOf(now.getTime());
  const from = query.from ?? dayOf(msOf(to) - (SUMMARY_DEFAULT_DAYS - 1) * DAY_MS);
  const days = Math.round((msOf(to) - msOf(from)) / DAY_MS) + 1;
  if (days < 1) throw badRequest('"from" must be on or before "to"', { from: '"from" must be on or before "to"' });
  if (days > SUMMARY_MAX_DAYS) throw badRequest(`The period can be at most ${SUMMARY_MAX_DAYS} days`, { from: `The period can be at most ${SUMMARY_MAX_DAYS} days` });
  return { from, to, days };
}

/**
 * The dashboard summary (SPEC §3 shape plus range and previous period). Order counts are PAID
 * orders by UTC day of payment; sales are paid minus refunded, each refund on the UTC day it was
 * given (so a refund never rewrites a past day), read from the sales_daily rollup (kept by
 * triggers), so the cost is a few hundred rows whatever the number of orders. Days without a sale
 * answer 0. Unpaid orders, cancelled or not, never count.
 */
export async function getOrderSummary(db: Executor, query: SummaryQuery, now = new Date()): Promise<OrderSummary> {
  const range = resolveRange(query, now);
  const prevTo = dayOf(msOf(range.from) - DAY_MS);
  const prevFrom = dayOf(msOf(prevTo) - (range.days - 1) * DAY_MS);
  const endExclusive = new Date(msOf(range.to) + DAY_MS).toISOString();
  const startInclusive = new Date(msOf(range.from)).toISOString();
  const prevStart = new Date(msOf(prevFrom)).toISOString();

  const [dailyRows, userRows, categoryRows, discountRows] = await Promise.all([
    db.select({
      day: salesDaily.day,
      sales: sql<string>`sum(${salesDaily.sales})`,
      refunds: sql<string>`sum(${salesDaily.refunds})`,
      numOrders: sql<number>`sum(${salesDaily.numOrders})::int`,
    }).from(salesDaily).where(and(gte(salesDaily.day, prevFrom), lte(salesDaily.day, range.to)))
      .groupBy(salesDaily.day).orderBy(asc(salesDaily.day)),
    db.select({
      numUsers: sql<number>`count(*) filter (where ${users.createdAt} < ${endExclusive}::timestamptz)::int`,
      newUsers: sql<number>`count(*) filter (where ${users.createdAt} >= ${startInclusive}::timestamptz and ${users.createdAt} < ${endExclusive}::timestamptz)::int`,
      prevNumUsers: sql<number>`count(*) filter (where ${users.createdAt} < ${startInclusive}::timestamptz)::int`,
      prevNewUsers: sql<number>`count(*) filter (where ${users.createdAt} >= ${prevStart}::timestamptz and ${users.createdAt} < ${startInclusive}::timestamptz)::int`,
    }).from(users),
    db.select().from(productCategoryCounts).where(gt(productCategoryCounts.count, 0))
      .orderBy(desc(productCategoryCounts.count), asc(productCategoryCounts.category)),
    // Discounts given (issue 34.1): paid orders of the period that used a code (orders_discounted_paid_idx).
    db.select({ given: sql<string>`coalesce(sum(${orders.discountPrice}), 0)`, n: sql<number>`count(*)::int` }).from(orders)
      .where(and(sql`${orders.isPaid} and ${orders.discountPrice} > 0`, gte(orders.paidAt, new Date(startInclusive)), sql`${orders.paidAt} < ${endExclusive}::timestamptz`)),
  ]);

  // Sums in cents: the rollup's numerics are exact, JavaScript's floats are not.
  const cents = (v: string | number | undefined | null) => Math.round(Number(v ?? 0) * 100);
  const byDay = new Map(dailyRows.map((r) => [r.day, r]));
  const dailyOrders: OrderSummary['dailyOrders'] = [];
  let paidCents = 0;
  let refundCents = 0;
  let numOrders = 0;
  for (let i = 0; i < range.days; i += 1) {
    const day = dayOf(msOf(range.from) + i * DAY_MS);
    const row = byDay.get(day);
    const paid = cents(row?.sales);
    const refunds = cents(row?.refunds);
    dailyOrders.push({ _id: day, sales: (paid - refunds) / 100, orders: row?.numOrders ?? 0, refunds: refunds / 100 });
    paidCents += paid;
    refundCents += refunds;
    numOrders += row?.numOrders ?? 0;
  }
  let prevPaid = 0;
  let prevRefunds = 0;
  let prevOrders = 0;
  for (const r of dailyRows) {
    if (r.day >= prevFrom && r.day <= prevTo) {
      prevPaid += cents(r.sales);
      prevRefunds += cents(r.refunds);
      prevOrders += r.numOrders;
    }
  }
  const u = userRows[0] ?? { numUsers: 0, newUsers: 0, prevNumUsers: 0, prevNewUsers: 0 };
  return {
    orders: [{ totalSales: (paidCents - refundCents) / 100, numOrders, grossSales: paidCents / 100, totalRefunds: refundCents / 100 }],
    users: [{ numUsers: u.numUsers, newUsers: u.newUsers }],
    dailyOrders,
    productCategories: categoryRows.map((r) => ({ _id: r.category || 'Uncategorized', count: r.count })),
    range,
    discounts: { totalGiven: cents(discountRows[0]?.given) / 100, numOrders: discountRows[0]?.n ?? 0 },
    previous: {
      from: prevFrom, to: prevTo, totalSales: (prevPaid - prevRefunds) / 100, numOrders: prevOrders, numUsers: u.prevNumUsers, newUsers: u.prevNewUsers,
      totalRefunds: prevRefunds / 100,
    },
  };
}
