import { PRODUCT_FORM_MESSAGES as M } from '@shop/contracts/constants';
import type { ProductFormField } from './product-form-schema';

/** The spec's message for each field (SPEC section 5, "Product form"), shown when the server's text is not one of ours. */
const SPEC_MESSAGE: Record<ProductFormField, string> = {
  name: M.name,
  slug: M.slug,
  price: M.price,
  image: M.image,
  images: 'Images must be a list of image URLs',
  category: M.category,
  brand: M.brand,
  countInStock: M.countInStock,
  description: M.description,
  isTodaysDeal: "Today's deal must be true or false",
  isGift: 'Gift must be true or false',
  isOnSale: 'On sale must be true or false',
  saleDiscount: M.saleDiscount,
};

/** How each field's own messages begin ('Name must be at most 200 characters', 'Price after the sale discount...'). */
const LABEL: Record<ProductFormField, string> = {
  name: 'Name', slug: 'Slug', price: 'Price', image: 'Image', images: 'Images', category: 'Category', brand: 'Brand',
  countInStock: 'Count in stock', description: 'Description', isTodaysDeal: "Today's deal", isGift: 'Gift', isOnSale: 'On sale',
  saleDiscount: 'Sale discount',
};
const KNOWN = new Set<string>(Object.values(M));

/**
 * The text to show next to `field` for a server field error: the server's own sentence when it is
 * one of the product rules' messages, else the spec's message for that field, so that a raw
 * validator text ('body/price must be >= 0') never reaches the administrator.
 */
export function productFieldMessage(field: ProductFormField, serverMessage: string): string {
  if (KNOWN.has(serverMessage)) return serverMessage;
  const label = LABEL[field];
  if (serverMessage.startsWith(`${label} `) && !/[/{}[\]<>=]/.test(serverMessage)) return serverMessage;
  return SPEC_MESSAGE[field];
}
