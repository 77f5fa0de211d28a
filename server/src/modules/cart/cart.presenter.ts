import type { CartItem } from '@shop/contracts';
import { presentProduct, type ProductRow } from '../products/index.ts';

/** The product columns a cart line (and an order line) reads. */
export { productColumns as cartProductColumns, type ProductRow as CartProductRow } from '../products/index.ts';

/** A cart line with live price and stock. `price` is what the shopper pays per unit. */
export function presentCartItem(p: ProductRow, quantity: number): CartItem {
  const product = presentProduct(p);
  return {
    _id: p.id,
    product,
    name: p.name,
    slug: p.slug,
    image: p.image,
    price: product.finalPrice,
    countInStock: p.countInStock,
    quantity,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    cjData: p.cjData ?? null,
  };
}
