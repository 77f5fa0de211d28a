import { STANDARD_SHIPPING_LABEL } from '@shop/contracts';
import { toCents } from '../../lib/money.ts';
import { resolveCountry } from '../supplier/country-codes.ts';
import type { ShippingSettingsRecord } from './shipping-settings.ts';

/** The shop's own rate to a destination as typed on an address ("Canada", "CA"): its country rate, else the flat rate. */
export function shopRateFor(settings: ShippingSettingsRecord, country: string): number {
  const code = resolveCountry(country)?.code;
  return settings.countryRates.find((r) => r.country === code)?.rate ?? settings.flatRate;
}

/** What an order's shipping is made of, before its items' sum is known (place-order works that out in SQL). */
export interface ShippingTerms {
  /** The shipping price unless the order reaches freeOver. */
  price: number;
  /** Items of at least this ship free (null: never). */
  freeOver: number | null;
  /** STANDARD_SHIPPING_LABEL when the price holds the freight of separately shipped items. */
  label: string | null;
}

/**
 * The one shipping rule (issue 34 point 3). An order pays the shop's rate (its country's, else the
 * flat rate) once; when the owner chose to charge the freight of separately shipped items, an order
 * holding such items pays that freight instead of the shop's rate for them (the shop's rate still
 * applies when it also holds the shop's own products). Orders whose items reach freeOver ship free.
 */
export function shippingTerms(
  settings: ShippingSettingsRecord,
  cart: { country: string; hasOwnLines: boolean; hasSupplierLines: boolean; freight: number | null },
): ShippingTerms {
  const charging = settings.supplierFreight === 'charge' && cart.hasSupplierLines && cart.freight !== null;
  const shopPart = cart.hasOwnLines || !charging ? toCents(shopRateFor(settings, cart.country)) : 0;
  const freightPart = charging ? toCents(cart.freight!) : 0;
  return { price: (shopPart + freightPart) / 100, freeOver: settings.freeOver, label: charging ? STANDARD_SHIPPING_LABEL : null };
}

/** The shipping an order of `itemsPrice` pays under these terms. */
export const shippingPriceOf = (terms: ShippingTerms, itemsPrice: number): number =>
  terms.freeOver !== null && toCents(itemsPrice) >= toCents(terms.freeOver) ? 0 : terms.price;
