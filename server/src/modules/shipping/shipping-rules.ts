import type { Executor } from '../../db/client.ts';

/** What shipping to one country costs and takes, as the assistant (and later the checkout) quotes it. */
export interface ShippingRule {
  /** ISO 3166 two-letter code of the destination. */
  countryCode: string;
  /** Whether the shop ships there at all. */
  ships: boolean;
  /** The shop's own products: price in USD per order (0: free), and business days. */
  price: number;
  dispatchDays: string;
  deliveryDays: string;
  /** Products from the supplier catalogue ship from the supplier: their days; the price is the supplier's freight quote at checkout. */
  supplierDeliveryDays: string;
}

/**
 * The shop's shipping rules today (SPEC: shipping price 0; the Shipping page: dispatched within
 * 1–2 business days, delivered within 3–7, supplier products 7–15): the same everywhere.
 */
const STANDARD = { ships: true, price: 0, dispatchDays: '1–2', deliveryDays: '3–7', supplierDeliveryDays: '7–15' } as const;

/**
 * The shipping rule for a destination: the one place that answers "what does shipping to X cost,
 * how long does it take, do you ship there". Today every country gets the shop's standard rule
 * (free); when shipping settings exist in the back office (per-country rates), this function reads
 * them — its callers (the chat assistant) keep calling it unchanged. Async and given the database
 * for that reason.
 */
export async function shippingRuleFor(db: Executor, countryCode: string): Promise<ShippingRule> {
  void db;
  return { countryCode: countryCode.toUpperCase(), ...STANDARD };
}
