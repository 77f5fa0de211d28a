import type { ProductOption, ProductUpdateResponse, ProductVariantInput } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ProductFormOutput } from '../../../lib/product-form';

/**
 * The product form's checked values and the product's id. Fields left out keep their stored value:
 * the form leaves out `countInStock` unless the administrator changed it (orders take stock while
 * the form is open), and a supplier product's price, sale and stock. A changed stock carries
 * `countInStockWas`, the stock the form loaded: the server answers 409 if orders changed it since.
 */
export type UpdateProductBody = Partial<ProductFormOutput> & {
  _id: string;
  countInStockWas?: number;
  /** Options and variants (issue 34), always together; left out, the product's stay as they are. */
  options?: ProductOption[];
  variants?: ProductVariantInput[];
};

/** PUT products/{id}: 400 carries { message, fieldErrors } for the form; 409 STOCK_CHANGED a stock changed since the form loaded. */
export const updateProduct = (body: UpdateProductBody) => api.put<ProductUpdateResponse>(`products/${body._id}`, body);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
}
