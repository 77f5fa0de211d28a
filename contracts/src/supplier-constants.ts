/**
 * Supplier (CJ Dropshipping) catalogue: limits and the spec's texts. No zod here, so storefront
 * chunks import them from '@shop/contracts/supplier-constants' without pulling in the schemas.
 */

/** Admin supplier list page size; supplier paging starts at page 1 (SPEC section 9). */
export const CJ_PAGE_SIZE = 10;
/** CJ's own page size limit (product/list pageSize <= 200). */
export const CJ_MAX_PAGE_SIZE = 200;
/** Imported supplier items default to this stock (SPEC section 9). */
export const CJ_DEFAULT_STOCK = 100;

/**
 * The brand an import starts with: the supplier's product data as the shop reads it carries no
 * brand, and the supplier's name is not the product's brand (issue 23), so an import is
 * 'Unbranded' until the administrator types one (never 'Brand is required' on a first save).
 */
export const SUPPLIER_DEFAULT_BRAND = 'Unbranded';

/** After a successful save the edit form goes back to the list after 2 s (SPEC section 9). */
export const CJ_SAVE_REDIRECT_MS = 2000;
/** A 24-character identifier marks an already-saved product (SPEC sections 4 and 9). */
export const SAVED_PRODUCT_ID_PATTERN = /^[0-9a-f]{24}$/;

export const SUPPLIER_SOURCES = ['cj', 'offline'] as const;
export type SupplierSource = (typeof SUPPLIER_SOURCES)[number];

export const SUPPLIER_SOURCE_NOTICES: Record<SupplierSource, string> = {
  cj: 'Connected to CJ Dropshipping: the catalogue, stock and costs come from your CJ account.',
  offline:
    'Offline supplier catalogue: no CJ account is connected (CJ_API_KEY is not set). Products and images are bundled demo data; paid supplier orders wait here as pending.',
};

export const CJ_MESSAGES = {
  saved: 'Product saved successfully!',
  pidMissing: 'Product ID is missing',
  vidMissing: 'Product variant ID is missing',
  vidUnknown: 'This variant does not belong to the supplier product',
  notFound: 'Supplier product not found',
  variantNotFound: 'Supplier product variant not found',
  savedNotFound: 'Product not found',
  deleted: 'Product deleted successfully',
  deleteTitle: 'Delete Product',
  deleteConfirm: 'Are you sure you want to delete this product? This action cannot be undone.',
  noProducts: 'No products found',
  refreshed: 'Product refreshed from supplier',
  discontinued: 'The supplier no longer sells this product',
  rateLimited: 'CJ is limiting requests right now (too many calls). Please try again in a minute.',
  quotaUsedUp: "CJ's daily request quota is used up. Please try again tomorrow.",
  unavailable: 'CJ Dropshipping cannot be reached right now. Please try again later.',
  authFailed: 'CJ refused the API key or access token. Check CJ_API_KEY.',
  orderRetried: 'Supplier order queued to be sent again',
  orderNotFailed: 'Only a failed supplier order can be retried',
  orderNotFound: 'This order has no supplier order',
} as const;

/** Adding to cart or ordering a product the supplier stopped selling. */
export const supplierNotSoldMessage = (name: string) => `'${name}' is no longer available and cannot be bought`;

/** What the admin sees of an order forwarded to the supplier. */
export const SUPPLIER_ORDER_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type SupplierOrderStatus = (typeof SUPPLIER_ORDER_STATUSES)[number];

/** What shoppers read about a parcel (issue 34 point 4): never the supplier's raw states. */
export const SHOPPER_SHIPMENT_STATUSES = ['Processing', 'Shipped', 'Delivered'] as const;
export type ShopperShipmentStatus = (typeof SHOPPER_SHIPMENT_STATUSES)[number];

/** The shopper's word for a supplier order state: DELIVERED → Delivered; a tracking number → Shipped; else Processing. */
export function shopperShipmentStatus(s: { status: string; trackingNumber: string | null; deliveredAt?: string | Date | null }): ShopperShipmentStatus {
  if (s.deliveredAt || /^delivered$/i.test(s.status)) return 'Delivered';
  return s.trackingNumber ? 'Shipped' : 'Processing';
}

/**
 * The carrier as shoppers read it: the supplier's own services (CJPacket…) are "Standard shipping";
 * a real carrier (YunExpress, USPS) keeps its name; none: null.
 */
export function shopperCarrier(carrier: string | null): string | null {
  if (!carrier?.trim()) return null;
  return /\bcj|cjpacket|supplier/i.test(carrier) ? 'Standard shipping' : carrier.trim();
}

/** A public tracking page for a tracking number (17TRACK follows most carriers). */
export const trackingUrlFor = (trackingNumber: string): string => `https://t.17track.net/en#nums=${encodeURIComponent(trackingNumber)}`;

/** The parcel as shoppers see it: the shop's words for its state and carrier, and a tracking link. */
export function toShopperShipment<T extends { status: string; trackingNumber: string | null; carrier: string | null; deliveredAt?: string | Date | null }>(s: T): T & { trackingUrl: string | null } {
  return {
    ...s,
    status: shopperShipmentStatus(s),
    carrier: shopperCarrier(s.carrier),
    trackingUrl: s.trackingNumber ? trackingUrlFor(s.trackingNumber) : null,
  };
}
