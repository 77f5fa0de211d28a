import {
  parsePriceRange, SEARCH_PAGE_SIZE, type ProductSearchQuery, type ProductSearchResponse,
} from '@shop/contracts';
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.ts';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import { listCategories } from './list-categories.ts';
import { isPublished, productColumns, type ProductRow } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

const COUNT_TTL_MS = 10_000;
const MAX_TERMS = 8;
const SUGGESTED_CATEGORIES = 6;

/**
 * Turns shopper text into a safe tsquery string: only letters and digits survive (so no tsquery
 * syntax can be injected), terms are ANDed and the last one matches as a prefix ("head" finds
 * "headphones"). Returns null when no searchable word is left. The string is still sent as a
 * bound parameter, never spliced into SQL.
 */
export function toPrefixTsQuery(text: string): string | null {
  const terms = searchTerms(text);
  if (!terms.length) return null;
  return terms.map((t, i) => (i === terms.length - 1 ? `${t}:*` : t)).join(' & ');
}

/**
 * How a filter value enters the SQL: bound as a parameter right away (counts, rare paths), or as a
 * named placeholder of a statement built once per query shape (the page reads, see preparedPage).
 */
type Bind = (name: string, value: string | number) => unknown;
const bindValue: Bind = (_name, value) => value;

function filterConditions(q: ProductSearchQuery, bind: Bind = bindValue): SQL[] {
  const conds: SQL[] = [isPublished];
  if (q.category !== 'all') conds.push(sql`${products.category} = ${bind('category', q.category)}`);
  if (q.price !== 'all') {
    const range = parsePriceRange(q.price);
    if (range) {
      conds.push(sql`${products.finalPrice} >= ${bind('priceMin', range.min)}`);
      // Whole-dollar buckets cover their cents (1-50 includes 50.99), so buckets leave no gaps.
      conds.push(Number.isInteger(range.max) ? sql`${products.finalPrice} < ${bind('priceBelow', range.max + 1)}` : sql`${products.finalPrice} <= ${bind('priceMax', range.max)}`);
    }
  }
  if (q.rating !== 'all') conds.push(sql`${products.rating} >= ${bind('rating', q.rating)}`);
  if (q.tag === 'todays-deal') conds.push(sql`${products.isTodaysDeal}`);
  else if (q.tag === 'gifts') conds.push(sql`${products.isGift}`);
  else if (q.tag === 'on-sale') conds.push(sql`${products.isOnSale} and ${products.saleDiscount} > 0`);
  return conds;
}

/**
 * The filters as placeholders, with their values and the shape key that tells statements apart
 * (which filters are set and which price form applies; never a value).
 */
function filterTemplate(q: ProductSearchQuery): { conds: SQL[]; values: Record<string, unknown>; shape: string } {
  const values: Record<string, unknown> = {};
  const names: string[] = [];
  const conds = filterConditions(q, (name, value) => {
    values[name] = value;
    names.push(name);
    return sql.placeholder(name);
  });
  return { conds, values, shape: `${names.join(',')}|${q.tag}` };
}

type SortKey = [column: typeof products.createdAt | typeof products.finalPrice | typeof products.rating | typeof products.numReviews | typeof products.id, direction: 'asc' | 'desc'];

/** The sort of each order, ending with the id so that every order is total (pages never overlap). */
function sortKeys(order: ProductSearchQuery['order']): SortKey[] {
  switch (order) {
    case 'lowest':
      return [[products.finalPrice, 'asc'], [products.id, 'asc']];
    case 'highest':
      return [[products.finalPrice, 'desc'], [products.id, 'desc']];
    case 'toprated':
      return [[products.rating, 'desc'], [products.numReviews, 'desc'], [products.id, 'asc']];
    case 'newest':
    default:
      return [[products.createdAt, 'desc'], [products.id, 'desc']];
  }
}

function orderBy(order: ProductSearchQuery['order']): SQL[] {
  return sortKeys(order).map(([column, direction]) => (direction === 'asc' ? asc(column) : desc(column)));
}

async function countWhere(db: Executor, where: SQL): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(where);
  return Number(rows[0]?.n ?? 0);
}

/** A word of the catalogue that a search term may stand for, with its trigram similarity. */
interface WordCandidate { term: number; form: string; word: string; similarity: number }

// A candidate must be this similar to the typed word, and nearly as similar as the best one, so
// "cancelng" becomes "cancelling" without dragging in every word that shares two letters.
const MIN_SIMILARITY = 0.4;
const NEAR_BEST = 0.15;
const MAX_CANDIDATES = 3;

/** Search terms: letters and digits only, lower-cased, at most MAX_TERMS. */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS).map((t) => t.slice(0, 64));
}

/**
 * For each term, the catalogue words it may be a misspelling of (trigram similarity over the
 * search_words vocabulary, never over products). A term that is itself a catalogue word keeps
 * only itself.
 */
async function findWordCandidates(db: Executor, terms: string[]): Promise<WordCandidate[][]> {
  const rows = (await db.execute(sql`
    select t.i::int as term, w.word, w.form, similarity(w.word, t.term)::float8 as similarity
    from unnest(string_to_array(${terms.join(' ')}, ' ')) with ordinality as t(term, i)
    cross join lateral (
      select s.word, s.form from search_words s
      where s.word % t.term
      order by similarity(s.word, t.term) desc, s.word
      limit ${MAX_CANDIDATES}
    ) w
  `)) as unknown as { rows: Array<{ term: number; word: string; form: string; similarity: number }> };
  const byTerm: WordCandidate[][] = terms.map(() => []);
  for (const r of rows.rows) byTerm[Number(r.term) - 1]?.push({ ...r, term: Number(r.term) - 1, similarity: Number(r.similarity) });
  return byTerm.map((list, i) => {
    if (list.some((c) => c.word === terms[i])) return list.filter((c) => c.word === terms[i]);
    const best = list[0]?.similarity ?? 0;
    return list.filter((c) => c.similarity >= MIN_SIMILARITY && c.similarity >= best - NEAR_BEST);
  });
}

/**
 * The tsquery of a per-term search: every term must match, each either as typed (the last as a
 * prefix) or as one of the catalogue words it may be a misspelling of. Built from bound strings
 * with plainto_tsquery, so no tsquery syntax comes from the shopper.
 */
function perTermTsQuery(terms: string[], candidates: WordCandidate[][]): SQL {
  const parts = terms.map((term, i) => {
    const typed = i === terms.length - 1 ? sql`to_tsquery('english', ${`${term}:*`})` : sql`plainto_tsquery('english', ${term})`;
    const alternatives = (candidates[i] ?? []).filter((c) => c.form !== term).map((c) => sql`plainto_tsquery('english', ${c.form})`);
    return sql`(${sql.join([typed, ...alternatives], sql` || `)})`;
  });
  return sql`(${sql.join(parts, sql` && `)})`;
}

/** The best candidate per term, as a query a shopper can click ("wireless headphones"); null when nothing changes. */
function correctedText(terms: string[], candidates: WordCandidate[][]): string | null {
  const words = terms.map((t, i) => candidates[i]?.[0]?.form ?? null).filter((w): w is string => w !== null);
  const text = words.join(' ');
  return text && text !== terms.join(' ') ? text : null;
}

type Matcher = { kind: 'fts' } | { kind: 'per-term'; tsquery: SQL } | { kind: 'none'; didYouMean: string | null };

/**
 * Storefront search. Text is matched in two steps: full-text search for the words as typed (over
 * name, brand, category and description, the last word as a prefix); when that finds nothing, each
 * word is matched on its own, as typed or as the catalogue words it may be a misspelling of
 * ("noise cancelng headphones", "wireles hedphones", "tshirt"), and those results are ranked by
 * relevance (under the default order). When nothing matches, the response carries suggestions:
 * a "did you mean" that finds products and the categories. Filters apply to published products
 * only; the price range applies to the price after the sale discount. A page past the end shows
 * the last page.
 */
export async function searchProducts(
  db: Executor, cache: CatalogueCache, q: ProductSearchQuery, options: { textPlan?: TextPlan } = {},
): Promise<ProductSearchResponse> {
  const filters = filterConditions(q);
  const filterKey = `${q.category}\u0000${q.price}\u0000${q.rating}\u0000${q.tag}`;
  let where = and(...filters) as SQL;
  let countProducts: number;
  let rank: SQL | null = null;
  let perTermKey: string | undefined;
  let textQuery: string | null = null;
  let suggestions: ProductSearchResponse['suggestions'];

  if (q.query !== 'all') {
    // Full-text and trigram matching both ignore case, so one spelling serves every casing.
    const text = q.query.toLowerCase();
    const terms = searchTerms(text);
    const tsquery = toPrefixTsQuery(text);
    const fullText = tsquery ? sql`${products.searchVector} @@ to_tsquery('english', ${tsquery})` : null;
    // One cached decision per text and filters: which matcher to use, and how many it finds.
    const found = await cache.remember(`search\u0000${text}\u0000${filterKey}`, COUNT_TTL_MS, async (): Promise<{ matcher: Matcher; n: number }> => {
      if (fullText) {
        const n = await countWhere(db, and(...filters, fullText) as SQL);
        if (n > 0) return { matcher: { kind: 'fts' }, n };
      }
      if (!terms.length) return { matcher: { kind: 'none', didYouMean: null }, n: 0 };
      const candidates = await findWordCandidates(db, terms);
      const perTerm = perTermTsQuery(terms, candidates);
      const n = await countWhere(db, and(...filters, sql`${products.searchVector} @@ ${perTerm}`) as SQL);
      if (n > 0) return { matcher: { kind: 'per-term', tsquery: perTerm }, n };
      // Nothing: suggest the best-matching catalogue words, leaving out words that match none,
      // but only when that suggestion finds something.
      const kept = terms.map((t, i) => ({ t, c: candidates[i] ?? [] })).filter((x) => x.c.length > 0);
      let didYouMean: string | null = null;
      if (kept.length) {
        const text2 = correctedText(kept.map((x) => x.t), kept.map((x) => x.c)) ?? (kept.length < terms.length ? kept.map((x) => x.t).join(' ') : null);
        if (text2) {
          const check = perTermTsQuery(kept.map((x) => x.t), kept.map((x) => x.c.slice(0, 1)));
          if ((await countWhere(db, and(isPublished, sql`${products.searchVector} @@ ${check}`) as SQL)) > 0) didYouMean = text2;
        }
      }
      return { matcher: { kind: 'none', didYouMean }, n: 0 };
    });
    const m = found.matcher;
    if (m.kind === 'fts' && fullText) {
      where = and(...filters, fullText) as SQL;
      textQuery = tsquery;
    }
    else if (m.kind === 'per-term') {
      where = and(...filters, sql`${products.searchVector} @@ ${m.tsquery}`) as SQL;
      if (q.order === 'newest') rank = sql`ts_rank(${products.searchVector}, ${m.tsquery})`;
      perTermKey = `per-term\u0000${text}\u0000${filterKey}`;
    } else {
      where = sql`false`;
      suggestions = { didYouMean: m.kind === 'none' ? m.didYouMean : null, categories: (await listCategories(db, cache)).slice(0, SUGGESTED_CATEGORIES) };
    }
    countProducts = found.n;
  } else {
    countProducts = await cache.remember(`count\u0000${filterKey}`, COUNT_TTL_MS, () => countWhere(db, where));
  }

  const respond = async (): Promise<ProductSearchResponse> => {
    const pages = Math.ceil(countProducts / SEARCH_PAGE_SIZE);
    // Past the end: the last page (the response says which page it is).
    const page = pages > 0 ? Math.min(q.page, pages) : 1;
    const base = { page, pages, countProducts, ...(suggestions ? { suggestions } : {}) };
    if (countProducts === 0) return { products: [], ...base };
    const offset = (page - 1) * SEARCH_PAGE_SIZE;
    // Deep pages of a plain listing start from a cached keyset checkpoint instead of skipping
    // every row before them (text matches are few enough for an offset).
    const seek = q.query === 'all' && !rank && offset >= CHECKPOINT_EVERY
      ? await seekCheckpoint(db, cache, `${filterKey}\u0000${q.order}`, where, q.order, offset)
      : null;
    let rows: ProductRow[];
    if (q.query === 'all' && !rank) rows = await findListingPage(db, q, offset, seek);
    else if (textQuery) {
      // How many products the filters alone let through (cached like every count): with the
      // number of matches, it tells how far the sort index would be walked to fill the page.
      const plan = options.textPlan ?? chooseTextPlan(countProducts, await cache.remember(`count\u0000${filterKey}`, COUNT_TTL_MS, () => countWhere(db, and(...filters) as SQL)), offset);
      rows = await findTextPage(db, q, textQuery, offset, plan);
    } else rows = await findPage(db, where, q.order, offset, rank);
    return { products: rows.map((r) => presentProduct(r)), ...base };
  };
  // Per-term matching ranks every match, so its (rare) pages are kept as briefly as counts.
  if (perTermKey) return cache.remember(`${perTermKey}\u0000${q.order}\u0000${q.page}`, COUNT_TTL_MS, respond);
  return respond();
}

/** A deep page's keyset checkpoint is taken every this many rows of a listing. */
export const CHECKPOINT_EVERY = 240;
const CHECKPOINT_TTL_MS = COUNT_TTL_MS;

type Checkpoint = { a: string; id: string };

/**
 * The sort key of every CHECKPOINT_EVERY-th row of a listing (filters + order), read in one
 * index-only pass and cached like the counts. Page N then seeks past the nearest checkpoint with
 * a row comparison the sort index answers directly, and skips fewer than CHECKPOINT_EVERY rows,
 * instead of reading all (N - 1) x 12 rows before it. Keys travel as text so timestamps keep their
 * microseconds and prices their exact decimals. Orders whose sort mixes directions (top rated)
 * keep the plain offset. Returns null when the offset is before the first checkpoint.
 */
async function seekCheckpoint(
  db: Executor, cache: CatalogueCache, key: string, where: SQL, order: ProductSearchQuery['order'], offset: number,
): Promise<Seek | null> {
  const column = order === 'lowest' || order === 'highest' ? 'final_price' : order === 'newest' ? 'created_at' : null;
  if (!column) return null;
  const checkpoints = await cache.remember(`checkpoints\u0000${key}`, CHECKPOINT_TTL_MS, async () => {
    const keyColumn = column === 'final_price' ? products.finalPrice : products.createdAt;
    const ranked = db
      .select({ a: sql<string>`${keyColumn}::text`.as('a'), id: sql<string>`${products.id}`.as('cid'), n: sql<number>`row_number() over (order by ${sql.join(orderBy(order), sql`, `)})`.as('n') })
      .from(products).where(where).as('ranked');
    const rows = await db.select({ a: ranked.a, id: ranked.id }).from(ranked)
      .where(sql`${ranked.n} % ${CHECKPOINT_EVERY} = 0`).orderBy(ranked.n);
    return rows as Checkpoint[];
  });
  const index = Math.floor(offset / CHECKPOINT_EVERY) - 1;
  const at = checkpoints[Math.min(index, checkpoints.length - 1)];
  if (index < 0 || !at) return null;
  const skipped = (Math.min(index, checkpoints.length - 1) + 1) * CHECKPOINT_EVERY;
  return { at, offset: offset - skipped };
}

/** A page that starts past a checkpoint: the checkpoint's sort key, and the rows still to skip. */
type Seek = { at: Checkpoint; offset: number };

/** Rows after the checkpoint in the listing's order (placeholders `seekKey`, `seekId`). */
function afterCheckpoint(order: ProductSearchQuery['order']): SQL {
  // The checkpoint's key is read through scalar subqueries (InitPlans): the planner never sees it,
  // so every deep page of a listing plans alike and a prepared statement settles on one generic
  // plan instead of planning each request (a custom plan would estimate the rows past each key).
  const key = order === 'newest' ? sql`(select ${sql.placeholder('seekKey')}::timestamptz)` : sql`(select ${sql.placeholder('seekKey')}::numeric)`;
  const id = sql`(select ${sql.placeholder('seekId')}::char(24))`;
  if (order === 'lowest') return sql`(${products.finalPrice}, ${products.id}) > (${key}, ${id})`;
  if (order === 'highest') return sql`(${products.finalPrice}, ${products.id}) < (${key}, ${id})`;
  return sql`(${products.createdAt}, ${products.id}) < (${key}, ${id})`;
}

/** A page read built once per statement shape, then executed with the request's values. */
interface PreparedPage { execute(values: Record<string, unknown>): Promise<ProductRow[]> }

const MAX_PREPARED_PAGES = 500;
const pageStatement = builtOnce<string, PreparedPage>(MAX_PREPARED_PAGES);

/**
 * The page statement of one shape (filters set, order, plan; never a value), built with Drizzle
 * once per database handle and shape, and then only executed: building a 20-column select with
 * its subquery costs more JavaScript per request than reading its 12 rows. Values go in as
 * placeholders; the SQL text, and so the server-side prepared statement, is the same as before.
 */
function preparedPage(db: Executor, shape: string, build: () => { prepare(name: string): PreparedPage }): PreparedPage {
  return pageStatement(db, shape, () => build().prepare(`page_${createHash('sha1').update(shape).digest('base64url')}`));
}

/**
 * One page of a listing without text (filters and order), from a checkpoint when there is one,
 * in one statement: the page's ids are found first, in a subquery that can be an index-only scan
 * (the sort indexes include the filtered columns), and only those 12 rows are read from the table.
 */
function findListingPage(db: Executor, q: ProductSearchQuery, offset: number, seek: Seek | null): Promise<ProductRow[]> {
  const filters = filterTemplate(q);
  if (seek) {
    // After a checkpoint (an offset below CHECKPOINT_EVERY, a multiple of the page size): LIMIT
    // and OFFSET written into the SQL, as for the first text pages (findTextPage), so the generic
    // plan is costed for one page and preferred to planning each request (CHECKPOINT_EVERY / 12
    // texts per listing shape at most). The page's ids, then their rows by primary key.
    const skip = Math.trunc(seek.offset);
    const page = preparedPage(db, `listing|${filters.shape}|${q.order}|seek|${skip}`, () => {
      const where = and(...filters.conds, afterCheckpoint(q.order)) as SQL;
      const ids = sql`array(select ${products.id} from ${products} where ${where} order by ${sql.join(orderBy(q.order), sql`, `)} ${sql.raw(`limit ${SEARCH_PAGE_SIZE} offset ${skip}`)})`;
      return db.select(productColumns).from(products).where(sql`${products.id} = any(${ids})`).orderBy(...orderBy(q.order));
    });
    return page.execute({ ...filters.values, seekKey: seek.at.a, seekId: seek.at.id });
  }
  const page = preparedPage(db, `listing|${filters.shape}|${q.order}|offset`, () =>
    pageOfIds(db, and(...filters.conds) as SQL, q.order, sql.placeholder('offset')));
  return page.execute({ ...filters.values, offset });
}

function pageOfIds(db: Executor, where: SQL, order: ProductSearchQuery['order'], offset: number | Placeholder) {
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

/**
 * One page of rows in one statement. The page's ids are found first, in a subquery that can be an
 * index-only scan (the sort indexes include the filtered columns), and only those 12 rows are read
 * from the table, instead of every row the offset skips or the filters reject.
 */
async function findPage(db: Executor, where: SQL, order: ProductSearchQuery['order'], offset: number, rank: SQL | null): Promise<ProductRow[]> {
  if (rank) {
    // Ranked (per-term matches): the best match first, then the usual order.
    return db.select(productColumns).from(products).where(where)
      .orderBy(sql`${rank} desc`, ...orderBy(order)).limit(SEARCH_PAGE_SIZE).offset(offset);
  }
  return pageOfIds(db, where, order, offset);
}

/** Text pages before this offset (10 pages) have their own statement text, see findTextPage. */
const LITERAL_OFFSETS_UP_TO = 10 * SEARCH_PAGE_SIZE;

/** How a page of full-text matches is found: walking the sort index, or through the GIN index. */
export type TextPlan = 'walk' | 'index';

/**
 * Picks the cheaper way to a page of `matches` full-text matches among `candidates` products
 * that pass the filters. Walking the sort index reads about (offset + 12) x candidates / matches
 * rows and checks each one's search vector, ~0.4 us a row; the GIN index finds every match
 * (~0.5 ms of index work, then ~2 us a match to read and sort it) — measured with EXPLAIN
 * (ANALYZE) at 100,000 products on PostgreSQL. A common word ("wireless", 5 %) walks ~240 rows
 * for page 1; two words together ("leather wallet", 0.16 %) would walk ~7,300, so they use the
 * GIN index.
 */
export function chooseTextPlan(matches: number, candidates: number, offset: number): TextPlan {
  const walked = ((offset + SEARCH_PAGE_SIZE) * candidates) / Math.max(1, matches);
  return walked > 5 * matches + 1_250 ? 'index' : 'walk';
}

/**
 * One page of full-text matches (`tsquery` from toPrefixTsQuery) in the given order, as one
 * statement. The query text is turned into a tsquery once, in an InitPlan, so the planner never
 * sees the words: both forms plan the same for every text, and a prepared statement reuses its
 * plan instead of planning each search (custom plans would estimate each text's matches and cost
 * a plan per request). The form itself says which index to use:
 *   - walk: `ts_match_vq()` (the function behind @@, which no index serves) filters rows while the
 *     sort index is read in order, stopping at the page's last row;
 *   - index: every match is collected through the GIN index first (a MATERIALIZED CTE, so the
 *     sort index cannot be chosen instead), then the page is cut from the sorted matches.
 * The page's 12 ids then fetch their rows by primary key, in the same order.
 */
function findTextPage(
  db: Executor, q: ProductSearchQuery, tsquery: string, offset: number, plan: TextPlan,
): Promise<ProductRow[]> {
  const filters = filterTemplate(q);
  // Integers computed here, never shopper text. Written into the SQL for the first pages: a
  // generic plan with a LIMIT/OFFSET parameter is costed as if it read a tenth of the rows, and
  // would never be preferred to planning each request.
  const literalOffset = offset < LITERAL_OFFSETS_UP_TO;
  const page = preparedPage(db, `text|${filters.shape}|${q.order}|${plan}|${literalOffset ? offset : 'offset'}`, () =>
    textPageStatement(db, filters.conds, q.order, plan, literalOffset ? sql.raw(`limit ${SEARCH_PAGE_SIZE} offset ${offset}`) : sql`limit ${SEARCH_PAGE_SIZE} offset ${sql.placeholder('offset')}`));
  return page.execute({ ...filters.values, tsquery, ...(literalOffset ? {} : { offset }) });
}

function textPageStatement(db: Executor, filters: SQL[], order: ProductSearchQuery['order'], plan: TextPlan, limit: SQL) {
  const query = sql`(select to_tsquery('english', ${sql.placeholder('tsquery')}))`;
  let ids: SQL;
  if (plan === 'walk') {
    const where = and(...filters, sql`ts_match_vq(${products.searchVector}, ${query})`) as SQL;
    ids = sql`array(select ${products.id} from ${products} where ${where} order by ${sql.join(orderBy(order), sql`, `)} ${limit})`;
  } else {
    const where = and(...filters, sql`${products.searchVector} @@ ${query}`) as SQL;
    const keys = sortKeys(order);
    const columns = sql.join(keys.map(([column]) => sql.identifier(column.name)), sql`, `);
    const sorted = sql.join(keys.map(([column, direction]) => sql`m.${sql.identifier(column.name)} ${sql.raw(direction)}`), sql`, `);
    ids = sql`array(with m as materialized (select ${columns} from ${products} where ${where}) select m.id from m order by ${sorted} ${limit})`;
  }
  return db.select(productColumns).from(products).where(sql`${products.id} = any(${ids})`).orderBy(...orderBy(order));
}
