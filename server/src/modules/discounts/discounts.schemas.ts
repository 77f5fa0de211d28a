import {
  discountBodySchema, discountListResponseSchema, discountMessageResponseSchema, discountSchema, errorResponseSchema,
  listDiscountsQuerySchema, messageResponseSchema,
} from '@shop/contracts';
import { z } from 'zod';

const tags = ['discounts (admin)'];
const security = [{ cookieAuth: [] }];
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, errorResponseSchema]));
const idParams = z.object({ id: z.string().max(100) });

export const listDiscountsSchema = {
  tags, security,
  summary: 'Discount codes, newest first (admin)',
  description: 'Paged with page/pageSize (default 20, at most 100); `search` matches the code (case-insensitive).',
  querystring: listDiscountsQuerySchema,
  response: { 200: discountListResponseSchema, ...errors(400, 401, 403) },
};
export const getDiscountSchema = { tags, security, summary: 'One discount code (admin)', params: idParams, response: { 200: discountSchema, ...errors(401, 403, 404) } };
export const createDiscountSchema = {
  tags, security,
  summary: 'Create a discount code (admin)',
  description: '409 when another discount has the same code, in any case.',
  body: discountBodySchema,
  response: { 201: discountMessageResponseSchema, ...errors(400, 401, 403, 409) },
};
export const updateDiscountSchema = {
  tags, security,
  summary: 'Change a discount code (admin)',
  params: idParams,
  body: discountBodySchema,
  response: { 200: discountMessageResponseSchema, ...errors(400, 401, 403, 404, 409) },
};
export const deleteDiscountSchema = {
  tags, security,
  summary: 'Delete a discount code (admin); orders keep their code and discount',
  params: idParams,
  response: { 200: messageResponseSchema, ...errors(401, 403, 404) },
};
