import { SHIPPING_DAYS } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { shopRateFor } from './shipping-price.ts';
import { getShippingSettings, type ShippingSettingsRecord } from './shipping-settings.ts';

/** What shipping to one country costs and takes, as the assistant quotes it (from the shipping settings). */
export interface ShippingRule {
  /** ISO 3166 two-letter code of the destination. */
  countryCode: string;
  /** Whether the shop ships there at all. */
  ships: boolean;
  /** The shop's rate to that country in USD per order (0: free). */
  price: number;
  /** Orders whose items reach this ship free (null: never). */
  freeOver: number | null;
  dispatchDays: string;
  deliveryDays: string;
  /** Items that ship separately: their days, and whether their freight is added at checkout. */
  separateDeliveryDays: string;
  separateFreightCharged: boolean;
  settings: ShippingSettingsRecord;
}

/**
 * The shipping rule for a destination: the one place that answers "what does shipping to X cost,
 * how long does it take, do you ship there", read from the shipping settings checkout charges from.
 */
export async function shippingRuleFor(db: Executor, countryCode: string): Promise<ShippingRule> {
  const settings = await getShippingSettings(db);
  const code = countryCode.toUpperCase();
  return {
    countryCode: code, ships: true, price: shopRateFor(settings, code), freeOver: settings.freeOver,
    dispatchDays: SHIPPING_DAYS.dispatch, deliveryDays: SHIPPING_DAYS.delivery,
    separateDeliveryDays: SHIPPING_DAYS.standard, separateFreightCharged: settings.supplierFreight === 'charge', settings,
  };
}
