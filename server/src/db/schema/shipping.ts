import { sql } from 'drizzle-orm';
import { check, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One country's own rate: an ISO 3166 two-letter code and the price per order in USD. */
export interface ShippingCountryRateRow { country: string; rate: number }

/**
 * The shop's shipping settings (one row, id 'default'; none saved: the specification's shipping 0).
 * Checkout, the Shipping page, the FAQ and the assistant all read this row (issue 34 point 3).
 */
export const shippingSettings = pgTable(
  'shipping_settings',
  {
    id: text('id').primaryKey().default('default'),
    flatRate: numeric('flat_rate', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    freeOver: numeric('free_over', { precision: 12, scale: 2, mode: 'number' }),
    countryRates: jsonb('country_rates').$type<ShippingCountryRateRow[]>().notNull().default([]),
    supplierFreight: text('supplier_freight').notNull().default('included'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('shipping_settings_single', sql`${t.id} = 'default'`),
    check('shipping_settings_flat_rate_nonneg', sql`${t.flatRate} >= 0`),
    check('shipping_settings_free_over_nonneg', sql`${t.freeOver} >= 0`),
    check('shipping_settings_supplier_freight', sql`${t.supplierFreight} IN ('charge', 'included')`),
  ],
);
