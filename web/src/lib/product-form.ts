import { PRODUCT_FORM_MESSAGES as M } from '@shop/contracts/constants';
import { productFormSchema, type ProductForm } from '@shop/contracts';
import type { UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/** The server's own product rules and messages (SPEC.md section 5, "Product form"), used by the product and the supplier product forms. */
export { productFormSchema };

/**
 * What the inputs hold: every field of the form. Price, count in stock and sale discount hold the
 * text typed (or the stored number): the schema reads them with the server's own parsers
 * (contracts/src/numbers.ts), so "1e1" or "12.345" gets the server's message beside the field.
 */
export type ProductFormValues = Omit<ProductForm, 'price' | 'countInStock' | 'saleDiscount'> & {
  price: number | string;
  countInStock: number | string;
  saleDiscount: number | string;
};
/** The checked values the schema gives (numbers parsed). */
export type ProductFormOutput = ProductForm;
export type ProductFormField = keyof ProductFormValues;

export const productFormFields: ProductFormField[] = [
  'name', 'slug', 'price', 'image', 'images', 'category', 'brand', 'countInStock', 'description', 'isTodaysDeal', 'isGift', 'isOnSale', 'saleDiscount',
];

/** The form's fields of a stored product (or a saved supplier product). */
export function productToFormValues(p: ProductFormOutput): ProductFormValues {
  return {
    name: p.name,
    slug: p.slug,
    price: p.price,
    image: p.image,
    images: p.images,
    category: p.category,
    brand: p.brand,
    countInStock: p.countInStock,
    description: p.description,
    isTodaysDeal: p.isTodaysDeal,
    isGift: p.isGift,
    isOnSale: p.isOnSale,
    saleDiscount: p.saleDiscount,
  };
}

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

/**
 * Puts a refused save's field errors beside their fields (the first one focused). Returns false
 * when the error names no form field, so the caller shows it once elsewhere.
 */
export function showServerFieldErrors(err: unknown, setError: UseFormSetError<ProductFormValues>): boolean {
  if (!(err instanceof ApiError) || !err.fieldErrors) return false;
  let shown = false;
  for (const [field, message] of Object.entries(err.fieldErrors)) {
    if (!(productFormFields as string[]).includes(field)) continue;
    const name = field as ProductFormField;
    setError(name, { type: 'server', message: productFieldMessage(name, message) }, { shouldFocus: !shown });
    shown = true;
  }
  return shown;
}
