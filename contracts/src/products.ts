import { z } from 'zod';
import { idSchema } from './common.ts';

export const reviewSchema = z.object({
  _id: idSchema,
  name: z.string(),
  rating: z.number(),
  comment: z.string(),
  createdAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const cjDataSchema = z.looseObject({
  pid: z.string(),
  variants: z.array(z.looseObject({ vid: z.string() })),
});
export type CjData = z.infer<typeof cjDataSchema>;

export const productSchema = z.object({
  _id: idSchema,
  name: z.string(),
  slug: z.string(),
  price: z.number(),
  /** Price after the sale discount: what the shopper pays. */
  finalPrice: z.number(),
  image: z.string(),
  images: z.array(z.string()),
  category: z.string(),
  brand: z.string(),
  countInStock: z.number().int(),
  description: z.string(),
  rating: z.number(),
  numReviews: z.number().int(),
  reviews: z.array(reviewSchema).optional(),
  isTodaysDeal: z.boolean(),
  isGift: z.boolean(),
  isOnSale: z.boolean(),
  saleDiscount: z.number(),
  cjData: cjDataSchema.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const SEARCH_ORDERS = ['newest', 'lowest', 'highest', 'toprated'] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];
export const PRICE_BUCKETS = ['1-50', '51-200', '201-1000'] as const;
export const RATING_FILTERS = [4, 3, 2, 1] as const;
export const SEARCH_TAGS = ['todays-deal', 'gifts', 'on-sale'] as const;
export const SEARCH_PAGE_SIZE = 12;
