import type { AdminProductListResponse, AdminProductsQuery } from '@shop/contracts';
import { desc, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { productColumns } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

/** The back-office list: every product, drafts included (flagged), newest first. */
export async function listAdminProducts(db: Executor, q: AdminProductsQuery): Promise<AdminProductListResponse> {
  const [countRow] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
  const countProducts = Number(countRow?.n ?? 0);
  const offset = (q.page - 1) * q.pageSize;
  const rows = offset < countProducts
    ? await db.select(productColumns).from(products).orderBy(desc(products.createdAt), desc(products.id)).limit(q.pageSize).offset(offset)
    : [];
  return {
    products: rows.map((r) => presentProduct(r, { withDraftFlag: true })),
    page: q.page,
    pages: Math.ceil(countProducts / q.pageSize),
    countProducts,
  };
}
