import type { Product } from '@shop/contracts';
import { OUT_OF_STOCK_MESSAGE } from '@shop/contracts/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { paths } from '../../../app/paths';
import { useStore, type CartItem } from '../../../app/store';
import { applyServerCart, cartErrorText, refetchServerCart, saveServerCartItem } from '../lib/server-cart';

export const ADDED_TO_CART = 'Product added to the cart';
/** Add-to-cart toast auto-close and the delay before going to the cart (SPEC.md section 9). */
export const ADD_TO_CART_DELAY_MS = 1000;

/** A cart line from a product; the price is what the shopper pays (after the sale discount). */
export function toCartItem(product: Product, quantity: number): CartItem {
  return {
    _id: product._id,
    name: product.name,
    slug: product.slug,
    image: product.image,
    price: product.finalPrice,
    countInStock: product.countInStock,
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
export function useAddToCart(): { addToCart: (product: Product) => Promise<void>; isAdding: boolean } {
  const { state, dispatch } = useStore();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isAdding, setIsAdding] = useState(false);
  const { cartItems } = state.cart;
  const isSignedIn = Boolean(state.userInfo);

  const addToCart = useCallback(
    async (product: Product) => {
      try {
        if (!product?._id) {
          toast.error('Could not identify product to update/remove');
          return;
        }
        const existing = cartItems.find((x) => x._id === product._id);
        const quantity = existing ? existing.quantity + 1 : 1;
        if (product.countInStock < quantity) {
          toast.error(OUT_OF_STOCK_MESSAGE);
          return;
        }
        dispatch({ type: 'CART_ADD_ITEM', payload: toCartItem(product, quantity) });
        if (isSignedIn) {
          setIsAdding(true);
          try {
            applyServerCart(queryClient, dispatch, await saveServerCartItem(queryClient, product._id, quantity, Boolean(existing)));
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
