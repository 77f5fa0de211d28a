import type { Address } from '@shop/contracts';
import type { addresses } from '../../db/schema.ts';

export function presentAddress(row: typeof addresses.$inferSelect): Address {
  return {
    _id: row.id,
    fullName: row.fullName,
    address: row.address,
    city: row.city,
    postalCode: row.postalCode,
    country: row.country,
    isDefault: row.isDefault,
  };
}
