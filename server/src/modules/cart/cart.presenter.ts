import type { CartItem } from '@shop/contracts';
import { presentProduct, type ProductRow } from '../products/index.ts';
import { variantFinalPrice, type VariantRow } from '../supplier/index.ts';

/** The product columns a cart line (and an order line) reads. */
export { productColumns as cartProductColumns, type ProductRow as CartProductRow } from '../products/index.ts';

/**
 * A cart line with live price and stock. `price` is what the shopper pays per unit; a variant line
 * has the variant's price, stock and image.
 */
export function presentCartItem(p: ProductRow, quantity: number, variant: VariantRow | null = null): CartItem {
  const product = presentProduct(p);
  return {
    _id: p.id,
    product,
    name: p.name,
    slug: p.slug,
    image: variant?.image || p.image,
    price: variant ? variantFinalPrice(variant, p) : product.finalPrice,
    countInStock: variant ? variant.countInStock : p.countInStock,
    variantId: variant ? variant.id.trim() : null,
    variantName: variant ? variant.variantKey || variant.name : null,
    quantity,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    cjData: p.cjData ?? null,
  };
}
