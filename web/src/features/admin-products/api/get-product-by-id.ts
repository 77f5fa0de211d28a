import type { Product } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';

/** GET products/{id}. */
export const getProductById = (id: string) => api.get<Product>(`products/${id}`);

export const productByIdQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['products', 'id', id],
    queryFn: () => getProductById(id),
    staleTime: 0,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export function useProductById(id: string) {
  return useQuery(productByIdQueryOptions(id));
}
