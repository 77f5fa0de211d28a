import { sql } from 'drizzle-orm';
import {
  boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id, users } from './users.ts';

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' }).notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * One line per product in a signed-in user's cart. No foreign key to products on purpose: a deleted
 * product must drop out of the cart with a notice (named from `name`), not vanish silently.
 */
export const cartItems = pgTable(
  'cart_items',
  {
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    productId: id('product_id').notNull(),
    quantity: integer('quantity').notNull(),
    /** The product's name when added, for the notice if it disappears. */
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The chosen variant of a product with variants ('' for products without variants). */
    variantId: text('variant_id').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId, t.variantId], name: 'cart_items_pkey' })],
);

export const addresses = pgTable(
  'addresses',
  {
    id: id().primaryKey(),
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('addresses_user_id_idx').on(t.userId, t.createdAt),
    uniqueIndex('addresses_one_default_key').on(t.userId).where(sql`is_default`),
    uniqueIndex('addresses_dedupe_key').on(
      t.userId,
      sql`lower(btrim(${t.address}))`,
      sql`lower(btrim(${t.city}))`,
      sql`lower(btrim(${t.postalCode}))`,
      sql`lower(btrim(${t.country}))`,
    ),
  ],
);

export interface OrderShippingAddress {
  fullName: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface StoredPaymentResult {
  provider: 'paypal' | 'demo';
  id: string;
  status: string;
  emailAddress: string | null;
  updateTime: string;
  paypalOrderId?: string;
}

export const orders = pgTable(
  'orders',
  {
    id: id().primaryKey(),
    /** Null once the customer account is deleted; the order stays for the books. */
    userId: id('user_id').references(() => users.id, { onDelete: 'set null' }),
    shippingAddress: jsonb('shipping_address').$type<OrderShippingAddress>().notNull(),
    paymentMethod: text('payment_method').notNull(),
    itemsPrice: money('items_price'),
    shippingPrice: money('shipping_price'),
    taxPrice: money('tax_price'),
    totalPrice: money('total_price'),
    currency: text('currency').notNull().default('USD'),
    isPaid: boolean('is_paid').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** 'paypal' | 'demo' once paid. */
    paymentProvider: text('payment_provider'),
    /** The PayPal capture id (or demo reference): one capture pays one order. */
    paymentId: text('payment_id'),
    paymentResult: jsonb('payment_result').$type<StoredPaymentResult>(),
    /** The PayPal order created for this order, if any. */
    paypalOrderId: text('paypal_order_id'),
    isDelivered: boolean('is_delivered').notNull().default(false),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** An unpaid order releases its stock at this time. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Set once, when the reserved stock went back to the products (expiry or deletion). */
    stockReleasedAt: timestamp('stock_released_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The short order number (#1001...), from the column's identity sequence (0070). */
    number: integer('number').notNull().generatedByDefaultAsIdentity({ startWith: 1001 }),
    /** Succeeded refunds so far (never more than total_price: a CHECK in 0070). */
    refundedAmount: money('refunded_amount').default(0),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /**
     * An order that took money and was deleted once refunded in full or cancelled: hidden from every
     * list and read, its row kept with its payment and refunds for the books.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The discount code used (0100; null: none) and what it took off the order. */
    discountCode: text('discount_code'),
    discountPrice: money('discount_price').default(0),
  },
  (t) => [
    index('orders_user_id_idx').on(t.userId, t.createdAt),
    index('orders_created_at_idx').on(t.createdAt),
    index('orders_paid_created_idx').on(t.isPaid, t.createdAt.desc(), t.id.desc()),
    index('orders_unpaid_expiry_idx').on(t.expiresAt).where(sql`NOT is_paid AND stock_released_at IS NULL`),
    uniqueIndex('orders_payment_id_key').on(t.paymentId),
    uniqueIndex('orders_number_key').on(t.number),
    index('orders_discounted_paid_idx').on(t.paidAt).where(sql`is_paid AND discount_price > 0`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: id().primaryKey(),
    orderId: id('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    /** No foreign key: the order keeps its lines when a product is deleted. */
    productId: id('product_id').notNull(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    image: text('image').notNull(),
    price: money('price'),
    quantity: integer('quantity').notNull(),
    position: integer('position').notNull().default(0),
    /** The variant sold (null: a product without variants). */
    variantId: id('variant_id'),
    variantName: text('variant_name'),
    /** Units refunded so far (never more than quantity: a CHECK in 0070). */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
  },
  (t) => [index('order_items_order_id_idx').on(t.orderId, t.position), index('order_items_product_id_idx').on(t.productId)],
);

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** One line of a refund, as stored (amount: unit price x quantity). */
export interface StoredRefundLine {
  orderItemId: string;
  name: string;
  quantity: number;
  amount: number;
  restock: boolean;
}

/**
 * Refunds (0070). A PayPal refund is written `pending` before PayPal is asked (PayPal-Request-Id
 * `refund-<id>`), then `succeeded` (counted in orders.refunded_amount, restocked) or `failed` (nothing
 * changed) by the one conditional update that settles it. At most one pending refund per order.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: id().primaryKey(),
    orderId: id('order_id').notNull().references(() => orders.id),
    amount: money('amount'),
    extraAmount: money('extra_amount').default(0),
    lines: jsonb('lines').$type<StoredRefundLine[]>().notNull().default([]),
    reason: text('reason').notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    provider: text('provider').$type<'paypal' | 'demo'>().notNull(),
    providerRefundId: text('provider_refund_id'),
    providerStatus: text('provider_status'),
    failure: text('failure'),
    isCancellation: boolean('is_cancellation').notNull().default(false),
    createdBy: id('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('order_refunds_order_id_idx').on(t.orderId, t.createdAt),
    uniqueIndex('order_refunds_one_pending_key').on(t.orderId).where(sql`status = 'pending'`),
    uniqueIndex('order_refunds_provider_refund_id_key').on(t.providerRefundId),
    check('order_refunds_amount_positive', sql`${t.amount} > 0`),
    check('order_refunds_status_check', sql`${t.status} IN ('pending', 'succeeded', 'failed')`),
  ],
);

/** The order's timeline (0070): one row per event, written in the transaction of the change. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: id().primaryKey(),
    orderId: id('order_id').notNull().references(() => orders.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    authorId: id('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** One-time events (placed, paid, forwarded, shipped...) carry a key unique per order. */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_events_order_id_idx').on(t.orderId, t.createdAt, t.id),
    uniqueIndex('order_events_dedupe_key').on(t.orderId, t.dedupeKey),
  ],
);
