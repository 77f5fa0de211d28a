import type { Product } from '@shop/contracts';

/**
 * Adds a product from the product page (SPEC.md section 4, "Cart"): quantity existing+1 (or 1),
 * 'Sorry. Product is out of stock' when stock is short, toast 'Product added to the cart', then /cart after 1 s.
 * Implemented by the cart feature.
 */
export function useAddToCart(): { addToCart: (product: Product) => Promise<void>; isAdding: boolean } {
  return { addToCart: async () => undefined, isAdding: false };
}
