import {
  addCartItemBodySchema, applyCartDiscountBodySchema, cartSchema, errorResponseSchema, mergeCartBodySchema, updateCartItemBodySchema,
} from '@shop/contracts';
import { z } from 'zod';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const productIdParams = z.object({ productId: z.string() });

export const getCartSchema = { tags: ['cart'], response: { 200: cartSchema, ...errors } };
export const addCartItemSchema = { tags: ['cart'], body: addCartItemBodySchema, response: { 200: cartSchema, ...errors } };
export const updateCartItemSchema = {
  tags: ['cart'], params: productIdParams, body: updateCartItemBodySchema, response: { 200: cartSchema, ...errors },
};
export const removeCartItemSchema = {
  tags: ['cart'], params: productIdParams, querystring: z.object({ variantId: z.string().max(100).optional() }),
  response: { 200: cartSchema, ...errors },
};
export const missingProductIdSchema = { tags: ['cart'], response: { 400: errorResponseSchema } };
export const clearCartSchema = { tags: ['cart'], response: { 200: cartSchema, ...errors } };
export const mergeCartSchema = { tags: ['cart'], body: mergeCartBodySchema, response: { 200: cartSchema, ...errors } };
export const applyCartDiscountSchema = {
  tags: ['cart'], summary: 'Apply a discount code to the cart', body: applyCartDiscountBodySchema, response: { 200: cartSchema, ...errors },
};
export const removeCartDiscountSchema = { tags: ['cart'], summary: 'Remove the discount code from the cart', response: { 200: cartSchema, ...errors } };
