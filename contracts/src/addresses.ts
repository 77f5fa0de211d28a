import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * Address book (signed-in user; another user's address answers 404 'Address not found'):
 *   GET    /api/addresses                    -> Address[]  (default first, then oldest first)
 *   POST   /api/addresses        AddressBody -> 201 Address (the first address becomes the default)
 *   PUT    /api/addresses/:id    AddressBody -> Address
 *   DELETE /api/addresses/:id                -> { message: 'Address deleted successfully' } (the default passes to another address)
 *   PUT    /api/addresses/:id/default        -> Address[]  (the whole book: two rows changed)
 * A duplicate (address, city, postal code, country; trimmed, case-insensitive; the edited address
 * excluded) answers 400 'This address already exists in your address book'.
 */
export const addressSchema = z.object({
  _id: idSchema,
  fullName: z.string(),
  address: z.string(),
  city: z.string(),
  postalCode: z.string(),
  country: z.string(),
  isDefault: z.boolean(),
});
export type Address = z.infer<typeof addressSchema>;

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** The shipping fields shared by the address book and an order's shippingAddress. */
export const shippingAddressBodySchema = z.object({
  fullName: required('Full name', 100),
  address: required('Address', 200),
  city: required('City', 100),
  postalCode: required('Postal code', 20),
  country: required('Country', 100),
});
export type ShippingAddressBody = z.infer<typeof shippingAddressBodySchema>;

export const addressBodySchema = shippingAddressBodySchema.extend({ isDefault: z.boolean().optional() });
export type AddressBody = z.infer<typeof addressBodySchema>;
