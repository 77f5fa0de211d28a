import type { CjPublicProduct } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/products/saved/slug/{slug}: the public page of a saved supplier product. */
export const getCjProductBySlug = (slug: string) => api.get<CjPublicProduct>(`cj/products/saved/slug/${encodeURIComponent(slug)}`);

export const cjProductBySlugQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: cjKeys.publicBySlug(slug),
    queryFn: () => getCjProductBySlug(slug),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export function useCjProductBySlug(slug: string) {
  return useQuery(cjProductBySlugQueryOptions(slug));
}
