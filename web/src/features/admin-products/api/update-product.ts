import type { ProductUpdateResponse } from '@shop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface UpdateProductBody {
  _id: string;
  name: string;
  slug: string;
  price: number;
  image: string;
  images: string[];
  category: string;
  brand: string;
  countInStock: number;
  description: string;
  isTodaysDeal: boolean;
  isGift: boolean;
  isOnSale: boolean;
  saleDiscount: number;
}

/** PUT products/{id}: 400 carries { message, fieldErrors } for the form. */
export const updateProduct = (body: UpdateProductBody) => api.put<ProductUpdateResponse>(`products/${body._id}`, body);

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
}
