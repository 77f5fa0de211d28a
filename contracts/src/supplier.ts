import { z } from 'zod';
import { idSchema } from './common.ts';
import { PRODUCT_FORM_MESSAGES as M } from './constants.ts';
import { moneyField, wholeNumberField, wholeNumberParam } from './number-fields.ts';
import { moneyMessages, wholeNumberMessages } from './numbers.ts';
import { productSchema, sellableVariantSchema } from './products.ts';
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

/** A variant as the back office sees it: with the supplier's cost and our margin. */
export const savedVariantSchema = sellableVariantSchema.extend({
  supplierCost: z.number().nullable(),
  margin: z.number().nullable(),
  marginPercent: z.number().nullable(),
});
export type SavedVariant = z.infer<typeof savedVariantSchema>;

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

export const cjProductResponseSchema = cjProductSchema.extend({
  source: supplierSourceSchema,
  /**
   * The category an import starts with (issue 36): the closest of the shop's categories
   * (`isExisting`), else the last level of the supplier's path when none is close.
   */
  suggestedCategory: z.object({ category: z.string(), isExisting: z.boolean() }),
});
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
  /** Every variant, each with its own price, stock and cost (issue 20). */
  productVariants: z.array(savedVariantSchema).optional(),
  /** Set by the refresh when the supplier's cost rose above our price: not sold until repriced or confirmed. */
  supplierBelowCostAt: z.string().nullable().optional(),
});
export type CjSavedItem = z.infer<typeof cjSavedItemSchema>;

export const cjSavedListResponseSchema = z.object({ data: pageOf(cjSavedItemSchema) });
export type CjSavedListResponse = z.infer<typeof cjSavedListResponseSchema>;

const pageParam = (message: string) => wholeNumberParam({ fallback: 1, min: 1, max: 999_999, message });

/** GET cj/products and GET cj/products/saved: page from 1, limit (page size) 1-200, search text and category. */
export const cjListQuerySchema = z.object({
  page: pageParam('Page must be a whole number from 1 to 999999'),
  limit: wholeNumberParam({ fallback: CJ_PAGE_SIZE, min: 1, max: CJ_MAX_PAGE_SIZE, message: `Limit must be a whole number from 1 to ${CJ_MAX_PAGE_SIZE}` }),
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

const price = () => moneyField({ required: M.price, format: M.priceFormat, decimals: M.priceDecimals }).nullable();
const stock = () => wholeNumberField({ required: M.countInStock, format: M.countInStockFormat }).nullable();
/**
 * POST cj/products/save (SPEC "Save-supplier-product payload"). Only `pid` is required: fields left
 * out come from the supplier product (name, slug from the lower-cased English name, price from the
 * first part of sellPrice, stock 100, images, category, description). The product as it will be
 * saved must pass the product form rules (images included). Numbers are JSON numbers or decimal
 * strings, read by the one money and whole-number parsers ("0x10", "1e1": 400 naming the field).
 */
export const cjSaveBodySchema = z.object({
  pid: z.string().nullable().optional(),
  isSaved: z.boolean().optional(),
  vid: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  brand: z.string().nullable().optional(),
  countInStock: stock().optional(),
  slug: z.string().nullable().optional(),
  price: price().optional(),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  image: z.string().nullable().optional(),
  images: z.array(z.string()).nullable().optional(),
  isTodaysDeal: z.boolean().optional(),
  isGift: z.boolean().optional(),
  isOnSale: z.boolean().optional(),
  saleDiscount: wholeNumberField({ required: M.saleDiscount, format: M.saleDiscountFormat }).nullable().optional(),
  /** Per variant: selling price, stock, on/off (variants left out keep their values, or the pricing rule's). */
  variants: z.array(z.object({
    vid: z.string(),
    price: moneyField(moneyMessages('Variant price')).nullable().optional(),
    countInStock: wholeNumberField(wholeNumberMessages('Variant stock')).nullable().optional(),
    enabled: z.boolean().optional(),
  })).max(200).optional(),
  /** Save even though a selling price (after the sale discount) is below the supplier's cost. */
  confirmBelowCost: z.boolean().optional(),
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
  /** The variants on sale (enabled), each with its own price, stock and image. */
  productVariants: z.array(sellableVariantSchema).optional(),
});
export type CjPublicProduct = z.infer<typeof cjPublicProductSchema>;

// ---------------------------------------------------------------------------------------------
// Supplier orders (paid orders forwarded to CJ)
// ---------------------------------------------------------------------------------------------

export const supplierOrderSchema = z.object({
  orderId: idSchema,
  /** Our order's number (#1003), in the admin list; CJ knows the order by its id (`orderId`). */
  orderNumber: z.number().int().nullable().optional(),
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
  /** What CJ last reported (getOrderDetail): null until the first tracking poll. */
  shipment: z.lazy(() => shipmentSchema).nullable().optional(),
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

// ---------------------------------------------------------------------------------------------
// Pricing rule, tracking, freight (issue 20)
// ---------------------------------------------------------------------------------------------

export const PRICING_ROUNDINGS = ['.99', '.00'] as const;
export const DEFAULT_MARKUP_PERCENT = 50;

/**
 * GET/PUT /api/cj/pricing (admin): fills the price of newly imported products and variants. Markup
 * (a percent) and fixed amount are decimals with at most 2 places, read by the money parser.
 */
export const pricingRuleSchema = z.object({
  markupPercent: moneyField({ ...moneyMessages('Markup'), required: 'Markup must be a number' })
    .refine((v) => v >= 0 && v <= 1000, 'Markup must be from 0 to 1000 %'),
  fixedAmount: moneyField({ ...moneyMessages('Fixed amount'), required: 'Fixed amount must be a number' })
    .refine((v) => v >= 0 && v <= 10_000, 'Fixed amount must be from $0 to $10000')
    .default(0),
  rounding: z.enum(PRICING_ROUNDINGS, { error: 'Rounding must be .99 or .00' }),
});
export type PricingRule = z.infer<typeof pricingRuleSchema>;
export const pricingRuleResponseSchema = z.object({ pricing: pricingRuleSchema });
export type PricingRuleResponse = z.infer<typeof pricingRuleResponseSchema>;

/** The selling price the rule gives a supplier cost: cost + markup % + fixed, rounded up to .99 or .00. */
export function applyPricingRule(cost: number, rule: PricingRule): number {
  const raw = cost * (1 + rule.markupPercent / 100) + rule.fixedAmount;
  if (rule.rounding === '.00') return Math.max(1, Math.ceil(raw - 1e-9));
  const whole = Math.floor(raw + 1e-9);
  const price = whole + 0.99 >= raw - 1e-9 ? whole + 0.99 : whole + 1.99;
  return Math.round(price * 100) / 100;
}

/** "Price $0.01 is below the supplier cost $17.92" */
export const belowCostMessage = (price: number, cost: number) => `Price $${price.toFixed(2)} is below the supplier cost $${cost.toFixed(2)}`;

/** A forwarded order as CJ reports it (shopping/order/getOrderDetail); shoppers read it in the shop's words (toShopperShipment). */
export const shipmentSchema = z.object({
  /** Administrators: CJ's order status (e.g. UNSHIPPED, SHIPPED, DELIVERED). Shoppers: Processing, Shipped or Delivered. */
  status: z.string(),
  trackingNumber: z.string().nullable(),
  carrier: z.string().nullable(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  checkedAt: z.string(),
  /** Where the shopper follows the parcel (a public tracking site), once there is a tracking number. */
  trackingUrl: z.string().nullable().optional(),
});
export type Shipment = z.infer<typeof shipmentSchema>;


/** POST /api/orders/shipping-quote: the shipping price of the signed-in user's cart to a country. */
export const shippingQuoteBodySchema = z.object({
  country: z.string({ error: 'Country is required' }).trim().min(1, 'Country is required').max(100, 'Country is too long'),
});
export type ShippingQuoteBody = z.infer<typeof shippingQuoteBodySchema>;
export const shippingQuoteSchema = z.object({
  /** What Place Order will charge for shipping this cart to the country (the server's rule: shipping/). */
  shippingPrice: z.number(),
  /** 'Standard shipping (7–12 days)' when the price holds the freight of separately shipped items, else null. */
  label: z.string().nullable(),
  /** Orders whose items reach this ship free (null: never). */
  freeOver: z.number().nullable(),
  /** Why the shop's standard rate was used for every item (the freight could not be quoted). */
  message: z.string().nullable(),
});
export type ShippingQuote = z.infer<typeof shippingQuoteSchema>;

export const FREIGHT_UNAVAILABLE_MESSAGE = 'Shipping for some items could not be quoted to this country right now: the shop\'s standard rate applies.';
export const SHIPPED_STATUS_LABEL = 'Shipped';
export const CHOOSE_VARIANT_MESSAGE = 'Please choose a variant';
export const VARIANT_NOT_FOUND_MESSAGE = 'This variant is not available';
