import { trackingUrlFor, type Shipment } from '@shop/contracts';
import type { supplierShipments } from '../../db/schema.ts';

export type ShipmentRow = typeof supplierShipments.$inferSelect;

/** What the supplier reports about a forwarded order, as the API shows it. */
export function presentShipment(s: ShipmentRow): Shipment {
  return {
    status: s.status, trackingNumber: s.trackingNumber, carrier: s.carrier, shippedAt: s.shippedAt?.toISOString() ?? null,
    deliveredAt: s.deliveredAt?.toISOString() ?? null, checkedAt: s.checkedAt.toISOString(),
    trackingUrl: s.trackingNumber ? trackingUrlFor(s.trackingNumber) : null,
  };
}
