import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET products/categories: the category names of the storefront catalogue. */
export const getCategories = () => api.get<string[]>('products/categories');

export const categoriesQueryOptions = () =>
  queryOptions({ queryKey: ['products', 'categories'], queryFn: getCategories, staleTime: 5 * 60 * 1000 });

export function useCategories() {
  return useQuery(categoriesQueryOptions());
}
