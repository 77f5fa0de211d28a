import type { CjListParams, CjProductListResponse } from '@shop/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/products?page&limit&query&category: a page of the supplier catalogue (data.content, data.totalPages). */
export const getCjProducts = (params: CjListParams) => api.get<CjProductListResponse>('cj/products', params);

export const cjProductsQueryOptions = (params: CjListParams) =>
  queryOptions({ queryKey: cjKeys.list(params), queryFn: () => getCjProducts(params), placeholderData: keepPreviousData });

export function useCjProducts(params: CjListParams, enabled = true) {
  return useQuery({ ...cjProductsQueryOptions(params), enabled });
}
