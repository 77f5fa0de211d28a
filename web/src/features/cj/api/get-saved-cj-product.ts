import type { CjSavedItem } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/products/saved/{id}: a saved supplier product by its 24-character id. */
export const getSavedCjProduct = (id: string) => api.get<CjSavedItem>(`cj/products/saved/${encodeURIComponent(id)}`);

export const savedCjProductQueryOptions = (id: string) =>
  queryOptions({
    queryKey: cjKeys.saved(id),
    queryFn: () => getSavedCjProduct(id),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });

export function useSavedCjProduct(id: string, enabled = true) {
  return useQuery({ ...savedCjProductQueryOptions(id), enabled });
}
