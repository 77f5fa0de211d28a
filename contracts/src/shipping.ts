import { z } from 'zod';
import { moneyField } from './number-fields.ts';
import { moneyMessages } from './numbers.ts';

/**
 * Shipping settings (issue 34 point 3): one record the checkout charges from and the Shipping page,
 * the FAQ and the assistant describe. The default is the specification's: shipping 0, tax 0.
 */

/**
 * How items from the dropshipping catalogue ship: 'charge' adds the partner's freight quote to the
 * order, shown to the shopper as STANDARD_SHIPPING_LABEL; 'included' charges nothing extra for them
 * (the pricing rule's markup covers the freight).
 */
export const SUPPLIER_FREIGHT_MODES = ['charge', 'included'] as const;
export type SupplierFreightMode = (typeof SUPPLIER_FREIGHT_MODES)[number];

/** What shoppers read for the separately shipped items' freight (never the partner's carrier name). */
export const STANDARD_SHIPPING_LABEL = 'Standard shipping (7–12 days)';
/** Business days: the shop's own parcels, and the items that ship separately. */
export const SHIPPING_DAYS = { dispatch: '1–2', delivery: '3–7', standard: '7–12' } as const;
export const MAX_COUNTRY_RATES = 100;
export const SHIPPING_SETTINGS_SAVED = 'Shipping settings saved';

const rate = (label: string) =>
  moneyField({ ...moneyMessages(label), required: `${label} must be a number` })
    .refine((v) => v >= 0 && v <= 10_000, `${label} must be from $0 to $10000`);

export const countryRateSchema = z.object({
  country: z.string({ error: 'Country is required' }).trim().toUpperCase()
    .regex(/^[A-Z]{2}$/, 'Country must be a two-letter code, such as CA'),
  rate: rate('Rate'),
});
export type CountryRate = z.infer<typeof countryRateSchema>;

/** PUT /api/shipping/settings (admin). */
export const shippingSettingsBodySchema = z.object({
  flatRate: rate('Flat rate'),
  /** Orders whose items come to at least this ship free (null: never). */
  freeOver: rate('Free shipping threshold').nullable().default(null),
  countryRates: z.array(countryRateSchema).max(MAX_COUNTRY_RATES, `At most ${MAX_COUNTRY_RATES} country rates`).default([]),
  supplierFreight: z.enum(SUPPLIER_FREIGHT_MODES, { error: "Separately shipped items must be 'charge' or 'included'" }),
});
export type ShippingSettingsBody = z.input<typeof shippingSettingsBodySchema>;

export const shippingSettingsSchema = z.object({
  flatRate: z.number(),
  freeOver: z.number().nullable(),
  countryRates: z.array(z.object({ country: z.string(), name: z.string(), rate: z.number() })),
  supplierFreight: z.enum(SUPPLIER_FREIGHT_MODES),
  updatedAt: z.string().nullable(),
});
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;
export const shippingSettingsResponseSchema = z.object({ settings: shippingSettingsSchema });
export type ShippingSettingsResponse = z.infer<typeof shippingSettingsResponseSchema>;
export const saveShippingSettingsResponseSchema = z.object({ message: z.string(), settings: shippingSettingsSchema });

/** GET /api/shipping/rates (public): what shoppers need, without the freight mode's wording. */
export const shippingRatesSchema = z.object({
  flatRate: z.number(),
  freeOver: z.number().nullable(),
  countryRates: z.array(z.object({ country: z.string(), name: z.string(), rate: z.number() })),
  /** The shop's promise in one sentence, as the Shipping page and the FAQ say it. */
  summary: z.string(),
});
export type ShippingRates = z.infer<typeof shippingRatesSchema>;
