import { FREIGHT_UNAVAILABLE_MESSAGE } from '@shop/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cartItems, products, productVariants } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { resolveCountry } from './country-codes.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';

/** CJ's freight answers are kept this long per destination and variant set. */
export const FREIGHT_CACHE_MS = 30 * 60_000;
/** A 'shop' FreightQuote's own price: no freight (the shipping settings' rate applies to those lines: shipping/shipping-price.ts). */
export const SHOP_SHIPPING_PRICE = 0;

export type FreightLine = { vid: string; quantity: number };

/**
 * CJ's freight for a set of supplier lines (source 'supplier'), or the shop's rule when there are none
 * or CJ could not answer (source 'shop', with a message then). Internal: shoppers see the order's
 * shipping (shipping/quote-cart-shipping.ts), never the carrier's name.
 */
export interface FreightQuote {
  shippingPrice: number;
  source: 'supplier' | 'shop';
  carrier: string | null;
  days: string | null;
  message: string | null;
}

export interface FreightQuoter {
  /** The quote for the user's cart (POST orders/shipping-quote). */
  quote(db: Executor, userId: string, country: string): Promise<FreightQuote>;
  /** The quote for these supplier lines (none: the shop's rule); asks CJ on a cache miss. */
  quoteLines(country: string, lines: FreightLine[]): Promise<FreightQuote>;
  /**
   * Without any I/O: the shop's rule when there are no supplier lines, else CJ's cached quote for
   * this destination and variant set, or undefined when none is cached. Unknown country: 400.
   */
  cached(country: string, lines: FreightLine[]): FreightQuote | undefined;
}

/** The cache key of a destination and variant set (quantities summed per vid). */
export function freightKey(countryCode: string, lines: FreightLine[]): { key: string; products: FreightLine[] } {
  const wanted = new Map<string, number>();
  for (const l of lines) wanted.set(l.vid, (wanted.get(l.vid) ?? 0) + l.quantity);
  const products = [...wanted].map(([vid, quantity]) => ({ vid, quantity })).sort((a, b) => (a.vid < b.vid ? -1 : 1));
  return { key: `${countryCode}|${products.map((p) => `${p.vid}:${p.quantity}`).join(',')}`, products };
}

const countryCode = (country: string): string => {
  const to = resolveCountry(country);
  if (!to) throw badRequest(`'${country}' is not a country we recognise: use its name or its two-letter code`, { country: 'Unknown country' });
  return to.code;
};

/**
 * Shipping for the signed-in user's cart (POST orders/shipping-quote, and what place-order charges):
 * with supplier lines, CJ's logistic/freightCalculate from our warehouse country to the destination,
 * for each line's vid and quantity (the configured carrier's price, else the cheapest); cached per
 * destination and variant set for 30 minutes. When CJ cannot answer: the shop's own rule, with a
 * message saying so.
 */
export function createFreightQuoter(catalogue: SupplierCatalogue, opts: { fromCountryCode: string; logisticName: string; now?: () => number }): FreightQuoter {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { expires: number; value: FreightQuote }>();
  const shopRule = (message: string | null): FreightQuote => ({ shippingPrice: SHOP_SHIPPING_PRICE, source: 'shop', carrier: null, days: null, message });
  const quoter: FreightQuoter = {
    async quote(db, userId, country) {
      const lines = await db.select({ vid: productVariants.vid, quantity: cartItems.quantity })
        .from(cartItems)
        .innerJoin(products, eq(products.id, cartItems.productId))
        .innerJoin(productVariants, and(eq(productVariants.productId, cartItems.productId), eq(productVariants.id, cartItems.variantId)))
        .where(and(eq(cartItems.userId, userId), isNotNull(products.cjData)));
      return quoter.quoteLines(country, lines);
    },
    cached(country, lines) {
      if (!lines.length) return shopRule(null);
      const hit = cache.get(freightKey(countryCode(country), lines).key);
      return hit && hit.expires > now() ? hit.value : undefined;
    },
    async quoteLines(country, lines) {
      if (!lines.length) return shopRule(null);
      const { key, products: productsWanted } = freightKey(countryCode(country), lines);
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return hit.value;
      let options;
      try {
        options = await catalogue.freightCalculate({ startCountryCode: opts.fromCountryCode, endCountryCode: key.slice(0, key.indexOf('|')), products: productsWanted });
      } catch {
        return shopRule(FREIGHT_UNAVAILABLE_MESSAGE);
      }
      const usable = options.filter((o) => Number.isFinite(o.logisticPrice) && o.logisticPrice >= 0);
      if (!usable.length) return shopRule(FREIGHT_UNAVAILABLE_MESSAGE);
      const pick = usable.find((o) => o.logisticName === opts.logisticName) ?? usable.reduce((a, b) => (b.logisticPrice < a.logisticPrice ? b : a));
      const value: FreightQuote = {
        shippingPrice: Math.round(pick.logisticPrice * 100) / 100, source: 'supplier', carrier: pick.logisticName || null,
        days: pick.logisticAging || null, message: null,
      };
      cache.set(key, { expires: now() + FREIGHT_CACHE_MS, value });
      if (cache.size > 1000) cache.delete(cache.keys().next().value!);
      return value;
    },
  };
  return quoter;
}
