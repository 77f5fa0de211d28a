import { HOME_PRODUCTS_LIMIT, type Product } from '@shop/contracts';
import { desc } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { isPublished, productColumns } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

/** The home grid: the newest published products. */
export async function listHomeProducts(db: Executor, limit = HOME_PRODUCTS_LIMIT): Promise<Product[]> {
  const rows = await db
    .select(productColumns)
    .from(products)
    .where(isPublished)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
  return rows.map((r) => presentProduct(r));
}
