import { HOME_PRODUCTS_LIMIT, type Product } from '@shop/contracts';
import { desc, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.ts';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { isPublished, productColumns } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

/** The home grid's statement, built once per database handle (placeholder `limit`), then only executed. */
const homeStatement = builtOnce<'home', ReturnType<typeof buildHome>>();

function buildHome(db: Executor) {
  return db
    .select(productColumns)
    .from(products)
    .where(isPublished)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(sql.placeholder('limit'))
    .prepare('home_products');
}

/** The home grid: the newest published products. */
export async function listHomeProducts(db: Executor, limit = HOME_PRODUCTS_LIMIT): Promise<Product[]> {
  const rows = await homeStatement(db, 'home', () => buildHome(db)).execute({ limit });
  return rows.map((r) => presentProduct(r));
}
