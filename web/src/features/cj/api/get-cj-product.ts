import type { CjProductResponse } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** GET cj/products/{pid}: one supplier product with its variants. */
export const getCjProduct = (pid: string) => api.get<CjProductResponse>(`cj/products/${encodeURIComponent(pid)}`);

export const cjProductQueryOptions = (pid: string) =>
  queryOptions({
    queryKey: cjKeys.product(pid),
    queryFn: () => getCjProduct(pid),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });

export function useCjProduct(pid: string, enabled = true) {
  return useQuery({ ...cjProductQueryOptions(pid), enabled });
}
