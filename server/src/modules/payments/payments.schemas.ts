import {
  cancelOrderBodySchema, createRefundBodySchema, errorResponseSchema, orderActionResponseSchema, orderResponseSchema, payOrderBodySchema, paymentConfigSchema,
  paypalCreateResponseSchema, refundResponseSchema,
} from '@shop/contracts';
import { z } from 'zod';

const errors = {
  400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 502: errorResponseSchema,
};
/** 409: a conflict with the order's state, or the Idempotency-Key still in use; 422: the key used for another request. */
const moneyErrors = { ...errors, 409: errorResponseSchema, 422: errorResponseSchema, 503: errorResponseSchema };
const idParams = z.object({ id: z.string() });

export const paymentConfigRouteSchema = { tags: ['payments'], response: { 200: paymentConfigSchema } };
export const createPayPalOrderSchema = {
  tags: ['payments'], params: idParams, response: { 200: paypalCreateResponseSchema, ...errors },
};
export const payOrderSchema = {
  tags: ['payments'],
  description: 'PayPal: { paypalOrderId } (captured and verified by the server). Demo: { demo: true } (no money is taken). Honours an Idempotency-Key header.',
  params: idParams,
  body: payOrderBodySchema,
  response: { 200: orderActionResponseSchema, ...moneyErrors },
};
export const refundOrderSchema = {
  tags: ['payments'],
  summary: 'Refund an order, in full or in part (admin)',
  description: 'Lines (orderItemId, quantity, restock: default yes for lines not shipped) plus an optional amount (shipping, goodwill), with a reason. '
    + 'Never more than paid minus earlier refunds. PayPal payments are refunded at PayPal (POST /v2/payments/captures/{capture_id}/refund with PayPal-Request-Id); '
    + 'demo payments as demo. 400 REFUND_REFUSED: PayPal refused (nothing changed). 502: PayPal did not answer (the refund stays pending and is asked again). '
    + 'Honours an Idempotency-Key header.',
  params: idParams,
  body: createRefundBodySchema,
  response: { 201: refundResponseSchema, ...moneyErrors },
};
export const cancelOrderSchema = {
  tags: ['payments'],
  summary: 'Cancel an order (admin: any order not delivered; the owner: their own unpaid order)',
  description: 'Unpaid: stock released. Paid: the supplier order is withdrawn (409 SUPPLIER_SHIPPED once CJ has shipped it) and everything still paid is refunded. '
    + 'Cancelling a cancelled order answers it unchanged. Honours an Idempotency-Key header.',
  params: idParams,
  body: cancelOrderBodySchema.optional(),
  response: { 200: orderResponseSchema, ...moneyErrors },
};
