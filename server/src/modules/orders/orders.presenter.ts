import { SHIPPED_STATUS_LABEL, type Order } from '@shop/contracts';
import type { orderItems, orders } from '../../db/schema.ts';
import { presentShipment, type ShipmentRow } from '../supplier/shipment.presenter.ts';

export type OrderRow = typeof orders.$inferSelect;
/** `fromSupplier`: the line sold a supplier product (read by the loaders; unknown when left out). */
export type OrderItemRow = typeof orderItems.$inferSelect & { fromSupplier?: boolean };

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
}



/** Unpaid and past its expiry (whether or not the sweep has released the stock yet). */
export function isOrderExpired(order: OrderRow, now = new Date()): boolean {
  if (order.isPaid) return false;
  return order.stockReleasedAt !== null || (order.expiresAt !== null && order.expiresAt <= now);
}

export function presentOrder({ order, userName, items, hasSupplierLines, shipment: shipmentRow }: OrderWithLines, now = new Date()): Order {
  const r = order.paymentResult;
  const shipment = shipmentRow ? presentShipment(shipmentRow) : null;
  return {
    _id: order.id,
    orderItems: items.map((i) => ({
      _id: i.id, name: i.name, slug: i.slug, image: i.image, price: i.price, quantity: i.quantity, product: i.productId,
      variantId: i.variantId?.trim() ?? null, variantName: i.variantName,
      // Supplier lines (sold as a variant) travel in the supplier's parcel; an own product's variants do not.
      tracking: shipment && i.variantId && i.fromSupplier !== false ? shipment : null,
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
  };
}
