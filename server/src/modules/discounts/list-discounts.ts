import { DISCOUNT_MESSAGES, type Discount, type DiscountListResponse, type ListDiscountsQuery } from '@shop/contracts';
import { desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { discounts, discountUses } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { escapeLike } from '../../lib/like.ts';
import { presentDiscount, type DiscountRow } from './discounts.presenter.ts';

/** The rows presented with the uses each holds (one statement for the page). */
export async function presentWithUses(db: Executor, rows: DiscountRow[]): Promise<Discount[]> {
  if (!rows.length) return [];
  const counts = await db.select({ id: discountUses.discountId, n: sql<number>`count(*)::int` }).from(discountUses)
    .where(inArray(discountUses.discountId, rows.map((r) => r.id))).groupBy(discountUses.discountId);
  const byId = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((r) => presentDiscount(r, byId.get(r.id) ?? 0));
}

/** Discounts for the back office, newest first, searched by code, one page at a time. */
export async function listDiscounts(db: Executor, query: ListDiscountsQuery): Promise<DiscountListResponse> {
  const term = query.search?.trim();
  const where: SQL | undefined = term ? ilike(discounts.code, `%${escapeLike(term)}%`) : undefined;
  const [{ n } = { n: 0 }] = await db.select({ n: sql<number>`count(*)::int` }).from(discounts).where(where);
  const rows = await db.select().from(discounts).where(where)
    .orderBy(desc(discounts.createdAt), desc(discounts.id))
    .limit(query.pageSize).offset((query.page - 1) * query.pageSize);
  return { discounts: await presentWithUses(db, rows), page: query.page, pages: Math.max(1, Math.ceil(n / query.pageSize)), countDiscounts: n };
}

/** One discount; unknown or malformed id: 404. */
export async function getDiscount(db: Executor, id: string): Promise<Discount> {
  if (!isId(id)) throw notFound(DISCOUNT_MESSAGES.notFound);
  const [row] = await db.select().from(discounts).where(eq(discounts.id, id)).limit(1);
  if (!row) throw notFound(DISCOUNT_MESSAGES.notFound);
  const [presented] = await presentWithUses(db, [row]);
  return presented!;
}
