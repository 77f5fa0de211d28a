import {
  adminProductListResponseSchema, adminProductsQuerySchema, createReviewBodySchema, createReviewResponseSchema,
  errorResponseSchema, messageResponseSchema, productCreateResponseSchema, productSchema, productSearchQuerySchema,
  productSearchResponseSchema, productUpdateBodySchema, productUpdateResponseSchema, reviewSchema,
} from '@shop/contracts';
import { z } from 'zod';

const tags = ['products'];
const idParams = z.object({ id: z.string().max(100) });
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

export const listHomeProductsSchema = {
  tags,
  summary: 'Home grid: the newest published products',
  response: { 200: z.array(productSchema) },
};

export const searchProductsSchema = {
  tags,
  summary: 'Search and filter published products (12 per page)',
  querystring: productSearchQuerySchema,
  response: { 200: productSearchResponseSchema, 400: errorResponseSchema },
};

export const listCategoriesSchema = {
  tags,
  summary: 'Categories of published products, sorted',
  response: { 200: z.array(z.string()) },
};

export const getProductBySlugSchema = {
  tags,
  summary: 'A published product and its reviews (newest first)',
  params: z.object({ slug: z.string().max(300) }),
  response: { 200: productSchema, 404: errorResponseSchema },
};

export const getProductByIdSchema = {
  tags,
  summary: 'A product and its reviews; drafts only for administrators',
  params: idParams,
  response: { 200: productSchema, 404: errorResponseSchema },
};

export const listAdminProductsSchema = {
  tags,
  summary: 'Back office: every product including drafts; search by name, filter by category and stock (out, low = 1-5), sort newest, name, price or stock',
  querystring: adminProductsQuerySchema,
  response: { 200: adminProductListResponseSchema, ...errors },
};

export const createProductSchema = {
  tags,
  summary: 'Back office: create a draft product with placeholder values',
  response: { 201: productCreateResponseSchema, ...errors },
};

export const updateProductSchema = {
  tags,
  summary: 'Back office: save the product form (publishes a draft)',
  params: idParams,
  body: productUpdateBodySchema,
  response: { 200: productUpdateResponseSchema, 409: errorResponseSchema, ...errors },
};

export const deleteProductSchema = {
  tags,
  summary: 'Back office: delete a product and its reviews',
  params: idParams,
  response: { 200: messageResponseSchema, 409: errorResponseSchema, ...errors },
};

export const createReviewSchema = {
  tags,
  summary: 'Review a product as the signed-in user (one review per user)',
  params: z.object({ productId: z.string().max(100) }),
  body: createReviewBodySchema,
  response: { 201: createReviewResponseSchema, ...errors },
};

export const myReviewSchema = {
  tags,
  summary: "The signed-in user's own review of a product (null when none)",
  params: z.object({ productId: z.string().max(100) }),
  response: { 200: z.object({ review: reviewSchema.nullable() }), ...errors },
};
