import type { CjRefreshResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** POST cj/products/saved/{id}/refresh: cost, stock and availability from the supplier. */
export const refreshCjProduct = (id: string) => api.post<CjRefreshResponse>(`cj/products/saved/${encodeURIComponent(id)}/refresh`);

export function useRefreshCjProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshCjProduct,
    onSuccess: (res) => {
      queryClient.setQueryData(cjKeys.saved(res.product._id), res.product);
      void queryClient.invalidateQueries({ queryKey: cjKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
