import type { CjCategoriesResponse } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/categories: the supplier's categories for the filter. */
export const getCjCategories = () => api.get<CjCategoriesResponse>('cj/categories');

export const cjCategoriesQueryOptions = () => queryOptions({ queryKey: cjKeys.categories(), queryFn: getCjCategories, staleTime: 10 * 60_000 });

export function useCjCategories() {
  return useQuery(cjCategoriesQueryOptions());
}
