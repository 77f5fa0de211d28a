import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ServerCart } from '../types';

export const cartQueryKey = ['cart'] as const;

/** GET cart: the signed-in user's cart with live prices and stock. */
export function getCart(): Promise<ServerCart> {
  return api.get<ServerCart>('cart');
}

/** Spec constants: stale 30 s, cache 5 min, one retry, no refetch on focus; only when signed in. */
export const cartQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: cartQueryKey,
    queryFn: getCart,
    enabled,
    staleTime: 30_000,
    gcTime: 5 * 60_000,
    retry: 1,
    refetchOnWindowFocus: false,
  });

export function useCart(enabled: boolean) {
  return useQuery(cartQueryOptions(enabled));
}
