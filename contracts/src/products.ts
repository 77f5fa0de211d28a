import { z } from 'zod';
import { idSchema } from './common.ts';
import { isProductImageUrl } from './images.ts';
import { finalPrice, MIN_UNIT_PRICE } from './money.ts';
import { moneyField, wholeNumberField, wholeNumberParam } from './number-fields.ts';
import {
  ADMIN_PAGE_SIZE,
  ADMIN_PRODUCT_QUERY_MESSAGES,
  ADMIN_PRODUCT_SORTS,
  ADMIN_STOCK_FILTERS,
  type AdminProductSort,
  type AdminStockFilter,
  PRODUCT_FORM_MESSAGES,
  PRODUCT_PRICE_MAX,
  REVIEW_MESSAGES,
  SEARCH_MAX_PAGE,
  SEARCH_MESSAGES,
  SEARCH_ORDERS,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_TAGS,
  SLUG_PATTERN,
  type SearchOrder,
  type SearchTag,
} from './constants.ts';

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

/** An option a product is sold in: Size with S, M, L (issue 34). */
export const productOptionSchema = z.object({
  name: z.string(),
  values: z.array(z.string()),
});
export type ProductOption = z.infer<typeof productOptionSchema>;

/**
 * A variant on sale, as the product pages show it: a supplier product's variant, or one combination
 * of an own product's options ("M / Red"). Public: no supplier cost.
 */
export const sellableVariantSchema = z.object({
  _id: idSchema,
  vid: z.string(),
  /** The variant's name, e.g. "Blue XL" (supplier) or "M / Red" (an own product's option values). */
  name: z.string(),
  /** The choice it stands for (colour, size...); '' for an own product's variant (its name says it). */
  variantKey: z.string(),
  image: z.string(),
  /** Our selling price before the product's sale discount. */
  price: z.number(),
  /** What the shopper pays (sale discount applied). */
  finalPrice: z.number(),
  countInStock: z.number().int(),
  enabled: z.boolean(),
  /** Own products: the variant's value of each option ({ Size: 'M', Colour: 'Red' }). */
  options: z.record(z.string(), z.string()).optional(),
  /** Own products: the shop's stock-keeping unit ('' when none). */
  sku: z.string().optional(),
});
export type SellableVariant = z.infer<typeof sellableVariantSchema>;

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
  /**
   * An own product with options (issue 34): the options, in the order the shopper chooses them. Its
   * `price` is then the lowest price of its variants on sale and `countInStock` their sum.
   */
  options: z.array(productOptionSchema).optional(),
  /** With options, when its variants on sale differ in price: the lowest and highest price paid ("From $X"). */
  priceRange: z.object({ min: z.number(), max: z.number() }).optional(),
  /**
   * With options, on one product (GET products/slug/{slug}, products/{id}): its variants on sale
   * (every variant, switched-off ones too, for an administrator), as a supplier product's page lists them.
   */
  productVariants: z.array(sellableVariantSchema).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

// ---------------------------------------------------------------------------------------------
// Search (GET products/search)
// ---------------------------------------------------------------------------------------------

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

const pageParam = (message: string) => wholeNumberParam({ fallback: 1, min: 1, max: 999_999_999, message });

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
  /** Only when a text search found nothing: a "did you mean" query that finds products, and categories to browse. */
  suggestions: z.object({ didYouMean: z.string().nullable(), categories: z.array(z.string()) }).optional(),
});
export type ProductSearchResponse = z.infer<typeof productSearchResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Administration
// ---------------------------------------------------------------------------------------------

export const adminProductsQuerySchema = z.object({
  page: pageParam(SEARCH_MESSAGES.page),
  pageSize: wholeNumberParam({ fallback: ADMIN_PAGE_SIZE, min: 1, max: 100, message: 'Page size must be a whole number from 1 to 100' }),
  /** Part of the name, case-insensitive; '' for every product. */
  search: z
    .string({ error: ADMIN_PRODUCT_QUERY_MESSAGES.search })
    .optional()
    .transform((v) => v?.trim() ?? '')
    .refine((v) => v.length <= 100, { message: ADMIN_PRODUCT_QUERY_MESSAGES.search }),
  /** Exact category; '' or 'all' for every category (the storefront search's rule and message). */
  category: productSearchQuerySchema.shape.category,
  stock: z
    .string({ error: ADMIN_PRODUCT_QUERY_MESSAGES.stock })
    .optional()
    .transform((v) => allOr(v?.trim()))
    .refine((v): v is AdminStockFilter => (ADMIN_STOCK_FILTERS as readonly string[]).includes(v), { message: ADMIN_PRODUCT_QUERY_MESSAGES.stock })
    .transform((v) => v as AdminStockFilter),
  sort: z
    .string({ error: ADMIN_PRODUCT_QUERY_MESSAGES.sort })
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? 'newest' : v.trim()))
    .refine((v): v is AdminProductSort => (ADMIN_PRODUCT_SORTS as readonly string[]).includes(v), { message: ADMIN_PRODUCT_QUERY_MESSAGES.sort })
    .transform((v) => v as AdminProductSort),
});
export type AdminProductsQuery = z.output<typeof adminProductsQuerySchema>;
/** What the browser sends (all strings, all optional). */
export type AdminProductsParams = z.input<typeof adminProductsQuerySchema>;

export const adminProductListResponseSchema = z.object({
  products: z.array(productSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countProducts: z.number().int(),
  /** Every category in use (drafts included), sorted, for the category filter. */
  categories: z.array(z.string()),
});
export type AdminProductListResponse = z.infer<typeof adminProductListResponseSchema>;

const M = PRODUCT_FORM_MESSAGES;
const requiredText = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${message.replace(' is required', '')} must be at most ${max} characters`);

/**
 * The product form's rules with the spec's messages. The server validates the product as it will
 * be saved (stored values merged with the fields sent); the web form uses the same schema.
 * Count in stock may be 0 (an out-of-stock product); negative or fractional counts are refused.
 *
 * Numbers are read by the one money and whole-number parsers (numbers.ts): a JSON number, or a
 * string in decimal notation ("19.99", "12"; never "0x10", "1e1", " 0b11 "), so the web form's
 * input text and an API client's JSON get the same rules and messages.
 *
 * Money: the price has at most 2 decimals and must be at least $0.01 ('Price must be greater
 * than 0'). Sale discount is a whole percent 1-100 when on sale (the spec's range; stored as 0 when
 * not on sale), and the price the shopper pays after the discount must also be at least $0.01, else
 * 'Price after the sale discount must be at least $0.01' next to the discount. So 100 % is a valid
 * input but never a valid product: a product is never free.
 *
 * Images: the shop's own uploads (`/uploads/{key}`, what POST upload answers), the offline supplier
 * catalogue's images, or http(s) addresses (isProductImageUrl); never `javascript:`, `data:`, a
 * protocol-relative `//host` or another path of the shop.
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
    price: moneyField({ required: M.price, format: M.priceFormat, decimals: M.priceDecimals })
      .refine((v) => v <= PRODUCT_PRICE_MAX, M.priceMax)
      .refine((v) => v >= MIN_UNIT_PRICE, M.price),
    image: requiredText(M.image, 2000).refine((v) => v === '' || isProductImageUrl(v), M.imageUrl),
    images: z
      .array(z.string({ error: M.imagesUrl }).trim().refine(isProductImageUrl, M.imagesUrl), { error: 'Images must be a list of image URLs' })
      .max(20, 'At most 20 images')
      .default([]),
    category: requiredText(M.category, 100),
    brand: requiredText(M.brand, 100),
    countInStock: wholeNumberField({ required: M.countInStock, format: M.countInStockFormat })
      .refine((v) => v >= 0, M.countInStock)
      .refine((v) => v <= 1_000_000, 'Count in stock must be at most 1000000'),
    description: requiredText(M.description, 5000),
    isTodaysDeal: z.boolean().default(false),
    isGift: z.boolean().default(false),
    isOnSale: z.boolean().default(false),
    saleDiscount: wholeNumberField({ required: M.saleDiscount, format: M.saleDiscountFormat }).default(0),
  })
  .superRefine((p, ctx) => {
    if (!p.isOnSale) return;
    if (!(p.saleDiscount >= 1 && p.saleDiscount <= 100)) {
      ctx.addIssue({ code: 'custom', path: ['saleDiscount'], message: M.saleDiscount });
    } else if (finalPrice(p) < MIN_UNIT_PRICE) {
      ctx.addIssue({ code: 'custom', path: ['saleDiscount'], message: M.finalPriceMin });
    }
  })
  .transform((p) => ({ ...p, saleDiscount: p.isOnSale ? p.saleDiscount : 0 }));
export type ProductForm = z.output<typeof productFormSchema>;
/** What the form's inputs may hold: numbers as the text typed (read by the same parsers). */
export type ProductFormInput = z.input<typeof productFormSchema>;

/** One variant of PUT products/{id} (issue 34); numbers may arrive as decimal strings (form inputs), read by the one money and whole-number parsers. */
export const productVariantInputSchema = z.object({
  /** A variant of this product to change; left out for a new one (or one matched by its options). */
  _id: z.string({ error: 'Variant ID must be text' }).nullable().optional(),
  /** Its value of each of the product's options. */
  options: z.record(z.string(), z.string({ error: 'Option values must be text' }), { error: 'Variant options must be { name: value }' }),
  price: moneyField({ required: M.price, format: M.priceFormat, decimals: M.priceDecimals }).nullable().optional(),
  /** Required for a new variant; an existing one keeps its stock when it is left out. */
  countInStock: wholeNumberField({ required: M.countInStock, format: M.countInStockFormat }).nullable().optional(),
  /** The stock the form loaded, sent with a changed countInStock: 409 when orders changed it since. */
  countInStockWas: wholeNumberField({ format: 'Count in stock was must be a whole number' }).refine((v) => v >= 0, 'Count in stock was must be a whole number').optional(),
  sku: z.string({ error: 'SKU must be text' }).nullable().optional(),
  image: z.string({ error: 'Image must be text' }).nullable().optional(),
  enabled: z.boolean({ error: 'Enabled must be true or false' }).optional(),
}, { error: 'Each variant must be { options, price, countInStock, ... }' });
export type ProductVariantInput = z.input<typeof productVariantInputSchema>;
const textLike = (message: string) => z.string({ error: message }).nullable();
/**
 * Body of PUT products/{id}. Fields left out keep their stored value; the product as it will be
 * saved must pass `productFormSchema`. Numbers may arrive as JSON numbers or as decimal strings
 * (form inputs), read by the one money and whole-number parsers: "0x10", "1e1" or " 0b11 " is a
 * 400 naming the field, whatever else the body says. A field of the wrong type is refused with
 * that field's message from the spec; null counts as empty (the field's "required" message).
 */
export const productUpdateBodySchema = z.object({
  _id: z.string({ error: M.idRequired }).nullable().optional(),
  name: textLike(M.name).optional(),
  slug: textLike(M.slug).optional(),
  price: moneyField({ required: M.price, format: M.priceFormat, decimals: M.priceDecimals }).nullable().optional(),
  image: textLike(M.image).optional(),
  images: z.array(z.string({ error: 'Images must be a list of image URLs' }), { error: 'Images must be a list of image URLs' }).nullable().optional(),
  category: textLike(M.category).optional(),
  brand: textLike(M.brand).optional(),
  countInStock: wholeNumberField({ required: M.countInStock, format: M.countInStockFormat }).nullable().optional(),
  description: textLike(M.description).optional(),
  isTodaysDeal: z.boolean({ error: "Today's deal must be true or false" }).optional(),
  isGift: z.boolean({ error: 'Gift must be true or false' }).optional(),
  isOnSale: z.boolean({ error: 'On sale must be true or false' }).optional(),
  saleDiscount: wholeNumberField({ required: M.saleDiscount, format: M.saleDiscountFormat }).nullable().optional(),
  /**
   * The stock the form loaded, sent with a changed `countInStock` (a recount): when the stored stock
   * is no longer this (orders came in since), the save is refused with 409 and nothing is written.
   * Optional: a client that leaves it out gets its `countInStock` written as before.
   */
  countInStockWas: wholeNumberField({ format: 'Count in stock was must be a whole number' }).refine((v) => v >= 0, 'Count in stock was must be a whole number').optional(),
  /**
   * Options and variants (issue 34), sent together: the product's options and one variant per
   * combination sold. Variants left out are deleted, or switched off when they have orders. The
   * rules are `parseProductVariants` (product-options.ts). `[]` and `[]` make a product without options.
   */
  options: z.array(z.object({
    name: z.string({ error: 'Option name is required' }).nullable().optional(),
    values: z.array(z.string({ error: 'Option values must be text' }), { error: 'Option values must be a list' }).nullable().optional(),
  }, { error: 'Each option must be { name, values }' }), { error: 'Options must be a list of { name, values }' }).nullable().optional(),
  variants: z.array(productVariantInputSchema, { error: 'Variants must be a list' }).nullable().optional(),
}, { error: M.idRequired });
export type ProductUpdateBody = z.infer<typeof productUpdateBodySchema>;

/**
 * PUT products/{id} on a supplier (CJ) product: checkout charges its main variant's price and takes
 * that variant's stock, so price, sale and stock are set in the supplier catalogue (Admin → CJ
 * Products), never through the product form. Each field's message begins with its label.
 */
export const SUPPLIER_PRODUCT_FORM_MESSAGES = {
  locked: 'Price, sale and stock of a supplier product are set in the supplier catalogue (Admin → CJ Products)',
  price: 'Price of a supplier product is set in the supplier catalogue (Admin → CJ Products)',
  isOnSale: 'On sale of a supplier product is set in the supplier catalogue (Admin → CJ Products)',
  saleDiscount: 'Sale discount of a supplier product is set in the supplier catalogue (Admin → CJ Products)',
  countInStock: 'Count in stock of a supplier product is set in the supplier catalogue (Admin → CJ Products)',
} as const;
/** The code of that 400. */
export const SUPPLIER_PRODUCT_FIELDS_CODE = 'SUPPLIER_PRODUCT_FIELDS';

/** 409 of PUT products/{id}: the stock changed (orders came in) since the form loaded `was`. */
export const STOCK_CHANGED_CODE = 'STOCK_CHANGED';
export const stockChangedMessage = (was: number, now: number) =>
  `Count in stock changed from ${was} to ${now} since the form was opened (orders came in). Check the stock and save again.`;

export const productUpdateResponseSchema = z.object({ message: z.string(), product: productSchema });
export type ProductUpdateResponse = z.infer<typeof productUpdateResponseSchema>;

/** POST products (no body) creates a draft with placeholder values and answers it. */
export const productCreateResponseSchema = z.object({ message: z.string(), product: productSchema });
export type ProductCreateResponse = z.infer<typeof productCreateResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Reviews
// ---------------------------------------------------------------------------------------------

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

export const uploadResponseSchema = z.object({ secure_url: z.string(), message: z.string().optional() });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;
