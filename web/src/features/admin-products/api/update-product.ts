import type { ProductUpdateResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ProductFormOutput } from '../../../lib/product-form';

/** The product form's checked values and the product's id. */
export type UpdateProductBody = ProductFormOutput & { _id: string };

/** PUT products/{id}: 400 carries { message, fieldErrors } for the form. */
export const updateProduct = (body: UpdateProductBody) => api.put<ProductUpdateResponse>(`products/${body._id}`, body);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
}
