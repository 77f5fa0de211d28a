import { OUT_OF_STOCK_MESSAGE } from '@shop/contracts/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from '../../../lib/toast';
import { useStore, type CartItem } from '../../../lib/store';
import { removeCartItem } from '../api/remove-cart-item';
import { applyServerCart, cartErrorText, refetchServerCart, saveServerCartItem } from '../lib/server-cart';

const UNIDENTIFIED = 'Could not identify product to update/remove';

/** Quantity changes and removal on the cart page: local first, then the server for signed-in users. */
export function useCartActions() {
  const { state, dispatch } = useStore();
  const queryClient = useQueryClient();
  const isSignedIn = Boolean(state.userInfo);

  const updateQuantity = useCallback(
    async (item: CartItem, quantity: number) => {
      try {
        if (!item?._id) {
          toast.error(UNIDENTIFIED);
          return;
        }
        if (quantity < 1) return;
        if (item.countInStock < quantity) {
          toast.error(OUT_OF_STOCK_MESSAGE);
          return;
        }
        dispatch({ type: 'CART_ADD_ITEM', payload: { ...item, quantity } });
        if (!isSignedIn) return;
        try {
          applyServerCart(queryClient, dispatch, await saveServerCartItem(queryClient, item._id, quantity, true, item.variantId ?? null));
        } catch (error) {
          toast.error(cartErrorText(error, 'Failed to update item quantity'));
          refetchServerCart(queryClient, dispatch);
        }
      } catch {
        toast.error('Could not update item quantity');
      }
    },
    [dispatch, isSignedIn, queryClient],
  );

  const removeItem = useCallback(
    async (item: CartItem) => {
      if (!item?._id) {
        toast.error(UNIDENTIFIED);
        return;
      }
      dispatch({ type: 'CART_REMOVE_ITEM', payload: { _id: item._id, variantId: item.variantId ?? null } });
      if (isSignedIn) {
        try {
          applyServerCart(queryClient, dispatch, await removeCartItem(item._id, item.variantId ?? null));
        } catch {
          toast.error('Could not remove item from cart');
          refetchServerCart(queryClient, dispatch);
          return;
        }
      }
      toast.success('Item removed from cart');
    },
    [dispatch, isSignedIn, queryClient],
  );

  return { updateQuantity, removeItem };
}
