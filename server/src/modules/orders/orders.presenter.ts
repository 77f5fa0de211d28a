import { SHIPPED_STATUS_LABEL, toShopperShipment, type Order, type OrderStatus, type Refund } from '@shop/contracts';
import type { orderItems, orderRefunds, orders } from '../../db/schema.ts';
import { toCents } from '../../lib/money.ts';
import { presentShipment, type ShipmentRow } from '../supplier/shipment.presenter.ts';
import { presentOrderEvents, type Audience, type OrderEventRow } from './order-events.ts';

export type OrderRow = typeof orders.$inferSelect;
/** `fromSupplier`: the line sold a supplier product (read by the loaders; unknown when left out). */
export type OrderItemRow = typeof orderItems.$inferSelect & { fromSupplier?: boolean };
export type RefundRow = typeof orderRefunds.$inferSelect;

export interface OrderWithLines {
  order: OrderRow;
  userName: string | null;
  /** The customer's e-mail, when the loader read it (one order: the confirmation mail). */
  userEmail?: string | null;
  items: OrderItemRow[];
  /** Whether it holds supplier products (the one-order loader reads it). */
  hasSupplierLines?: boolean;
  /** What the supplier reports about the order (supplier orders, once asked). */
  shipment?: ShipmentRow | null;
  /** The one-order read: its refunds (succeeded and pending) and its timeline. */
  refunds?: RefundRow[];
  events?: OrderEventRow[];
}



/** Unpaid and past its expiry (whether or not the sweep has released the stock yet); a cancelled order is cancelled, not expired. */
export function isOrderExpired(order: OrderRow, now = new Date()): boolean {
  if (order.isPaid || order.cancelledAt) return false;
  return order.stockReleasedAt !== null || (order.expiresAt !== null && order.expiresAt <= now);
}

/** Where the order stands, money first (see ORDER_STATUSES; the same rule as statusCondition in SQL). */
export function orderStatus(order: OrderRow, now = new Date()): OrderStatus {
  if (order.cancelledAt) return 'cancelled';
  if (order.isPaid && toCents(order.refundedAmount) > 0) {
    return toCents(order.refundedAmount) >= toCents(order.totalPrice) ? 'refunded' : 'partially_refunded';
  }
  if (order.isDelivered) return 'delivered';
  if (order.isPaid) return 'paid';
  return isOrderExpired(order, now) ? 'expired' : 'unpaid';
}

/** A refund as the API shows it (pending ones to administrators only: see presentOrder). */
export function presentRefund(r: RefundRow): Refund {
  return {
    _id: r.id,
    amount: r.amount,
    extraAmount: r.extraAmount,
    lines: r.lines.map((l) => ({ orderItemId: l.orderItemId, name: l.name, quantity: l.quantity, amount: l.amount, restock: l.restock })),
    reason: r.reason,
    createdAt: (r.settledAt ?? r.createdAt).toISOString(),
    provider: r.provider,
    status: r.status === 'succeeded' ? 'succeeded' : 'pending',
    providerStatus: r.providerStatus,
    isCancellation: r.isCancellation,
  };
}

/**
 * The API shape of an order. `audience` decides what of the one-order extras is shown: customers get
 * the customer-facing events and the succeeded refunds; administrators every event and pending refunds.
 */
export function presentOrder(found: OrderWithLines, now = new Date(), audience: Audience = 'customer'): Order {
  const { order, userName, items, hasSupplierLines, shipment: shipmentRow } = found;
  const r = order.paymentResult;
  // Customers read the parcel in the shop's words (Processing, Shipped, Delivered; no supplier names).
  const raw = shipmentRow ? presentShipment(shipmentRow) : null;
  const shipment = raw && audience === 'customer' ? toShopperShipment(raw) : raw;
  const refunds = found.refunds?.filter((x) => x.status === 'succeeded' || (audience === 'admin' && x.status === 'pending'));
  return {
    _id: order.id,
    number: order.number,
    orderItems: items.map((i) => ({
      _id: i.id, name: i.name, slug: i.slug, image: i.image, price: i.price, quantity: i.quantity, product: i.productId,
      variantId: i.variantId?.trim() ?? null, variantName: i.variantName,
      // Supplier lines (sold as a variant) travel in the supplier's parcel; an own product's variants do not.
      tracking: shipment && i.variantId && i.fromSupplier !== false ? shipment : null,
      refundedQuantity: i.refundedQuantity,
      shipped: order.isDelivered || Boolean(i.variantId && i.fromSupplier !== false && shipment?.trackingNumber),
    })),
    shippingAddress: {
      fullName: order.shippingAddress.fullName,
      address: order.shippingAddress.address,
      city: order.shippingAddress.city,
      postalCode: order.shippingAddress.postalCode,
      country: order.shippingAddress.country,
    },
    paymentMethod: order.paymentMethod,
    itemsPrice: order.itemsPrice,
    shippingPrice: order.shippingPrice,
    taxPrice: order.taxPrice,
    discountCode: order.discountCode ?? null,
    discountPrice: order.discountPrice ?? 0,
    totalPrice: order.totalPrice,
    currency: 'USD',
    isPaid: order.isPaid,
    paidAt: order.paidAt?.toISOString() ?? null,
    paymentResult: r
      ? { provider: r.provider, id: r.id, status: r.status, emailAddress: r.emailAddress, updateTime: r.updateTime }
      : null,
    isDelivered: order.isDelivered,
    deliveredAt: order.deliveredAt?.toISOString() ?? null,
    createdAt: order.createdAt.toISOString(),
    user: order.userId && userName !== null ? { _id: order.userId, name: userName } : null,
    expiresAt: order.isPaid ? null : (order.expiresAt?.toISOString() ?? null),
    isExpired: isOrderExpired(order, now),
    ...(hasSupplierLines === undefined ? {} : { hasSupplierLines }),
    shipment,
    shippingStatus: shipment?.trackingNumber ? SHIPPED_STATUS_LABEL : null,
    status: orderStatus(order, now),
    refundedAmount: order.refundedAmount,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    cancelReason: order.cancelReason,
    ...(refunds ? { refunds: refunds.map(presentRefund) } : {}),
    ...(found.events ? { events: presentOrderEvents(found.events, audience) } : {}),
  };
}
