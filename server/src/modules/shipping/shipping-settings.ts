import type { ShippingSettings, ShippingSettingsBody, SupplierFreightMode, shippingSettingsBodySchema } from '@shop/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { shippingSettings } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { resolveCountry } from '../supplier/country-codes.ts';

/** The settings as the server computes with them (countries by two-letter code). */
export interface ShippingSettingsRecord {
  flatRate: number;
  freeOver: number | null;
  countryRates: Array<{ country: string; rate: number }>;
  supplierFreight: SupplierFreightMode;
  updatedAt: Date | null;
}

/** The specification's shipping (price 0) until the owner saves settings; separately shipped items cost nothing extra. */
export const DEFAULT_SHIPPING_SETTINGS: ShippingSettingsRecord = { flatRate: 0, freeOver: null, countryRates: [], supplierFreight: 'included', updatedAt: null };

type SettingsRow = { flatRate: number | string; freeOver: number | string | null; countryRates: Array<{ country: string; rate: number | string }>; supplierFreight: string; updatedAt: Date | string };

/** The settings from their row (null: none saved, the default). */
export function readShippingSettings(row: SettingsRow | null | undefined): ShippingSettingsRecord {
  if (!row) return { ...DEFAULT_SHIPPING_SETTINGS, countryRates: [] };
  return {
    flatRate: Number(row.flatRate), freeOver: row.freeOver === null ? null : Number(row.freeOver),
    countryRates: row.countryRates.map((r) => ({ country: r.country, rate: Number(r.rate) })),
    supplierFreight: row.supplierFreight === 'charge' ? 'charge' : 'included', updatedAt: new Date(row.updatedAt),
  };
}

/**
 * The settings' row as one JSON value, for a statement that reads them beside other rows
 * (place-order reads them in its customer-lock statement); readShippingSettings turns it back.
 */
export const shippingSettingsJson = sql`(select json_build_object('flatRate', s.flat_rate, 'freeOver', s.free_over, 'countryRates', s.country_rates,
  'supplierFreight', s.supplier_freight, 'updatedAt', s.updated_at) from ${shippingSettings} s limit 1)`;

/** The shop's shipping settings (the default until saved). */
export async function getShippingSettings(db: Executor): Promise<ShippingSettingsRecord> {
  const [row] = await db.select().from(shippingSettings).limit(1);
  return readShippingSettings(row);
}

/** The country's English name ("Canada"); the code itself when the runtime does not know it. */
export const countryNameOf = (code: string): string => resolveCountry(code)?.name ?? code;

/** The settings as the API shows them (each country rate with its name). */
export function presentShippingSettings(s: ShippingSettingsRecord): ShippingSettings {
  return {
    flatRate: s.flatRate, freeOver: s.freeOver, supplierFreight: s.supplierFreight,
    countryRates: s.countryRates.map((r) => ({ country: r.country, name: countryNameOf(r.country), rate: r.rate })),
    updatedAt: s.updatedAt?.toISOString() ?? null,
  };
}

/**
 * Saves the shipping settings (PUT shipping/settings). Every country must be one the shop knows and
 * appear once; the rates are sorted by country name so the Shipping page lists them in that order.
 */
export async function saveShippingSettings(db: Executor, input: ReturnType<typeof shippingSettingsBodySchema.parse>): Promise<ShippingSettingsRecord> {
  const seen = new Set<string>();
  const countryRates = input.countryRates.map((r, i) => {
    const known = resolveCountry(r.country);
    if (!known || known.code !== r.country) throw badRequest(`'${r.country}' is not a country code we recognise`, { [`countryRates.${i}.country`]: 'Unknown country' });
    if (seen.has(known.code)) throw badRequest(`${known.name} has more than one rate`, { [`countryRates.${i}.country`]: 'Listed twice' });
    seen.add(known.code);
    return { country: known.code, rate: r.rate, name: known.name };
  }).sort((a, b) => a.name.localeCompare(b.name, 'en')).map(({ country, rate }) => ({ country, rate }));
  const values = { id: 'default', flatRate: input.flatRate, freeOver: input.freeOver, countryRates, supplierFreight: input.supplierFreight, updatedAt: new Date() };
  await db.insert(shippingSettings).values(values).onConflictDoUpdate({
    target: shippingSettings.id,
    set: {
      flatRate: sql`excluded.flat_rate`, freeOver: sql`excluded.free_over`, countryRates: sql`excluded.country_rates`,
      supplierFreight: sql`excluded.supplier_freight`, updatedAt: sql`excluded.updated_at`,
    },
  });
  return getShippingSettings(db);
}

export type { ShippingSettingsBody };
