import type { Product } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';

/** GET products/slug/{slug}: one product with its reviews. */
export const getProductBySlug = (slug: string) => api.get<Product>(`products/slug/${encodeURIComponent(slug)}`);

export const productQueryKey = (slug: string) => ['products', 'slug', slug] as const;

export const productQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: productQueryKey(slug),
    queryFn: () => getProductBySlug(slug),
    // A missing product stays missing: no retry on 404.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export function useProduct(slug: string) {
  return useQuery(productQueryOptions(slug));
}
