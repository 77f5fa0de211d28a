import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { CatalogueCache } from './catalogue-cache.ts';

const CATEGORIES_TTL_MS = 30_000;

/**
 * Distinct non-empty categories of published products, sorted. A loose index scan (one index
 * probe per category through products_category_newest_idx) keeps it fast on large catalogues.
 */
export async function listCategories(db: Executor, cache: CatalogueCache): Promise<string[]> {
  return cache.remember('categories', CATEGORIES_TTL_MS, async () => {
    const rows = (await db.execute(sql`
      with recursive c(category) as (
        select min(category) from products where not is_draft and category > ''
        union all
        select (select min(p.category) from products p where not p.is_draft and p.category > c.category)
        from c where c.category is not null
      )
      select category from c where category is not null
    `)) as unknown as { rows: Array<{ category: string }> };
    // Index order follows the database collation; sort in code for one stable order everywhere.
    return rows.rows.map((r) => r.category).sort((a, b) => a.localeCompare(b, 'en'));
  });
}
