import { z } from 'zod';
import { idSchema } from './common.ts';
import { productSchema } from './products.ts';
import { CJ_MAX_PAGE_SIZE, CJ_PAGE_SIZE, SUPPLIER_ORDER_STATUSES, SUPPLIER_SOURCES } from './supplier-constants.ts';

// ---------------------------------------------------------------------------------------------
// Supplier (CJ) products as the shop's API presents them (SPEC section 3, "Supplier (CJ) product").
// ---------------------------------------------------------------------------------------------

export const supplierSourceSchema = z.enum(SUPPLIER_SOURCES);

export const cjVariantSchema = z.object({
  vid: z.string(),
  variantNameEn: z.string(),
  variantSku: z.string(),
  variantKey: z.string(),
  variantImage: z.string(),
  /** What the supplier charges us for one unit, USD. */
  variantSellPrice: z.number(),
});
export type CjVariant = z.infer<typeof cjVariantSchema>;

/** A variant as a saved product keeps it (in cjData): no supplier cost, which shoppers must not see. */
export const cjStoredVariantSchema = cjVariantSchema.omit({ variantSellPrice: true });
export type CjStoredVariant = z.infer<typeof cjStoredVariantSchema>;

/** One supplier product in the list (GET cj/products). */
export const cjListItemSchema = z.object({
  pid: z.string(),
  productId: z.string(),
  productNameEn: z.string(),
  productSku: z.string(),
  /** The product's images as a JSON list string (the supplier's format). */
  productImage: z.string(),
  /** The main image. */
  bigImage: z.string(),
  /** The supplier's price, maybe a range ("2.09 -- 7.46"). */
  sellPrice: z.string(),
  /** The first part of `sellPrice`, a number. */
  price: z.number(),
  categoryId: z.string(),
  categoryName: z.string(),
  /** Saved as a product of the shop: `savedProductId` is its id. */
  isSaved: z.boolean(),
  savedProductId: idSchema.nullable(),
});
export type CjListItem = z.infer<typeof cjListItemSchema>;

/** A supplier product with its variants (GET cj/products/{pid}): what the edit form starts from. */
export const cjProductSchema = cjListItemSchema.extend({
  productImageSet: z.array(z.string()),
  /** Plain text (the supplier's HTML with the tags removed). */
  description: z.string(),
  variants: z.array(cjVariantSchema),
});
export type CjProduct = z.infer<typeof cjProductSchema>;

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });

export const cjProductListResponseSchema = z.object({ data: pageOf(cjListItemSchema), source: supplierSourceSchema });
export type CjProductListResponse = z.infer<typeof cjProductListResponseSchema>;

export const cjProductResponseSchema = cjProductSchema.extend({ source: supplierSourceSchema });
export type CjProductResponse = z.infer<typeof cjProductResponseSchema>;

/** A saved supplier product: a product of the shop plus its supplier side (SPEC "Saved item"). */
export const cjSavedItemSchema = productSchema.extend({
  isSaved: z.literal(true),
  pid: z.string(),
  /** The variant we sell. */
  vid: z.string(),
  nameEn: z.string(),
  bigImage: z.string(),
  variants: z.array(cjStoredVariantSchema),
  supplierCategoryId: z.string(),
  /** What the supplier charges us per unit (null when unknown). */
  supplierCost: z.number().nullable(),
  /** finalPrice - supplierCost, and that as a percent of finalPrice. */
  margin: z.number().nullable(),
  marginPercent: z.number().nullable(),
  /** Set when the supplier stopped selling it: it cannot be bought. */
  supplierDiscontinuedAt: z.string().nullable(),
  supplierSyncedAt: z.string().nullable(),
});
export type CjSavedItem = z.infer<typeof cjSavedItemSchema>;

export const cjSavedListResponseSchema = z.object({ data: pageOf(cjSavedItemSchema) });
export type CjSavedListResponse = z.infer<typeof cjSavedListResponseSchema>;

const pageParam = (message: string) =>
  z
    .string({ error: message })
    .optional()
    .transform((v) => (v === undefined || v === '' ? '1' : v))
    .refine((v) => /^\d{1,6}$/.test(v) && Number(v) >= 1, { message })
    .transform(Number);

/** GET cj/products and GET cj/products/saved: page from 1, limit (page size) 1-200, search text and category. */
export const cjListQuerySchema = z.object({
  page: pageParam('Page must be a whole number from 1 to 999999'),
  limit: z
    .string({ error: `Limit must be a whole number from 1 to ${CJ_MAX_PAGE_SIZE}` })
    .optional()
    .transform((v) => (v === undefined || v === '' ? String(CJ_PAGE_SIZE) : v))
    .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= CJ_MAX_PAGE_SIZE, {
      message: `Limit must be a whole number from 1 to ${CJ_MAX_PAGE_SIZE}`,
    })
    .transform(Number),
  query: z
    .string()
    .optional()
    .transform((v) => v?.trim() ?? '')
    .refine((v) => v.length <= 200, { message: 'Search text must be at most 200 characters' }),
  category: z
    .string()
    .optional()
    .transform((v) => v?.trim() ?? '')
    .refine((v) => v.length <= 200, { message: 'Category must be at most 200 characters' }),
});
export type CjListParams = z.input<typeof cjListQuerySchema>;
export type CjListQuery = z.output<typeof cjListQuerySchema>;

export const cjCategoriesResponseSchema = z.object({
  source: supplierSourceSchema,
  categories: z.array(z.object({ categoryId: z.string(), categoryName: z.string(), group: z.string() })),
});
export type CjCategoriesResponse = z.infer<typeof cjCategoriesResponseSchema>;

const numberLike = z.union([z.number(), z.string()]).nullable();
/**
 * POST cj/products/save (SPEC "Save-supplier-product payload"). Only `pid` is required: fields left
 * out come from the supplier product (name, slug from the lower-cased English name, price from the
 * first part of sellPrice, stock 100, images, category, description). The product as it will be
 * saved must pass the product form rules.
 */
export const cjSaveBodySchema = z.object({
  pid: z.string().nullable().optional(),
  isSaved: z.boolean().optional(),
  vid: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  brand: z.string().nullable().optional(),
  countInStock: numberLike.optional(),
  slug: z.string().nullable().optional(),
  price: numberLike.optional(),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  image: z.string().nullable().optional(),
  images: z.array(z.string()).nullable().optional(),
  isTodaysDeal: z.boolean().optional(),
  isGift: z.boolean().optional(),
  isOnSale: z.boolean().optional(),
  saleDiscount: numberLike.optional(),
}, { error: 'Product ID is missing' });
export type CjSaveBody = z.infer<typeof cjSaveBodySchema>;

export const cjSaveResponseSchema = z.object({ message: z.string(), product: cjSavedItemSchema, created: z.boolean() });
export type CjSaveResponse = z.infer<typeof cjSaveResponseSchema>;

export const cjRefreshResponseSchema = z.object({ message: z.string(), product: cjSavedItemSchema });
export type CjRefreshResponse = z.infer<typeof cjRefreshResponseSchema>;

/** The public page of a saved supplier product (GET cj/products/saved/slug/{slug}). */
export const cjPublicProductSchema = productSchema.extend({
  isSaved: z.literal(true),
  vid: z.string(),
  variants: z.array(cjStoredVariantSchema),
  isDiscontinued: z.boolean(),
});
export type CjPublicProduct = z.infer<typeof cjPublicProductSchema>;

// ---------------------------------------------------------------------------------------------
// Supplier orders (paid orders forwarded to CJ)
// ---------------------------------------------------------------------------------------------

export const supplierOrderSchema = z.object({
  orderId: idSchema,
  status: z.enum(SUPPLIER_ORDER_STATUSES),
  source: supplierSourceSchema,
  /** CJ's order id once sent. */
  cjOrderId: z.string().nullable(),
  lastError: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** When the next attempt is due (pending only). */
  nextAttemptAt: z.string().nullable(),
  lines: z.array(z.object({ productId: z.string(), name: z.string(), vid: z.string(), quantity: z.number().int() })),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
});
export type SupplierOrder = z.infer<typeof supplierOrderSchema>;

export const supplierOrderListQuerySchema = z.object({
  page: pageParam('Page must be a whole number from 1 to 999999'),
  status: z.enum(['all', ...SUPPLIER_ORDER_STATUSES], { error: `Status must be all or one of: ${SUPPLIER_ORDER_STATUSES.join(', ')}` }).optional().default('all'),
});
export type SupplierOrderListParams = z.input<typeof supplierOrderListQuerySchema>;

export const supplierOrderListResponseSchema = z.object({ data: pageOf(supplierOrderSchema), source: supplierSourceSchema });
export type SupplierOrderListResponse = z.infer<typeof supplierOrderListResponseSchema>;

export const supplierOrderActionResponseSchema = z.object({ message: z.string(), supplierOrder: supplierOrderSchema });
export type SupplierOrderActionResponse = z.infer<typeof supplierOrderActionResponseSchema>;

export const supplierStatusSchema = z.object({ source: supplierSourceSchema, notice: z.string() });
export type SupplierStatus = z.infer<typeof supplierStatusSchema>;
