import { productFormSchema, type ProductForm } from '@shop/contracts';

/** The server's own product rules and messages (SPEC.md section 5, "Product form"). */
export { productFormSchema };

/** What the inputs hold: every field of the form, of the same types as the checked values the schema gives. */
export type ProductFormValues = ProductForm;
export type ProductFormOutput = ProductForm;
export type ProductFormField = keyof ProductFormValues;

export const productFormFields: ProductFormField[] = [
  'name', 'slug', 'price', 'image', 'images', 'category', 'brand', 'countInStock', 'description', 'isTodaysDeal', 'isGift', 'isOnSale', 'saleDiscount',
];
