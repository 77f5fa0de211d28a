import {
  cjCategoriesResponseSchema, cjListQuerySchema, cjProductListResponseSchema, cjProductResponseSchema, cjPublicProductSchema,
  cjRefreshResponseSchema, cjSaveBodySchema, cjSavedItemSchema, cjSavedListResponseSchema, cjSaveResponseSchema,
  errorResponseSchema, messageResponseSchema, supplierOrderActionResponseSchema, supplierOrderListQuerySchema,
  supplierOrderListResponseSchema, supplierOrderSchema, supplierStatusSchema, pricingRuleSchema, pricingRuleResponseSchema,
} from '@shop/contracts';
import { z } from 'zod';

const tags = ['supplier'];
const errors = {
  400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema,
  429: errorResponseSchema, 502: errorResponseSchema, 503: errorResponseSchema,
};
const idParams = z.object({ id: z.string().max(200) });
const orderParams = z.object({ orderId: z.string().max(100) });

export const statusSchema = {
  tags, summary: 'Back office: which supplier catalogue is in use (CJ or the offline one)',
  response: { 200: supplierStatusSchema, ...errors },
};
export const categoriesSchema = {
  tags, summary: "Back office: the supplier's product categories (third level, with their group)",
  response: { 200: cjCategoriesResponseSchema, ...errors },
};
export const listSchema = {
  tags, summary: 'Back office: a page of the supplier catalogue (data.content, data.totalPages), each marked saved or not',
  querystring: cjListQuerySchema,
  response: { 200: cjProductListResponseSchema, ...errors },
};
export const getSchema = {
  tags, summary: 'Back office: one supplier product with its variants',
  params: idParams,
  response: { 200: cjProductResponseSchema, ...errors },
};
export const listSavedSchema = {
  tags, summary: 'Back office: saved supplier products with cost and margin, newest first',
  querystring: cjListQuerySchema,
  response: { 200: cjSavedListResponseSchema, ...errors },
};
export const getSavedSchema = {
  tags, summary: 'Back office: one saved supplier product by its id',
  params: idParams,
  response: { 200: cjSavedItemSchema, ...errors },
};
export const getBySlugSchema = {
  tags, summary: 'The public page of a saved supplier product (with reviews and variants)',
  params: z.object({ slug: z.string().max(300) }),
  response: { 200: cjPublicProductSchema, 404: errorResponseSchema },
};
export const saveSchema = {
  tags, summary: 'Back office: save a supplier product as a product (saving the same pid again updates it)',
  body: cjSaveBodySchema,
  response: { 200: cjSaveResponseSchema, 201: cjSaveResponseSchema, 409: errorResponseSchema, ...errors },
};
export const refreshSchema = {
  tags, summary: 'Back office: refresh cost and stock of a saved supplier product from the supplier',
  params: idParams,
  response: { 200: cjRefreshResponseSchema, ...errors },
};
export const deleteSchema = {
  tags, summary: 'Back office: delete a saved supplier product (by its id or the supplier pid)',
  params: idParams,
  response: { 200: messageResponseSchema, ...errors },
};
export const listOrdersSchema = {
  tags, summary: 'Back office: supplier orders (paid orders forwarded to CJ), newest first',
  querystring: supplierOrderListQuerySchema,
  response: { 200: supplierOrderListResponseSchema, ...errors },
};
export const getOrderSchema = {
  tags, summary: 'Back office: the supplier order of one of our orders',
  params: orderParams,
  response: { 200: supplierOrderSchema, ...errors },
};
export const retryOrderSchema = {
  tags, summary: 'Back office: send a failed supplier order again',
  params: orderParams,
  response: { 200: supplierOrderActionResponseSchema, 409: errorResponseSchema, ...errors },
};

export const getPricingSchema = {
  tags, summary: 'Back office: the pricing rule for newly imported supplier products (markup %, fixed amount, rounding)',
  response: { 200: pricingRuleResponseSchema, ...errors },
};
export const putPricingSchema = {
  tags, summary: 'Back office: save the pricing rule (applies to products and variants imported from now on)',
  body: pricingRuleSchema,
  response: { 200: pricingRuleResponseSchema, ...errors },
};
export const refreshTrackingSchema = {
  tags, summary: 'Back office: ask the supplier now for the status and tracking number of one forwarded order',
  params: orderParams,
  response: { 200: supplierOrderSchema, 409: errorResponseSchema, ...errors },
};
