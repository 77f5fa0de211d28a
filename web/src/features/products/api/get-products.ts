import type { Product } from '@shop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET products: the home grid (the newest published products). */
export const getProducts = () => api.get<Product[]>('products');

export const productsQueryOptions = () => queryOptions({ queryKey: ['products', 'home'], queryFn: getProducts });

export function useProducts() {
  return useQuery(productsQueryOptions());
}
