import type { CjSaveBody, CjSaveResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** POST cj/products/save: 201 when it created the product, 200 when it updated it; 400 carries fieldErrors. */
export const saveCjProduct = (body: CjSaveBody) => api.post<CjSaveResponse>('cj/products/save', body);

export function useSaveCjProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCjProduct,
    onSuccess: (res) => {
      queryClient.setQueryData(cjKeys.saved(res.product._id), res.product);
      // Stale, but not refetched while the edit page is still open (it leaves 2 s later).
      void queryClient.invalidateQueries({ queryKey: cjKeys.all, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
