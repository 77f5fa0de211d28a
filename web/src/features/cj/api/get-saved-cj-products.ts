import type { CjListParams, CjSavedListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/products/saved?page&limit&query&category: saved supplier products with cost and margin. */
export const getSavedCjProducts = (params: CjListParams) => api.get<CjSavedListResponse>('cj/products/saved', params);

export const savedCjProductsQueryOptions = (params: CjListParams) =>
  queryOptions({ queryKey: cjKeys.savedList(params), queryFn: () => getSavedCjProducts(params), placeholderData: keepPreviousData });

export function useSavedCjProducts(params: CjListParams, enabled = true) {
  return useQuery({ ...savedCjProductsQueryOptions(params), enabled });
}
