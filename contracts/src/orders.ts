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
 *
 *   POST /api/orders/:id/refunds     CreateRefundBody -> 201 RefundResponse (admin) a full or partial
 *        refund: lines (orderItemId, quantity, restock) plus an optional amount (shipping, goodwill),
 *        never more than paid minus earlier refunds. PayPal payments are refunded at PayPal (the
 *        capture), demo payments as demo. 400 REFUND_REFUSED when PayPal refuses (nothing changed).
 *   POST /api/orders/:id/cancel      CancelOrderBody -> 200 { order } (admin: any order not delivered;
 *        the owner: their own unpaid order; anyone else 404). Unpaid: stock released. Paid: cancelled
 *        with a full refund in one step (supplier orders are cancelled at CJ first; 409
 *        SUPPLIER_SHIPPED when CJ has shipped: refund instead).
 *   POST /api/orders/:id/notes       { text } -> 201 { event, order } (admin) an internal note.
 *   DELETE /api/orders/:id on an order that took money and is neither fully refunded nor cancelled:
 *        409 'Refund or cancel a paid order before deleting it'.
 *
 * POST orders, PUT orders/:id/pay, POST orders/:id/refunds and POST orders/:id/cancel honour an
 * `Idempotency-Key` header (1-255 visible characters, scoped to the signed-in user, kept 24 h): the
 * same key and request answer the first answer again (header `Idempotent-Replayed: true`); the same
 * key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409
 * IDEMPOTENCY_KEY_IN_USE.
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
  /** Units of this line refunded so far. */
  refundedQuantity: z.number().int().optional(),
  /** The line has left the warehouse (a supplier line with a tracking number, or a delivered order): refunds do not restock it by default. */
  shipped: z.boolean().optional(),
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

/**
 * Where an order stands, one word (money first): cancelled, refunded (in full), partially_refunded,
 * delivered, paid, expired (unpaid past its time, stock released), unpaid.
 */
export const ORDER_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded', 'cancelled', 'expired', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * What an order's timeline records. Customers see placed, paid, processing (forwarded to the supplier),
 * shipped, delivered, undelivered, refunded, cancelled and expired, in customer words (never the supplier's
 * name); administrators also see internal notes and supplier steps (`internal: true`).
 */
export const ORDER_EVENT_TYPES = [
  'placed', 'paid', 'forwarded', 'shipped', 'delivered', 'undelivered', 'refunded', 'cancelled', 'expired', 'note', 'supplier_cancelled',
] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

export const orderEventSchema = z.object({
  _id: idSchema,
  type: z.enum(ORDER_EVENT_TYPES),
  /** What happened, worded for the viewer (customers: 'Processing', 'Shipped', ...). */
  message: z.string(),
  createdAt: z.string(),
  /** Only administrators see internal events (notes, supplier steps). */
  internal: z.boolean(),
  /** refunded: the amount given back. */
  amount: z.number().nullable().optional(),
  /** shipped: carrier and tracking number. */
  carrier: z.string().nullable().optional(),
  trackingNumber: z.string().nullable().optional(),
  /** Admin view: the administrator who wrote the note or did the action. */
  author: z.object({ _id: idSchema, name: z.string() }).nullable().optional(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const REFUND_STATUSES = ['succeeded', 'pending'] as const;

export const refundLineSchema = z.object({
  orderItemId: idSchema,
  name: z.string(),
  quantity: z.number().int(),
  /** Unit price x quantity. */
  amount: z.number(),
  /** Put back in stock. */
  restock: z.boolean(),
});
export type RefundLine = z.infer<typeof refundLineSchema>;

export const refundSchema = z.object({
  _id: idSchema,
  /** Everything given back by this refund: its lines plus `extraAmount`. */
  amount: z.number(),
  /** Given back beyond the lines (shipping, goodwill). */
  extraAmount: z.number(),
  lines: z.array(refundLineSchema),
  reason: z.string(),
  createdAt: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  /**
   * succeeded: the provider accepted it (counted in refundedAmount). pending (administrators only):
   * PayPal's answer is not known yet; it is asked again (a retry of the same request, or the sweep).
   */
  status: z.enum(REFUND_STATUSES),
  /** PayPal's refund status (COMPLETED, or PENDING while PayPal completes it); null for demo. */
  providerStatus: z.string().nullable(),
  /** Part of a cancellation. */
  isCancellation: z.boolean(),
});
export type Refund = z.infer<typeof refundSchema>;

export const orderSchema = z.object({
  _id: idSchema,
  /** The short sequential order number (#1001, #1002, ...) shown wherever an order is named; the id stays in URLs. */
  number: z.number().int(),
  orderItems: z.array(orderItemSchema),
  shippingAddress: orderShippingAddressSchema,
  paymentMethod: z.string(),
  itemsPrice: z.number(),
  shippingPrice: z.number(),
  taxPrice: z.number(),
  /** The discount code used (null: none) and what it took off: totalPrice = itemsPrice - discountPrice + shippingPrice + taxPrice. */
  discountCode: z.string().nullable().optional(),
  discountPrice: z.number().optional(),
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
  status: z.enum(ORDER_STATUSES),
  /** Refunded so far (succeeded refunds). */
  refundedAmount: z.number(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable().optional(),
  /** On one order (GET orders/:id and the answers of actions on it): its refunds, oldest first. */
  refunds: z.array(refundSchema).optional(),
  /** On one order: its timeline, oldest first (customers get the customer-facing events only). */
  events: z.array(orderEventSchema).optional(),
});
export type Order = z.infer<typeof orderSchema>;

/** #1001 */
export const formatOrderNumber = (n: number) => `#${n}`;

export const placeOrderBodySchema = z.object({
  /** An address from the user's address book... */
  addressId: idSchema.optional(),
  /** ...or an address typed at checkout. One of the two is required. */
  shippingAddress: shippingAddressBodySchema.optional(),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: 'Payment method is not supported' }).default(DEFAULT_PAYMENT_METHOD),
  /** A discount code, checked again by the server ('' or absent: none). */
  discountCode: z.string({ error: 'Discount code must be text' }).trim().max(100, 'Discount code is too long').optional(),
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

// ---------------------------------------------------------------- refunds, cancellation, notes

export const REFUND_REASON_MAX = 500;
export const ORDER_NOTE_MAX = 2000;
export const REFUND_LINES_MAX = 100;

const twoDecimals = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

export const refundLineBodySchema = z.object({
  orderItemId: idSchema,
  quantity: z.number({ error: 'Quantity must be a whole number' }).int('Quantity must be a whole number').min(1, 'Quantity must be at least 1').max(100_000, 'Quantity is too large'),
  /** Put the units back in stock; default: yes for lines not shipped, no for shipped ones. */
  restock: z.boolean({ error: 'Restock must be true or false' }).optional(),
});
export type RefundLineBody = z.infer<typeof refundLineBodySchema>;

export const createRefundBodySchema = z.object({
  lines: z.array(refundLineBodySchema).max(REFUND_LINES_MAX, `At most ${REFUND_LINES_MAX} lines`).default([]),
  /** Given back beyond the lines (shipping, goodwill), in USD. */
  amount: z.number({ error: 'Amount must be a number' }).min(0, 'Amount must be 0 or more').max(10_000_000, 'Amount is too large')
    .refine(twoDecimals, 'Amount must have at most 2 decimals').optional(),
  reason: z.string({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(REFUND_REASON_MAX, `The reason must be at most ${REFUND_REASON_MAX} characters`),
});
export type CreateRefundBody = z.infer<typeof createRefundBodySchema>;

export const refundResponseSchema = z.object({ refund: refundSchema, order: orderSchema });
export type RefundResponse = z.infer<typeof refundResponseSchema>;

export const cancelOrderBodySchema = z.object({
  reason: z.string({ error: 'The reason must be text' }).trim().max(REFUND_REASON_MAX, `The reason must be at most ${REFUND_REASON_MAX} characters`).optional(),
});
export type CancelOrderBody = z.infer<typeof cancelOrderBodySchema>;

export const orderResponseSchema = z.object({ order: orderSchema });
export type OrderResponse = z.infer<typeof orderResponseSchema>;

export const addOrderNoteBodySchema = z.object({
  text: z.string({ error: 'The note must be text' }).trim().min(1, 'The note is empty').max(ORDER_NOTE_MAX, `The note must be at most ${ORDER_NOTE_MAX} characters`),
});
export type AddOrderNoteBody = z.infer<typeof addOrderNoteBodySchema>;

export const orderNoteResponseSchema = z.object({ event: orderEventSchema, order: orderSchema });
export type OrderNoteResponse = z.infer<typeof orderNoteResponseSchema>;

/** The request header that makes a money-moving request safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 255;
