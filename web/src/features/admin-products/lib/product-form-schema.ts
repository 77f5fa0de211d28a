import { productFormSchema, type ProductForm } from '@shop/contracts';

/** The server's own product rules and messages (SPEC.md section 5, "Product form"). */
export { productFormSchema };

/** What the inputs hold; the schema checks it and gives the values to send. */
export interface ProductFormValues {
  name: string;
  slug: string;
  price: number;
  image: string;
  images: string[];
  category: string;
  brand: string;
  countInStock: number;
  description: string;
  isTodaysDeal: boolean;
  isGift: boolean;
  isOnSale: boolean;
  saleDiscount: number;
}
export type ProductFormOutput = ProductForm;
export type ProductFormField = keyof ProductFormValues;

export const productFormFields: ProductFormField[] = [
  'name', 'slug', 'price', 'image', 'images', 'category', 'brand', 'countInStock', 'description', 'isTodaysDeal', 'isGift', 'isOnSale', 'saleDiscount',
];
