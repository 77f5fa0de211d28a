import type { Product, SellableVariant } from '@shop/contracts';
import { OUT_OF_STOCK_MESSAGE } from '@shop/contracts/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { paths } from '../../../lib/paths';
import { sameCartLine, useStore, type CartItem } from '../../../lib/store';
import { applyServerCart, cartErrorText, refetchServerCart, saveServerCartItem } from '../lib/server-cart';

export const ADDED_TO_CART = 'Product added to the cart';
/** Add-to-cart toast auto-close and the delay before going to the cart (SPEC.md section 9). */
export const ADD_TO_CART_DELAY_MS = 1000;

/** A cart line from a product; the price is what the shopper pays (after the sale discount). */
export function toCartItem(product: Product, quantity: number, variant: SellableVariant | null = null): CartItem {
  return {
    _id: product._id,
    name: product.name,
    slug: product.slug,
    image: variant?.image || product.image,
    price: variant ? variant.finalPrice : product.finalPrice,
    countInStock: variant ? variant.countInStock : product.countInStock,
    variantId: variant?._id ?? null,
    variantName: variant ? variant.variantKey || variant.name : null,
    quantity,
    isOnSale: product.isOnSale,
    saleDiscount: product.saleDiscount,
    isTodaysDeal: product.isTodaysDeal,
    isGift: product.isGift,
    cjData: product.cjData ?? null,
  };
}

/**
 * Adds a product from the product page (SPEC.md section 4, "Cart"): quantity existing+1 (or 1),
 * 'Sorry. Product is out of stock' when stock is short, toast 'Product added to the cart', then /cart after 1 s.
 * Signed-in users' carts are saved on the server; guests' carts stay in this browser.
 */
export function useAddToCart(): { addToCart: (product: Product, variant?: SellableVariant | null) => Promise<void>; isAdding: boolean } {
  const { state, dispatch } = useStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isAdding, setIsAdding] = useState(false);
  const { cartItems } = state.cart;
  const isSignedIn = Boolean(state.userInfo);

  const addToCart = useCallback(
    async (product: Product, variant: SellableVariant | null = null) => {
      try {
        if (!product?._id) {
          toast.error('Could not identify product to update/remove');
          return;
        }
        const variantId = variant?._id ?? null;
        const existing = cartItems.find((x) => sameCartLine(x, { _id: product._id, variantId }));
        const quantity = existing ? existing.quantity + 1 : 1;
        if ((variant ? variant.countInStock : product.countInStock) < quantity) {
          toast.error(OUT_OF_STOCK_MESSAGE);
          return;
        }
        dispatch({ type: 'CART_ADD_ITEM', payload: toCartItem(product, quantity, variant) });
        if (isSignedIn) {
          setIsAdding(true);
          try {
            applyServerCart(queryClient, dispatch, await saveServerCartItem(queryClient, product._id, quantity, Boolean(existing), variantId));
          } catch (error) {
            toast.error(cartErrorText(error, 'Failed to update cart on server'));
            refetchServerCart(queryClient, dispatch);
            return;
          } finally {
            setIsAdding(false);
          }
        }
        toast.success(ADDED_TO_CART, { autoClose: ADD_TO_CART_DELAY_MS });
        setTimeout(() => void navigate(paths.cart), ADD_TO_CART_DELAY_MS);
      } catch {
        toast.error('Could not add item to cart');
      }
    },
    [cartItems, dispatch, isSignedIn, navigate, queryClient],
  );

  return { addToCart, isAdding };
}
