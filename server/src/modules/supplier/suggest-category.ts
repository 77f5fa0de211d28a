import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { catalogueCacheFor, listCategories } from '../products/index.ts';
import { lastCategoryLevel } from './supplier.presenter.ts';

/** Words that say nothing about what a category holds. */
const STOP_WORDS = new Set(['and', 'or', 'the', 'for', 'of', 'with', 'a', 'an', 'in', 'on', 'other', 'others', 'more', 'accessories', 'supplies', 'products']);

/** A word's stem, enough to match 'Lights' with 'Lighting' and 'Toys' with 'Toy' (no dictionary). */
function stem(word: string): string {
  let w = word;
  for (const suffix of ['ings', 'ing', 'ies', 'es', 's']) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      w = suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/** The meaningful word stems of a name ("Women's Clothing" -> clothing, women). */
export function categoryWords(name: string): string[] {
  const words = name.toLowerCase().replace(/['’]s\b/g, '').split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  return [...new Set(words.map(stem))];
}

/**
 * The shop's category closest to a supplier category path ("Home, Garden & Furniture > Kitchen,
 * Dining & Bar > Drinkware & Kitchen"), or null when none shares a word with it. Each level of the
 * path is compared with each category by the share of the category's words it contains; the
 * deeper the level the more it counts (the last level is what the product is), so 'Consumer
 * Electronics > Home Audio & Video > Earphones' is Audio rather than Electronics. Ties go to the
 * category named first in alphabetical order, so the answer is the same every time.
 */
export function closestCategory(supplierPath: string, categories: readonly string[]): string | null {
  const levels = supplierPath.split(/\s*>\s*/).map(categoryWords).filter((words) => words.length > 0);
  let best: { name: string; score: number } | null = null;
  for (const name of [...categories].sort((a, b) => a.localeCompare(b, 'en'))) {
    const words = categoryWords(name);
    if (!words.length) continue;
    let score = 0;
    levels.forEach((level, depth) => {
      const shared = words.filter((w) => level.includes(w)).length;
      score += (shared / words.length) * (depth + 1);
    });
    if (score > 0 && (!best || score > best.score)) best = { name, score };
  }
  return best?.name ?? null;
}

/** Plain words of a text for a full-text query (letters and digits only, so nothing reaches to_tsquery's syntax). */
const queryWords = (text: string) =>
  [...new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2 && !STOP_WORDS.has(w)))].slice(0, 20);

/**
 * The category of the shop's products whose names share the most words with the supplier product's
 * name and last category level (a 'T-Shirts & Tops' import lands beside the shop's own t-shirts).
 */
async function categoryOfSimilarProducts(db: Executor, text: string): Promise<string | null> {
  const words = queryWords(text);
  if (!words.length) return null;
  const query = words.map((w) => `${w}:A`).join(' | ');
  const rows = (await db.execute(sql`
    select category from products
    where not is_draft and category > '' and search_vector @@ to_tsquery('english', ${query})
    group by category order by count(*) desc, category limit 1
  `)) as unknown as { rows: Array<{ category: string }> };
  return rows.rows[0]?.category ?? null;
}

/**
 * The category an import starts with: the closest of the shop's categories by name, else the
 * category of the shop's products most like it by name, so an import does not add the supplier's
 * own taxonomy beside the shop's. Only when neither finds one (an empty shop, a kind of product
 * the shop does not sell yet), the last level of the supplier's path.
 */
export async function suggestCategory(db: Executor, supplier: { categoryName: string; productNameEn: string }): Promise<{ category: string; isExisting: boolean }> {
  const existing = await listCategories(db, catalogueCacheFor(db));
  const closest = closestCategory(supplier.categoryName, existing)
    ?? await categoryOfSimilarProducts(db, `${supplier.productNameEn} ${lastCategoryLevel(supplier.categoryName)}`);
  return closest ? { category: closest, isExisting: true } : { category: lastCategoryLevel(supplier.categoryName), isExisting: false };
}
