import { parseWholeNumber } from '@shop/contracts/numbers';
import { PRICE_BUCKET_LABELS, PRICE_BUCKETS, RATING_FILTERS, SEARCH_ORDER_LABELS, SEARCH_ORDERS, SEARCH_TAG_LABELS, type SearchOrder } from '@shop/contracts/constants';

/** The search page's state, all of it in the URL (SPEC.md "Search"). */
export interface SearchFilters {
  query: string;
  category: string;
  price: string;
  rating: string;
  order: SearchOrder;
  page: number;
  tag: string;
}

export const DEFAULT_FILTERS: SearchFilters = { query: 'all', category: 'all', price: 'all', rating: 'all', order: 'newest', page: 1, tag: 'all' };

export const SORT_OPTIONS = SEARCH_ORDERS.map((value) => ({ value, label: SEARCH_ORDER_LABELS[value] }));

export const PRICE_OPTIONS = PRICE_BUCKETS.map((value) => ({ value, label: PRICE_BUCKET_LABELS[value] }));

export const RATING_OPTIONS = RATING_FILTERS.map((value) => ({ value: String(value), label: `${value} stars & up` }));

/** 'todays-deal' -> 'Todays Deal'; an unknown tag shows as it is. */
export function tagLabel(tag: string): string {
  return (SEARCH_TAG_LABELS as Record<string, string | undefined>)[tag] ?? tag;
}

/** Reads the filters from the URL; anything missing or empty means its default. */
export function parseSearchFilters(params: URLSearchParams): SearchFilters {
  const text = (key: keyof SearchFilters) => {
    const v = params.get(key)?.trim();
    return v ? v : String(DEFAULT_FILTERS[key]);
  };
  const order = params.get('order');
  // Digits only, as the server reads it (route-preload.ts's searchApiPath does the same).
  const parsed = parseWholeNumber(params.get('page') ?? '');
  const page = parsed.ok ? parsed.value : 0;
  return {
    query: text('query'),
    category: text('category'),
    price: text('price'),
    rating: text('rating'),
    order: (SEARCH_ORDERS as readonly string[]).includes(order ?? '') ? (order as SearchOrder) : 'newest',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    tag: text('tag'),
  };
}

/** True when anything narrows the results (the X button clears it). */
export function hasActiveFilters(f: SearchFilters): boolean {
  return f.query !== 'all' || f.category !== 'all' || f.price !== 'all' || f.rating !== 'all' || f.tag !== 'all';
}

/** 'N Results' ('No' when zero) followed by the active filters. */
export function resultsSummary(count: number, f: SearchFilters): string {
  let text = `${count === 0 ? 'No' : count} Results`;
  if (f.query !== 'all') text += ` : ${f.query}`;
  if (f.category !== 'all') text += ` : ${f.category}`;
  if (f.price !== 'all') text += ` : Price ${f.price}`;
  if (f.rating !== 'all') text += ` : Rating ${f.rating} & up`;
  if (f.tag !== 'all') text += ` : ${tagLabel(f.tag)}`;
  return text;
}
