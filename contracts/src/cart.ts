import { z } from 'zod';
import { wholeNumberField } from './number-fields.ts';
import { idSchema } from './common.ts';
import { CART_MAX_LINES, CART_MAX_QUANTITY } from './constants.ts';
import { cjDataSchema, productSchema } from './products.ts';
import { cartDiscountSchema } from './discounts.ts';

/**
 * Cart API (all routes need a signed-in user; every response is the whole cart, `Cart`):
 *   GET    /api/cart                          -> Cart
 *   POST   /api/cart/items   AddCartItemBody   -> Cart   sets the line's quantity (adds the line when missing)
 *   PUT    /api/cart/items/:productId  UpdateCartItemBody -> Cart   the line must exist (404 'Item not found in cart')
 *   DELETE /api/cart/items/:productId          -> Cart
 *   DELETE /api/cart                          -> Cart   (empty)
 *   POST   /api/cart/merge   MergeCartBody     -> Cart   sign-in merge: quantities are ADDED to the server
 *          cart, capped at stock; capped or unavailable lines are reported in `notices`.
 * Prices and stock are live: `price` is what the shopper pays now (sale discount applied).
 */
export const cartItemSchema = z.object({
  /** The product id. */
  _id: idSchema,
  product: productSchema,
  name: z.string(),
  slug: z.string(),
  image: z.string(),
  /** Unit price the shopper pays (finalPrice: sale discount applied, 2 decimals). */
  price: z.number(),
  countInStock: z.number().int(),
  quantity: z.number().int(),
  isOnSale: z.boolean(),
  saleDiscount: z.number(),
  isTodaysDeal: z.boolean(),
  isGift: z.boolean(),
  cjData: cjDataSchema.nullable().optional(),
  /** The chosen variant of a product with variants (null for products without variants). */
  variantId: idSchema.nullable().optional(),
  variantName: z.string().nullable().optional(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export const cartSchema = z.object({
  cartItems: z.array(cartItemSchema),
  /** Human-readable changes the server made (a product was removed, a quantity was capped at stock). */
  notices: z.array(z.string()).optional(),
  /** The discount code applied to the cart (POST cart/discount), recomputed on every answer; null: none. */
  discount: cartDiscountSchema.nullable().optional(),
});
export type Cart = z.infer<typeof cartSchema>;

const productIdField = z
  .string({ error: 'Product ID is required' })
  .trim()
  .min(1, 'Product ID is required')
  .max(100, 'Product ID is too long');

/** A JSON whole number or a string of digits (numbers.ts): "0x2", "1e1", "2.0" are refused. */
const quantityField = wholeNumberField({ required: 'Quantity is required', format: 'Quantity must be a whole number' })
  .refine((v) => v >= 1, 'Quantity must be at least 1')
  .refine((v) => v <= CART_MAX_QUANTITY, `Quantity must be at most ${CART_MAX_QUANTITY}`);

const variantIdField = z.string().trim().max(100, 'Variant ID is too long').nullable().optional()
  .transform((v) => (v ? v : null));

export const addCartItemBodySchema = z.object({ productId: productIdField, quantity: quantityField.default(1), variantId: variantIdField });
export type AddCartItemBody = z.infer<typeof addCartItemBodySchema>;

export const updateCartItemBodySchema = z.object({ quantity: quantityField, variantId: variantIdField });
export type UpdateCartItemBody = z.infer<typeof updateCartItemBodySchema>;

export const mergeCartBodySchema = z.object({
  items: z
    .array(z.object({ productId: productIdField, quantity: quantityField, variantId: variantIdField }))
    .max(CART_MAX_LINES, `A cart holds at most ${CART_MAX_LINES} products`),
});
export type MergeCartBody = z.infer<typeof mergeCartBodySchema>;
