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
  /** Newest first; present on GET products/slug/{slug} and GET products/{id}. */
  reviews: z.array(reviewSchema).optional(),
  isTodaysDeal: z.boolean(),
  isGift: z.boolean(),
  isOnSale: z.boolean(),
  saleDiscount: z.number(),
  cjData: cjDataSchema.nullable().optional(),
  /** Only admin listings carry it: a product created by "Create Product" and never saved valid. */
  isDraft: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

// ---------------------------------------------------------------------------------------------
// Search (GET products/search)
// ---------------------------------------------------------------------------------------------

export const SEARCH_ORDERS = ['newest', 'lowest', 'highest', 'toprated'] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];
/** Labels of the Sort by dropdown, in the spec's words. */
export const SEARCH_ORDER_LABELS: Record<SearchOrder, string> = {
  newest: 'Newest Arrivals',
  lowest: 'Price: Low to High',
  highest: 'Price: High to Low',
  toprated: 'Avg. Customer Reviews',
};
/**
 * Price Range filter values. A range `min-max` is applied to the price the shopper pays (after the
 * sale discount): `min <= finalPrice`, and when `max` is a whole number `finalPrice < max + 1`, so
 * whole-dollar buckets leave no gap (49.99 and 50.50 are both in 1-50). Any well-formed range is
 * accepted, not only these three.
 */
export const PRICE_BUCKETS = ['1-50', '51-200', '201-1000'] as const;
export const PRICE_BUCKET_LABELS: Record<(typeof PRICE_BUCKETS)[number], string> = {
  '1-50': '$1 to $50',
  '51-200': '$51 to $200',
  '201-1000': '$201 to $1000',
};
/** Customer Rating filter: "N stars & up" (rating >= N). */
export const RATING_FILTERS = [4, 3, 2, 1] as const;
export const SEARCH_TAGS = ['todays-deal', 'gifts', 'on-sale'] as const;
export type SearchTag = (typeof SEARCH_TAGS)[number];
/** Sub-header labels of the tags. */
export const SEARCH_TAG_LABELS: Record<SearchTag, string> = {
  'todays-deal': 'Todays Deal',
  gifts: 'Gifts',
  'on-sale': 'On Sale',
};
/** 12 fills both the 2-per-row (small) and 3-per-row (large) result grid. */
export const SEARCH_PAGE_SIZE = 12;
export const SEARCH_MAX_PAGE = 100_000;
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** How many products the home grid shows (newest first). */
export const HOME_PRODUCTS_LIMIT = 24;

export const SEARCH_MESSAGES = {
  query: `Search text must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
  category: 'Category must be at most 100 characters',
  price: "Price must be 'all' or a range like 1-50",
  rating: "Rating must be 'all' or a whole number from 1 to 5",
  order: `Sort order must be one of: ${SEARCH_ORDERS.join(', ')}`,
  page: 'Page must be a whole number of at least 1',
  pageMax: `Page must be at most ${SEARCH_MAX_PAGE}`,
  tag: `Tag must be 'all' or one of: ${SEARCH_TAGS.join(', ')}`,
} as const;

const PRICE_RANGE = /^(\d{1,7}(?:\.\d{1,2})?)-(\d{1,7}(?:\.\d{1,2})?)$/;

/** Parses a `min-max` price range; null when malformed or min > max. */
export function parsePriceRange(value: string): { min: number; max: number } | null {
  const m = PRICE_RANGE.exec(value);
  if (!m) return null;
  const min = Number(m[1]);
  const max = Number(m[2]);
  return min <= max ? { min, max } : null;
}

const allOr = (value: string | undefined) => (value === undefined || value === '' ? 'all' : value);

const pageParam = (message: string) =>
  z
    .string({ error: message })
    .optional()
    .transform((v) => (v === undefined || v === '' ? '1' : v))
    .refine((v) => /^\d{1,9}$/.test(v) && Number(v) >= 1, { message })
    .transform(Number);

/**
 * Query string of GET products/search. Every parameter is optional: query, category, price,
 * rating and tag default to 'all', order to 'newest', page to 1.
 */
export const productSearchQuerySchema = z.object({
  query: z
    .string({ error: SEARCH_MESSAGES.query })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v) => v.length <= SEARCH_QUERY_MAX_LENGTH, { message: SEARCH_MESSAGES.query }),
  category: z
    .string({ error: SEARCH_MESSAGES.category })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v) => v.length <= 100, { message: SEARCH_MESSAGES.category }),
  price: z
    .string({ error: SEARCH_MESSAGES.price })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v) => v === 'all' || parsePriceRange(v) !== null, { message: SEARCH_MESSAGES.price }),
  rating: z
    .string({ error: SEARCH_MESSAGES.rating })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v) => v === 'all' || /^[1-5]$/.test(v), { message: SEARCH_MESSAGES.rating })
    .transform((v) => (v === 'all' ? ('all' as const) : Number(v))),
  order: z
    .string({ error: SEARCH_MESSAGES.order })
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'newest' : v))
    .refine((v): v is SearchOrder => (SEARCH_ORDERS as readonly string[]).includes(v), { message: SEARCH_MESSAGES.order })
    .transform((v) => v as SearchOrder),
  page: pageParam(SEARCH_MESSAGES.page).refine((n) => n <= SEARCH_MAX_PAGE, { message: SEARCH_MESSAGES.pageMax }),
  tag: z
    .string({ error: SEARCH_MESSAGES.tag })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v): v is 'all' | SearchTag => v === 'all' || (SEARCH_TAGS as readonly string[]).includes(v), { message: SEARCH_MESSAGES.tag })
    .transform((v) => v as 'all' | SearchTag),
});
/** What the browser sends (all strings, all optional). */
export type ProductSearchParams = z.input<typeof productSearchQuerySchema>;
/** What the server works with after parsing. */
export type ProductSearchQuery = z.output<typeof productSearchQuerySchema>;

export const productSearchResponseSchema = z.object({
  products: z.array(productSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countProducts: z.number().int(),
});
export type ProductSearchResponse = z.infer<typeof productSearchResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Administration
// ---------------------------------------------------------------------------------------------

export const ADMIN_PAGE_SIZE = 10;

export const adminProductsQuerySchema = z.object({
  page: pageParam(SEARCH_MESSAGES.page),
  pageSize: z
    .string({ error: 'Page size must be a whole number from 1 to 100' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? String(ADMIN_PAGE_SIZE) : v))
    .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100, {
      message: 'Page size must be a whole number from 1 to 100',
    })
    .transform(Number),
});
export type AdminProductsQuery = z.output<typeof adminProductsQuerySchema>;

export const adminProductListResponseSchema = z.object({
  products: z.array(productSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countProducts: z.number().int(),
});
export type AdminProductListResponse = z.infer<typeof adminProductListResponseSchema>;

/** The spec's messages for the product form; the server answers them as `fieldErrors`. */
export const PRODUCT_FORM_MESSAGES = {
  idRequired: 'Product ID is required',
  categoryBrandDescriptionRequired: 'Category, Brand, and Description are required fields',
  name: 'Name is required',
  slug: 'Slug is required',
  slugFormat: 'Slug may only contain lowercase letters, numbers and hyphens',
  slugTaken: 'Slug is already in use',
  price: 'Price must be greater than 0',
  priceMax: 'Price must be at most 1000000',
  image: 'Image is required',
  category: 'Category is required',
  brand: 'Brand is required',
  countInStock: 'Count in stock must be greater than 0',
  description: 'Description is required',
  saleDiscount: 'Sale discount must be between 1 and 100',
  created: 'Product created successfully',
  updated: 'Product updated successfully',
  deleted: 'Product deleted successfully',
  notFound: 'Product not found',
} as const;

export const PRODUCT_PRICE_MAX = 1_000_000;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const M = PRODUCT_FORM_MESSAGES;
const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${message.replace(' is required', '')} must be at most ${max} characters`);

/**
 * The product form's rules with the spec's messages. The server validates the product as it will
 * be saved (stored values merged with the fields sent); the web form can use the same schema.
 * Count in stock may be 0 (an out-of-stock product); negative or fractional counts are refused.
 * Sale discount is a whole percent 1-100 when on sale; when not on sale it is stored as 0.
 */
export const productFormSchema = z
  .object({
    name: requiredText(M.name, 200),
    slug: z
      .string({ error: M.slug })
      .trim()
      .toLowerCase()
      .min(1, M.slug)
      .max(200, 'Slug must be at most 200 characters')
      .regex(SLUG_PATTERN, M.slugFormat),
    price: z
      .number({ error: M.price })
      .gt(0, M.price)
      .max(PRODUCT_PRICE_MAX, M.priceMax)
      .transform((v) => Math.round(v * 100) / 100),
    image: requiredText(M.image, 2000),
    images: z.array(z.string().trim().min(1).max(2000), { error: 'Images must be a list of image URLs' }).max(20, 'At most 20 images').default([]),
    category: requiredText(M.category, 100),
    brand: requiredText(M.brand, 100),
    countInStock: z.number({ error: M.countInStock }).int(M.countInStock).min(0, M.countInStock).max(1_000_000, 'Count in stock must be at most 1000000'),
    description: requiredText(M.description, 5000),
    isTodaysDeal: z.boolean().default(false),
    isGift: z.boolean().default(false),
    isOnSale: z.boolean().default(false),
    saleDiscount: z.number({ error: M.saleDiscount }).default(0),
  })
  .superRefine((p, ctx) => {
    if (p.isOnSale && !(Number.isInteger(p.saleDiscount) && p.saleDiscount >= 1 && p.saleDiscount <= 100)) {
      ctx.addIssue({ code: 'custom', path: ['saleDiscount'], message: M.saleDiscount });
    }
  })
  .transform((p) => ({ ...p, saleDiscount: p.isOnSale ? p.saleDiscount : 0 }));
export type ProductForm = z.output<typeof productFormSchema>;

const numberLike = z.union([z.number(), z.string()]).nullable();
/**
 * Body of PUT products/{id}. Fields left out keep their stored value; the product as it will be
 * saved must pass `productFormSchema`. Numbers may arrive as numeric strings (form inputs).
 */
export const productUpdateBodySchema = z.object({
  _id: z.string({ error: 'Product ID is required' }).nullable().optional(),
  name: z.string().nullable().optional(),
  slug: z.string().nullable().optional(),
  price: numberLike.optional(),
  image: z.string().nullable().optional(),
  images: z.array(z.string()).nullable().optional(),
  category: z.string().nullable().optional(),
  brand: z.string().nullable().optional(),
  countInStock: numberLike.optional(),
  description: z.string().nullable().optional(),
  isTodaysDeal: z.boolean().optional(),
  isGift: z.boolean().optional(),
  isOnSale: z.boolean().optional(),
  saleDiscount: numberLike.optional(),
}, { error: 'Product ID is required' });
export type ProductUpdateBody = z.infer<typeof productUpdateBodySchema>;

export const productUpdateResponseSchema = z.object({ message: z.string(), product: productSchema });
export type ProductUpdateResponse = z.infer<typeof productUpdateResponseSchema>;

/** POST products (no body) creates a draft with placeholder values and answers it. */
export const productCreateResponseSchema = z.object({ message: z.string(), product: productSchema });
export type ProductCreateResponse = z.infer<typeof productCreateResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Reviews
// ---------------------------------------------------------------------------------------------

export const REVIEW_MESSAGES = {
  required: 'Please enter comment and rating',
  rating: 'Rating must be a whole number from 1 to 5',
  commentMax: 'Comment must be at most 2000 characters',
  duplicate: 'You have already submitted a review for this product',
  created: 'Review submitted successfully',
} as const;
export const REVIEW_RATING_LABELS = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very good', 5: 'Excellent' } as const;

/** Body of POST products/{productId}/reviews. A `name` sent by older clients is ignored: it comes from the account. */
export const createReviewBodySchema = z.object({
  rating: z.union([z.number(), z.string()], { error: REVIEW_MESSAGES.required }).nullish(),
  comment: z.string({ error: REVIEW_MESSAGES.required }).nullish(),
  name: z.string().nullish(),
}, { error: REVIEW_MESSAGES.required });
export type CreateReviewBody = z.input<typeof createReviewBodySchema>;

export const createReviewResponseSchema = z.object({
  message: z.string(),
  review: reviewSchema,
  numReviews: z.number().int(),
  rating: z.number(),
});
export type CreateReviewResponse = z.infer<typeof createReviewResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Upload
// ---------------------------------------------------------------------------------------------

export const UPLOAD_MAX_MB = 5;
export const UPLOAD_MESSAGES = {
  tooLarge: `File too large (max ${UPLOAD_MAX_MB} MB)`,
  noFile: "No file uploaded: send the image as multipart field 'file'",
  notImage: 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)',
  tooManyPixels: 'Image dimensions are too large',
} as const;
export const uploadResponseSchema = z.object({ secure_url: z.string(), message: z.string().optional() });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
