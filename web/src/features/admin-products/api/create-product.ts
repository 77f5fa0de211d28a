import type { Product, ProductCreateResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminProductsKey } from './get-admin-products';

/** POST products: the server creates a draft with placeholder values. */
export async function createProduct(): Promise<Product> {
  const { product } = await api.post<ProductCreateResponse>('products');
  return product;
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminProductsKey }),
  });
}
