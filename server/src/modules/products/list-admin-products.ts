import { ADMIN_LOW_STOCK_MAX, type AdminProductListResponse, type AdminProductsQuery } from '@shop/contracts';
import { and, asc, between, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { escapeLike } from '../../lib/like.ts';
import { productColumns } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

const ORDER_BY: Record<AdminProductsQuery['sort'], SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  name: [asc(products.name), asc(products.id)],
  price: [asc(products.price), asc(products.id)],
  stock: [asc(products.countInStock), asc(products.name), asc(products.id)],
};

/**
 * The back-office list: every product, drafts included (flagged), filtered by name, category and
 * stock (out = 0, low = 1..ADMIN_LOW_STOCK_MAX), sorted newest first unless asked otherwise. A page
 * past the last answers no products with the real page count, so the screen can link back.
 */
export async function listAdminProducts(db: Executor, q: AdminProductsQuery): Promise<AdminProductListResponse> {
  const conditions: SQL[] = [];
  if (q.search) conditions.push(ilike(products.name, `%${escapeLike(q.search)}%`));
  if (q.category !== 'all') conditions.push(eq(products.category, q.category));
  if (q.stock === 'out') conditions.push(eq(products.countInStock, 0));
  if (q.stock === 'low') conditions.push(between(products.countInStock, 1, ADMIN_LOW_STOCK_MAX));
  const where = conditions.length ? and(...conditions) : undefined;

  const [countRow] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(where);
  const countProducts = Number(countRow?.n ?? 0);
  const offset = (q.page - 1) * q.pageSize;
  const rows = offset < countProducts
    ? await db.select(productColumns).from(products).where(where).orderBy(...ORDER_BY[q.sort]).limit(q.pageSize).offset(offset)
    : [];
  const categories = await db.selectDistinct({ category: products.category }).from(products).orderBy(asc(products.category));
  return {
    products: rows.map((r) => presentProduct(r, { withDraftFlag: true })),
    page: q.page,
    pages: Math.ceil(countProducts / q.pageSize),
    countProducts,
    categories: categories.map((c) => c.category),
  };
}
