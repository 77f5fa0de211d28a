import {
  addOrderNoteBodySchema, cartSchema, errorResponseSchema, listOrdersQuerySchema, messageResponseSchema, orderListResponseSchema, orderActionResponseSchema,
  orderNoteResponseSchema, orderSchema, placeOrderBodySchema,
} from '@shop/contracts';
import { z } from 'zod';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
/** Answers of the Idempotency-Key layer (lib/idempotency.ts) on the routes that take one. */
export const idempotencyErrors = { 409: errorResponseSchema, 422: errorResponseSchema };
const idParams = z.object({ id: z.string() });

export const placeOrderSchema = {
  tags: ['orders'],
  description: 'Builds the order from the server cart; amounts and items in the body are ignored. Honours an Idempotency-Key header.',
  body: placeOrderBodySchema,
  response: { 200: orderSchema, 201: orderSchema, ...errors, ...idempotencyErrors },
};
export const listOrdersSchema = { tags: ['orders'], response: { 200: z.array(orderSchema), ...errors } };
export const getOrderSchema = { tags: ['orders'], params: idParams, response: { 200: orderSchema, ...errors } };
export const deleteOrderSchema = {
  tags: ['orders'],
  description: 'Admin. An order that took money and is neither refunded in full nor cancelled: 409 (refund or cancel it first); once refunded or cancelled it is archived (hidden, kept for the books). Unpaid orders are deleted.',
  params: idParams,
  response: { 200: messageResponseSchema, ...errors, 409: errorResponseSchema },
};
export const addNoteSchema = {
  tags: ['orders'],
  description: 'Admin: an internal note on the order\'s timeline (customers never see it).',
  params: idParams,
  body: addOrderNoteBodySchema,
  response: { 201: orderNoteResponseSchema, ...errors },
};
export const orderActionSchema = { tags: ['orders'], params: idParams, response: { 200: orderActionResponseSchema, ...errors } };
export const listAdminOrdersSchema = {
  tags: ['orders'],
  description: 'Admin: one page of orders, newest first. `filter` is all, paid, unpaid, delivered or expired; `status` one of the order statuses (or all); `search` matches the order number (#1003 or 1003), the order id (or its start), the customer name or e-mail, or the shipping name.',
  querystring: listOrdersQuerySchema,
  response: { 200: orderListResponseSchema, ...errors },
};
export const reorderSchema = {
  tags: ['orders'],
  summary: 'Order again: put the lines of one of your orders back into your cart',
  description: 'At current prices, capped at stock; unavailable products are skipped and reported in notices. Only the order\'s owner (404 otherwise).',
  params: idParams,
  response: { 200: cartSchema, ...errors },
};
