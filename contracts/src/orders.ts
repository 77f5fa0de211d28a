import { z } from 'zod';
import { shippingAddressBodySchema } from './addresses.ts';
import { idSchema } from './common.ts';
import { DEFAULT_PAYMENT_METHOD, PAYMENT_METHODS, PAYMENT_PROVIDERS } from './constants.ts';
import { shipmentSchema } from './supplier.ts';

/**
 * Orders and payment. Money is USD; every amount is computed by the server (2 decimals, shipping 0,
 * tax 0) from the server cart; amounts or items in a request body are ignored.
 *
 *   POST /api/orders                 PlaceOrderBody -> 201 Order   (user) builds the order from the
 *        server cart, reserves stock; an unpaid order expires after ORDER_EXPIRY_MINUTES (see expiresAt).
 *        400 'Cart is empty' | 'Sorry. Product is out of stock' | 'Shipping address is required'
 *   GET  /api/orders/mine            -> Order[]        (user; newest first)
 *   GET  /api/orders                 -> Order[]        (admin; newest first; user is null for a deleted user)
 *   GET  /api/orders/:id             -> Order          (owner or admin; otherwise 404 'Order Not Found')
 *   DELETE /api/orders/:id           -> { message: 'Order deleted successfully' } (admin; releases unpaid stock)
 *   PUT  /api/orders/:id/deliver     -> OrderActionResponse 'Order is delivered' (admin; paid orders only)
 *   PUT  /api/orders/:id/undeliver   -> OrderActionResponse 'Order status updated to not delivered' (admin)
 *
 *   GET  /api/keys/paypal            -> PaymentConfig  (public)
 *   POST /api/orders/:id/paypal/create -> { id }       (owner; PayPal mode) the PayPal order id for the buttons
 *   PUT  /api/orders/:id/pay         PayOrderBody -> OrderActionResponse
 *        PayPal mode: { paypalOrderId } from the owner after the buyer approved; the server captures and
 *        verifies (COMPLETED, amount, USD, our order id) before marking the order paid.
 *        Demo mode:   { demo: true } from the owner, or from an admin ('Test Pay Order'); no money is taken.
 *        First payment: message 'Order is paid successfully'; a repeated call changes nothing and
 *        answers message 'Order is paid' with the same order.
 */
export const orderItemSchema = z.object({
  _id: idSchema,
  name: z.string(),
  slug: z.string(),
  image: z.string(),
  /** Unit price paid (sale discount applied). */
  price: z.number(),
  quantity: z.number().int(),
  /** The product id (the product may since have been deleted). */
  product: idSchema,
  /** The variant sold (null: a product without variants). */
  variantId: idSchema.nullable().optional(),
  variantName: z.string().nullable().optional(),
  /** Supplier lines: status, carrier and tracking number as the supplier reports them. */
  tracking: shipmentSchema.nullable().optional(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const orderShippingAddressSchema = z.object({
  fullName: z.string(),
  address: z.string(),
  city: z.string(),
  postalCode: z.string(),
  country: z.string(),
});
export type OrderShippingAddress = z.infer<typeof orderShippingAddressSchema>;

export const paymentResultSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  /** PayPal capture id, or a demo reference. */
  id: z.string(),
  status: z.string(),
  emailAddress: z.string().nullable(),
  updateTime: z.string(),
});
export type PaymentResult = z.infer<typeof paymentResultSchema>;

export const orderSchema = z.object({
  _id: idSchema,
  orderItems: z.array(orderItemSchema),
  shippingAddress: orderShippingAddressSchema,
  paymentMethod: z.string(),
  itemsPrice: z.number(),
  shippingPrice: z.number(),
  taxPrice: z.number(),
  totalPrice: z.number(),
  currency: z.literal('USD'),
  isPaid: z.boolean(),
  paidAt: z.string().nullable(),
  paymentResult: paymentResultSchema.nullable(),
  isDelivered: z.boolean(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
  /** null when the customer account was deleted (shown as DELETED USER). */
  user: z.object({ _id: idSchema, name: z.string() }).nullable(),
  /** When an unpaid order releases its stock; null once paid. */
  expiresAt: z.string().nullable(),
  /** The unpaid order expired: its stock went back on sale and it can no longer be paid. */
  isExpired: z.boolean(),
  /** On one order (GET orders/:id): it holds supplier (CJ) products, so it has a supplier order to show. */
  hasSupplierLines: z.boolean().optional(),
  /** Supplier orders: what the supplier reports (null until it has been asked). */
  shipment: shipmentSchema.nullable().optional(),
  /** 'Shipped' once the supplier gave a tracking number (null otherwise). */
  shippingStatus: z.string().nullable().optional(),
});
export type Order = z.infer<typeof orderSchema>;

export const placeOrderBodySchema = z.object({
  /** An address from the user's address book... */
  addressId: idSchema.optional(),
  /** ...or an address typed at checkout. One of the two is required. */
  shippingAddress: shippingAddressBodySchema.optional(),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'Payment method is not supported' }).default(DEFAULT_PAYMENT_METHOD),
});
export type PlaceOrderBody = z.infer<typeof placeOrderBodySchema>;

export const payOrderBodySchema = z.object({
  paypalOrderId: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9-]+$/, 'Invalid PayPal order id').optional(),
  demo: z.literal(true).optional(),
});
export type PayOrderBody = z.infer<typeof payOrderBodySchema>;

export const orderActionResponseSchema = z.object({ message: z.string(), order: orderSchema });
export type OrderActionResponse = z.infer<typeof orderActionResponseSchema>;

export const paypalCreateResponseSchema = z.object({ id: z.string() });
export type PaypalCreateResponse = z.infer<typeof paypalCreateResponseSchema>;

/**
 * GET /api/keys/paypal. mode 'paypal': load the PayPal SDK with clientId. mode 'demo' (no PayPal
 * credentials on the server): clientId is the placeholder 'demo'; show a demo button labelled
 * DEMO_PAYMENT_LABEL when demoPaymentsAllowed, otherwise payment is unavailable.
 */
export const paymentConfigSchema = z.object({
  clientId: z.string(),
  mode: z.enum(['paypal', 'demo']),
  currency: z.literal('USD'),
  demoPaymentsAllowed: z.boolean(),
});
export type PaymentConfig = z.infer<typeof paymentConfigSchema>;
