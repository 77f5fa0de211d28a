import { SHIPPING_DAYS } from '@shop/contracts';
import { formatMoney } from '../../lib/money.ts';
import { countryNameOf, type ShippingSettingsRecord } from './shipping-settings.ts';

const perOrder = (rate: number) => (rate === 0 ? 'free' : `${formatMoney(rate)} per order`);

/**
 * The shop's shipping promise in a sentence or two, as the Shipping page, the FAQ and the assistant
 * say it: "Shipping is free on every order." / "Shipping is $4.99 per order, free on orders over
 * $50.00. Some countries have their own rate: Canada $9.99 per order."
 */
export function describeShippingCost(s: ShippingSettingsRecord): string {
  if (s.freeOver === 0 || [s.flatRate, ...s.countryRates.map((r) => r.rate)].every((r) => r === 0)) return 'Shipping is free on every order.';
  const over = s.freeOver !== null ? `free on orders over ${formatMoney(s.freeOver)}` : '';
  const list = s.countryRates.filter((r) => r.rate !== s.flatRate).map((r) => `${countryNameOf(r.country)} ${perOrder(r.rate)}`).join(', ');
  if (s.flatRate === 0) return `Shipping is free to every country except: ${list}${over ? ` (${over})` : ''}.`;
  return `Shipping is ${perOrder(s.flatRate)}${over ? `, ${over}` : ''}.${list ? ` Some countries have their own rate: ${list}.` : ''}`;
}

/** The sentence about items that ship separately (no partner's name: issue 34 point 4). */
export function describeSeparateShipping(s: ShippingSettingsRecord): string {
  const days = `${SHIPPING_DAYS.standard} business days`;
  if (s.supplierFreight === 'included') return `Some items ship separately from our partner warehouse and take ${days}, at no extra shipping cost.`;
  const free = s.freeOver !== null ? `, free on orders over ${formatMoney(s.freeOver)}` : '';
  return `Some items ship separately from our partner warehouse with Standard shipping (${days}); its cost is shown at checkout before you pay${free}.`;
}

/** The cost for one destination ("free", "$9.99 per order, free on orders over $50.00"). */
export function describeShippingTo(s: ShippingSettingsRecord, rate: number): string {
  if (rate === 0 || s.freeOver === 0) return 'free';
  return `${perOrder(rate)}${s.freeOver !== null ? `, free on orders over ${formatMoney(s.freeOver)}` : ''}`;
}

/**
 * Page and FAQ text with the shipping placeholders filled (the stored text keeps them, so an edit in
 * Admin → Pages keeps following the settings):
 * - `{{shipping.summary}}`: describeShippingCost;
 * - `{{shipping.flatRate}}`: "$4.99"; `{{shipping.freeOver}}`: "$50.00" (empty when there is none);
 * - `{{shipping.countries}}`: a Markdown list of the country rates (empty when there are none);
 * - `{{shipping.standard}}`: describeSeparateShipping;
 * - `{{shipping.days}}`: "1–2 business days to dispatch, 3–7 to arrive".
 * An unknown `{{shipping.x}}` is left as typed, so a typo shows in the page preview.
 */
export function fillShippingPlaceholders(text: string, s: ShippingSettingsRecord): string {
  if (!text.includes('{{')) return text;
  const values: Record<string, () => string> = {
    summary: () => describeShippingCost(s),
    flatRate: () => formatMoney(s.flatRate),
    freeOver: () => (s.freeOver === null ? '' : formatMoney(s.freeOver)),
    countries: () => s.countryRates.map((r) => `- ${countryNameOf(r.country)}: ${describeShippingTo(s, r.rate)}`).join('\n'),
    standard: () => describeSeparateShipping(s),
    days: () => `${SHIPPING_DAYS.dispatch} business days to dispatch, ${SHIPPING_DAYS.delivery} to arrive`,
  };
  return text.replace(/\{\{\s*shipping\.(\w+)\s*\}\}/g, (whole, key: string) => values[key]?.() ?? whole);
}
