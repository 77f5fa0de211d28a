import {
  parsePriceRange, SEARCH_PAGE_SIZE, type ProductSearchQuery, type ProductSearchResponse,
} from '@shop/contracts';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import { isPublished, productColumns, type ProductRow } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

const COUNT_TTL_MS = 10_000;
const MAX_TERMS = 8;

/**
 * Turns shopper text into a safe tsquery string: only letters and digits survive (so no tsquery
 * syntax can be injected), terms are ANDed and the last one matches as a prefix ("head" finds
 * "headphones"). Returns null when no searchable word is left. The string is still sent as a
 * bound parameter, never spliced into SQL.
 */
export function toPrefixTsQuery(text: string): string | null {
  const terms = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS).map((t) => t.slice(0, 64));
  if (!terms.length) return null;
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

function filterConditions(q: ProductSearchQuery): SQL[] {
  const conds: SQL[] = [isPublished];
  if (q.category !== 'all') conds.push(sql`${products.category} = ${q.category}`);
  if (q.price !== 'all') {
    const range = parsePriceRange(q.price);
    if (range) {
      conds.push(sql`${products.finalPrice} >= ${range.min}`);
      // Whole-dollar buckets cover their cents (1-50 includes 50.99), so buckets leave no gaps.
      conds.push(Number.isInteger(range.max) ? sql`${products.finalPrice} < ${range.max + 1}` : sql`${products.finalPrice} <= ${range.max}`);
    }
  }
  if (q.rating !== 'all') conds.push(sql`${products.rating} >= ${q.rating}`);
  if (q.tag === 'todays-deal') conds.push(sql`${products.isTodaysDeal}`);
  else if (q.tag === 'gifts') conds.push(sql`${products.isGift}`);
  else if (q.tag === 'on-sale') conds.push(sql`${products.isOnSale} and ${products.saleDiscount} > 0`);
  return conds;
}

function orderBy(order: ProductSearchQuery['order']): SQL[] {
  switch (order) {
    case 'lowest':
      return [asc(products.finalPrice), asc(products.id)];
    case 'highest':
      return [desc(products.finalPrice), desc(products.id)];
    case 'toprated':
      return [desc(products.rating), desc(products.numReviews), asc(products.id)];
    case 'newest':
    default:
      return [desc(products.createdAt), desc(products.id)];
  }
}

async function countWhere(db: Executor, where: SQL): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(where);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Storefront search: full-text over name, brand, category and description (prefix match on the
 * last word); when that finds nothing, trigram word similarity on the name catches typos
 * ("hedphones"). Filters apply to published products only; the price range applies to the
 * price after the sale discount.
 */
export async function searchProducts(db: Executor, cache: CatalogueCache, q: ProductSearchQuery): Promise<ProductSearchResponse> {
  const filters = filterConditions(q);
  const filterKey = `${q.category}\u0000${q.price}\u0000${q.rating}\u0000${q.tag}`;
  let where = and(...filters) as SQL;
  let countProducts: number;
  let fuzzyKey: string | undefined;

  if (q.query !== 'all') {
    // Full-text and trigram matching both ignore case, so one spelling serves every casing.
    const text = q.query.toLowerCase();
    const tsquery = toPrefixTsQuery(text);
    const fullText = tsquery ? sql`${products.searchVector} @@ to_tsquery('english', ${tsquery})` : null;
    const fuzzy = sql`${text} <% ${products.name}`;
    // One cached decision per text and filters: which matcher to use, and how many it finds.
    const found = await cache.remember(`search\u0000${text}\u0000${filterKey}`, COUNT_TTL_MS, async () => {
      if (fullText) {
        const n = await countWhere(db, and(...filters, fullText) as SQL);
        if (n > 0) return { matcher: 'fts' as const, n };
      }
      return { matcher: 'trigram' as const, n: await countWhere(db, and(...filters, fuzzy) as SQL) };
    });
    where = and(...filters, found.matcher === 'fts' && fullText ? fullText : fuzzy) as SQL;
    countProducts = found.n;
    if (found.matcher === 'trigram') fuzzyKey = `fuzzy\u0000${text}\u0000${filterKey}`;
  } else {
    countProducts = await cache.remember(`count\u0000${filterKey}`, COUNT_TTL_MS, () => countWhere(db, where));
  }

  const respond = async (): Promise<ProductSearchResponse> => {
    const pages = Math.ceil(countProducts / SEARCH_PAGE_SIZE);
    const offset = (q.page - 1) * SEARCH_PAGE_SIZE;
    if (offset >= countProducts) return { products: [], page: q.page, pages, countProducts };
    const rows = await findPage(db, where, q.order, offset);
    return { products: rows.map((r) => presentProduct(r)), page: q.page, pages, countProducts };
  };
  // Typo matching compares trigrams row by row, so its (rare) pages are kept as briefly as counts.
  if (fuzzyKey) return cache.remember(`${fuzzyKey}\u0000${q.order}\u0000${q.page}`, COUNT_TTL_MS, respond);
  return respond();
}

/**
 * One page of rows in one statement. The page's ids are found first, in a subquery that can be an
 * index-only scan (the sort indexes include the filtered columns), and only those 12 rows are read
 * from the table, instead of every row the offset skips or the filters reject.
 */
async function findPage(db: Executor, where: SQL, order: ProductSearchQuery['order'], offset: number): Promise<ProductRow[]> {
  const page = db
    .select({ pageId: sql<string>`${products.id}`.as('page_id') })
    .from(products)
    .where(where)
    .orderBy(...orderBy(order))
    .limit(SEARCH_PAGE_SIZE)
    .offset(offset)
    .as('page');
  return db
    .select(productColumns)
    .from(page)
    .innerJoin(products, eq(products.id, page.pageId))
    .orderBy(...orderBy(order));
}
