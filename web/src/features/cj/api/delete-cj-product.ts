import type { MessageResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cjKeys } from './keys';

/** DELETE cj/products/{id}: deletes a saved supplier product. */
export const deleteCjProduct = (id: string) => api.delete<MessageResponse>(`cj/products/${encodeURIComponent(id)}`);

export function useDeleteCjProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCjProduct,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: cjKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
