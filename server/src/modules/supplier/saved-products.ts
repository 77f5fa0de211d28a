import { CJ_MESSAGES, type CjListQuery, type CjPublicProduct, type CjSavedItem, type CjSavedListResponse } from '@shop/contracts';
import { and, count, desc, eq, ilike, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { getProductBySlug } from '../products/index.ts';
import { findVariants, presentSavedVariant, presentSellableVariant, type VariantRow } from '../products/index.ts';
import { presentPublicProduct, presentSavedItem, savedColumns, type SavedRow } from './supplier.presenter.ts';

/** Saved items with their variants (costs, prices, stock, margins): one query for the page. */
export async function presentSavedItems(db: Executor, rows: SavedRow[]): Promise<CjSavedItem[]> {
  const variants = await findVariants(db, rows.map((r) => r.id));
  const byProduct = new Map<string, VariantRow[]>();
  for (const v of variants) byProduct.set(v.productId.trim(), [...(byProduct.get(v.productId.trim()) ?? []), v]);
  return rows.map((r) => ({ ...presentSavedItem(r), productVariants: (byProduct.get(r.id.trim()) ?? []).map((v) => presentSavedVariant(v, r)) }));
}

/** The supplier pid of a product row, as SQL (indexed by products_cj_pid_key). */
export const pidOf = sql`(${products.cjData} ->> 'pid')`;
export const isSupplierProduct = isNotNull(products.cjData);

/** Which of these supplier pids are saved, and as which product. */
export async function findSavedIds(db: Executor, pids: string[]): Promise<Map<string, string>> {
  if (!pids.length) return new Map();
  const rows = await db.select({ id: products.id, pid: sql<string>`${pidOf}` }).from(products).where(inArray(pidOf, pids));
  return new Map(rows.map((r) => [r.pid, r.id]));
}

export async function findSavedRow(db: Executor, where: SQL): Promise<SavedRow | undefined> {
  const [row] = await db.select(savedColumns).from(products).where(and(isSupplierProduct, where)).limit(1);
  return row;
}

/** A saved supplier product by our id (the edit page for a 24-character id). */
export async function getSavedProduct(db: Executor, id: string): Promise<CjSavedItem> {
  const row = isId(id) ? await findSavedRow(db, eq(products.id, id)) : undefined;
  if (!row) throw notFound(CJ_MESSAGES.savedNotFound);
  return (await presentSavedItems(db, [row]))[0]!;
}

/** Saved supplier products, newest first, with search text and supplier category filters. */
export async function listSavedProducts(db: Executor, q: CjListQuery): Promise<CjSavedListResponse> {
  const conditions: SQL[] = [isSupplierProduct];
  if (q.query) conditions.push(ilike(products.name, `%${q.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (q.category) conditions.push(sql`(${products.cjData} ->> 'categoryId') = ${q.category}`);
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(products).where(where);
  const rows = await db.select(savedColumns).from(products).where(where)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(q.limit).offset((q.page - 1) * q.limit);
  const n = Number(total?.n ?? 0);
  return {
    data: { content: await presentSavedItems(db, rows), pageNum: q.page, pageSize: q.limit, total: n, totalPages: Math.ceil(n / q.limit) },
  };
}

/** The public page of a saved supplier product: the product (with reviews) and its variants. */
export async function getPublicSupplierProduct(db: Executor, slug: string): Promise<CjPublicProduct> {
  const row = slug && slug.length <= 200 ? await findSavedRow(db, and(eq(products.slug, slug), eq(products.isDraft, false)) as SQL) : undefined;
  if (!row) throw notFound('Product Not Found');
  const product = await getProductBySlug(db, slug);
  const variants = await findVariants(db, [row.id], { enabledOnly: true });
  return { ...presentPublicProduct(product, row), productVariants: variants.map((v) => presentSellableVariant(v, row)) };
}

/** Deletes a saved supplier product, by our id or by the supplier's pid. */
export async function deleteSavedProduct(db: Executor, idOrPid: string): Promise<void> {
  const where = isId(idOrPid) ? eq(products.id, idOrPid) : eq(pidOf, idOrPid);
  const deleted = await db.delete(products).where(and(isSupplierProduct, where)).returning({ id: products.id });
  if (!deleted.length) throw notFound(CJ_MESSAGES.savedNotFound);
}

/** Supplier products among these ids that the supplier no longer sells (name for the message). */
export async function findDiscontinued(db: Executor, productIds: string[]): Promise<Array<{ id: string; name: string }>> {
  if (!productIds.length) return [];
  return db.select({ id: products.id, name: products.name }).from(products)
    .where(and(inArray(products.id, productIds), isNotNull(products.supplierDiscontinuedAt)));
}
