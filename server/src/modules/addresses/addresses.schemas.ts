import { addressBodySchema, addressSchema, errorResponseSchema, messageResponseSchema } from '@shop/contracts';
import { z } from 'zod';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const idParams = z.object({ id: z.string() });

export const listAddressesSchema = { tags: ['addresses'], response: { 200: z.array(addressSchema), ...errors } };
export const createAddressSchema = { tags: ['addresses'], body: addressBodySchema, response: { 201: addressSchema, ...errors } };
export const updateAddressSchema = {
  tags: ['addresses'], params: idParams, body: addressBodySchema, response: { 200: addressSchema, ...errors },
};
export const deleteAddressSchema = { tags: ['addresses'], params: idParams, response: { 200: messageResponseSchema, ...errors } };
export const setDefaultAddressSchema = { tags: ['addresses'], params: idParams, response: { 200: z.array(addressSchema), ...errors } };
