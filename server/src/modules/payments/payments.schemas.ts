import {
  errorResponseSchema, orderActionResponseSchema, payOrderBodySchema, paymentConfigSchema, paypalCreateResponseSchema,
} from '@shop/contracts';
import { z } from 'zod';

const errors = {
  400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 502: errorResponseSchema,
};
const idParams = z.object({ id: z.string() });

export const paymentConfigRouteSchema = { tags: ['payments'], response: { 200: paymentConfigSchema } };
export const createPayPalOrderSchema = {
  tags: ['payments'], params: idParams, response: { 200: paypalCreateResponseSchema, ...errors },
};
export const payOrderSchema = {
  tags: ['payments'],
  description: 'PayPal: { paypalOrderId } (captured and verified by the server). Demo: { demo: true } (no money is taken).',
  params: idParams,
  body: payOrderBodySchema,
  response: { 200: orderActionResponseSchema, ...errors },
};
