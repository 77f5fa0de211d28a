import { SEARCH_PAGE_PARAMS } from '@shop/contracts/constants';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, hasActiveFilters, parseSearchFilters, resultsSummary, tagLabel } from './search-filters';

describe('search filters', () => {
  it('reads exactly the parameters the server keys the search page by (SEARCH_PAGE_PARAMS: the rest is dropped from its cache key)', () => {
    expect(Object.keys(DEFAULT_FILTERS).sort()).toEqual([...SEARCH_PAGE_PARAMS].sort());
  });

  it('reads defaults for missing, empty or invalid parameters', () => {
    expect(parseSearchFilters(new URLSearchParams(''))).toEqual(DEFAULT_FILTERS);
    expect(parseSearchFilters(new URLSearchParams('query=&order=sideways&page=0'))).toEqual(DEFAULT_FILTERS);
    // Digits only, as the server reads a page: not "0x2", "1e1" or "2.0".
    for (const page of ['0x2', '1e1', '2.0', '-2', '%2B2']) expect(parseSearchFilters(new URLSearchParams(`page=${page}`)).page, page).toBe(1);
    expect(parseSearchFilters(new URLSearchParams('query=%20lamp%20&category=Home&price=1-50&rating=3&order=lowest&page=4&tag=gifts'))).toEqual({
      query: 'lamp',
      category: 'Home',
      price: '1-50',
      rating: '3',
      order: 'lowest',
      page: 4,
      tag: 'gifts',
    });
  });

  it("summarises 'N Results' ('No' when zero) with the active filters", () => {
    expect(resultsSummary(0, DEFAULT_FILTERS)).toBe('No Results');
    expect(resultsSummary(7, { ...DEFAULT_FILTERS, query: 'mug', rating: '2', tag: 'on-sale' })).toBe('7 Results : mug : Rating 2 & up : On Sale');
    expect(hasActiveFilters(DEFAULT_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, order: 'highest', page: 3 })).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_FILTERS, price: '51-200' })).toBe(true);
    expect(tagLabel('todays-deal')).toBe('Todays Deal');
    expect(tagLabel('summer')).toBe('summer');
  });
});
