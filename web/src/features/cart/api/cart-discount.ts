import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useStore } from '../../../lib/store';
import { applyServerCart } from '../lib/server-cart';
import type { ServerCart } from '../types';

/** POST cart/discount { code }: the cart with the code applied (400 with the reason when it cannot be used). */
export const applyCartDiscount = (code: string) => api.post<ServerCart>('cart/discount', { code });

/** DELETE cart/discount: the cart without a code. */
export const removeCartDiscount = () => api.delete<ServerCart>('cart/discount');

/** Apply and remove mutations; the cart they answer fills the cart cache and the store. */
export function useCartDiscount() {
  const queryClient = useQueryClient();
  const { dispatch } = useStore();
  const onSuccess = (cart: ServerCart) => applyServerCart(queryClient, dispatch, cart);
  return {
    apply: useMutation({ mutationFn: applyCartDiscount, onSuccess }),
    remove: useMutation({ mutationFn: removeCartDiscount, onSuccess }),
  };
}
