import type { ProductSearchResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SearchFilters } from '../lib/search-filters';

/** GET products/search with query, category, price, rating, order, page and tag. */
export const searchProducts = (filters: SearchFilters, signal?: AbortSignal) =>
  api.get<ProductSearchResponse>('products/search', { ...filters }, signal);

export const searchQueryOptions = (filters: SearchFilters) =>
  queryOptions({
    queryKey: ['products', 'search', filters],
    queryFn: ({ signal }) => searchProducts(filters, signal),
    placeholderData: keepPreviousData,
  });

export function useSearchProducts(filters: SearchFilters) {
  return useQuery(searchQueryOptions(filters));
}
