import type { Product, ProductCreateResponse } from '@shop/contracts';
import { PRODUCT_FORM_MESSAGES } from '@shop/contracts/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { api, getErrorMessage } from '../../../lib/api-client';
import { adminProductsKey } from './get-admin-products';

/** The question 'Create Product' asks before anything is created. */
export const CREATE_PRODUCT_QUESTION = 'Are you sure to create a new product?';

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

/**
 * "Create Product" once the admin has confirmed (SPEC section 2): the server creates the draft, a
 * toast says so and the admin goes to its edit page; a failure is a toast. Resolves true on success.
 */
export function useCreateAndEditProduct() {
  const create = useCreateProduct();
  const navigate = useNavigate();
  const run = async (returnTo?: string) => {
    try {
      const product = await create.mutateAsync();
      toast.success(PRODUCT_FORM_MESSAGES.created);
      void navigate(paths.admin.product(product._id), { state: returnTo ? { returnTo } : undefined });
      return true;
    } catch (err) {
      toast.error(getErrorMessage(err));
      return false;
    }
  };
  return { createAndEdit: run, isPending: create.isPending };
}
