import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useStore, type CartItem } from '../../../lib/store';
import { cartQueryKey, useCart } from '../api/get-cart';
import { mergeCart } from '../api/merge-cart';
import { applyServerCart, showCartNotices } from '../lib/server-cart';

/**
 * Keeps the cart in step with the session: loads the server cart for signed-in users and merges the
 * guest cart into it on sign-in. Mounted once in the layout.
 */
export function CartSync() {
  const { state, dispatch } = useStore();
  const queryClient = useQueryClient();
  const userId = state.userInfo?._id ?? null;

  // When the user changes, remember it; a guest who just signed in with items brings a cart to merge.
  const [seenUserId, setSeenUserId] = useState(userId);
  const [pendingMerge, setPendingMerge] = useState<CartItem[] | null>(null);
  if (seenUserId !== userId) {
    setSeenUserId(userId);
    setPendingMerge(userId && !seenUserId && state.cart.cartItems.length > 0 ? state.cart.cartItems : null);
  }

  // The server cart is read only once the guest cart is merged, so an empty server cart cannot wipe it first.
  const cart = useCart(Boolean(userId) && !pendingMerge);

  useEffect(() => {
    if (!cart.data || !userId) return;
    dispatch({ type: 'CART_SET_ITEMS', payload: cart.data.cartItems });
    showCartNotices(cart.data);
  }, [cart.data, dispatch, userId]);

  const mergingRef = useRef<CartItem[] | null>(null);
  useEffect(() => {
    if (!pendingMerge || mergingRef.current === pendingMerge) return;
    mergingRef.current = pendingMerge;
    const items = pendingMerge.map((x) => ({ productId: x._id, quantity: x.quantity, ...(x.variantId ? { variantId: x.variantId } : {}) }));
    mergeCart(items)
      .then((merged) => applyServerCart(queryClient, dispatch, merged))
      .catch(() => toast.error('Could not add item to cart'))
      .finally(() => {
        mergingRef.current = null;
        setPendingMerge(null);
        void queryClient.invalidateQueries({ queryKey: cartQueryKey });
      });
  }, [pendingMerge, dispatch, queryClient]);

  // Another user's cart must never show after sign-out.
  useEffect(() => {
    if (!userId) queryClient.removeQueries({ queryKey: cartQueryKey });
  }, [userId, queryClient]);

  return null;
}
