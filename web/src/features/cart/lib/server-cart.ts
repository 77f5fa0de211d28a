import type { QueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { StoreAction } from '../../../lib/store';
import { ApiError } from '../../../lib/api-client';
import { addCartItem } from '../api/add-cart-item';
import { cartQueryKey, cartQueryOptions } from '../api/get-cart';
import { updateCartItem } from '../api/update-cart-item';
import type { ServerCart } from '../types';

const noticesShown = new WeakSet<ServerCart>();

/** Shows the server's notices (capped quantities, vanished products) once per response. */
export function showCartNotices(cart: ServerCart): void {
  if (noticesShown.has(cart)) return;
  noticesShown.add(cart);
  for (const notice of cart.notices ?? []) toast.warning(notice);
}

/** A server cart response is the truth: it fills the cart cache and the store's cart items. */
export function applyServerCart(queryClient: QueryClient, dispatch: (action: StoreAction) => void, cart: ServerCart): void {
  queryClient.setQueryData(cartQueryKey, cart);
  dispatch({ type: 'CART_SET_ITEMS', payload: cart.cartItems });
  showCartNotices(cart);
}

/**
 * After a failed sync the server cart is fetched again and put back in the store, so the screen shows
 * what is really stored (even when it equals the cached copy, which would not re-render by itself).
 */
export function refetchServerCart(queryClient: QueryClient, dispatch: (action: StoreAction) => void): void {
  queryClient
    .fetchQuery({ ...cartQueryOptions(true), staleTime: 0 })
    .then((cart) => dispatch({ type: 'CART_SET_ITEMS', payload: cart.cartItems }))
    .catch(() => undefined);
}

/** Sync rule of the spec: update the line when the product is already in the server cart, otherwise add it. */
export function saveServerCartItem(
  queryClient: QueryClient, productId: string, quantity: number, isInLocalCart: boolean, variantId: string | null = null,
): Promise<ServerCart> {
  const cached = queryClient.getQueryData<ServerCart>(cartQueryKey);
  const isInCart = cached ? cached.cartItems.some((x) => x._id === productId && (x.variantId ?? null) === variantId) : isInLocalCart;
  return isInCart ? updateCartItem(productId, quantity, variantId) : addCartItem(productId, quantity, variantId);
}

/** A client error from the server (e.g. 'Sorry. Product is out of stock') is shown as is; anything else gets the fallback text. */
export function cartErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && (error.status === 400 || error.status === 409) && error.message ? error.message : fallback;
}
