import { z } from 'zod';
import { pageParam, pageSizeParam } from './backoffice.ts';
import { idSchema } from './common.ts';
import { apiDate } from './dates.ts';
import { moneyField, wholeNumberField } from './number-fields.ts';
import { moneyMessages, wholeNumberMessages } from './numbers.ts';

/**
 * Discount codes (issue 34.1).
 *   GET    /api/discounts?page&pageSize&search  -> DiscountListResponse (admin; newest first; search matches the code)
 *   POST   /api/discounts         DiscountBody  -> 201 DiscountMessageResponse (admin; 409 when the code exists, any case)
 *   GET    /api/discounts/:id                   -> Discount (admin)
 *   PUT    /api/discounts/:id     DiscountBody  -> DiscountMessageResponse (admin)
 *   DELETE /api/discounts/:id                   -> { message } (admin; orders keep their code and discount)
 *   POST   /api/cart/discount     { code }      -> Cart with `discount` (user; 400 with the reason when the code cannot be used)
 *   DELETE /api/cart/discount                   -> Cart without a discount (user)
 *   POST   /api/orders            { ..., discountCode } checks the code again, with the same messages.
 * The server computes every amount; a discount never takes a supplier line below its supplier cost
 * unless `allowBelowSupplierCost`, and never makes an order free (at least $0.01 of its items is paid).
 */
export const DISCOUNT_KINDS = ['percent', 'fixed', 'free_shipping'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];
export const DISCOUNT_CODE_MAX = 40;
export const DISCOUNTS_PAGE_SIZE = 20;
export const DISCOUNT_FIXED_MAX = 100_000;

const money = (amount: number) => `$${amount.toFixed(2)}`;

/** Every discount message, in one place (docs/shop-rules.md lists them). */
export const DISCOUNT_MESSAGES = {
  codeRequired: 'Please enter a discount code',
  unknown: 'This discount code is not valid',
  notStarted: 'This discount code is not active yet',
  expired: 'This discount code has expired',
  minimum: (minSubtotal: number) => `Spend at least ${money(minSubtotal)} to use this discount code`,
  usedUp: 'This discount code has been used up',
  usedByYou: 'You have already used this discount code',
  notApplicable: 'This discount code does not apply to the items in your cart',
  applied: (kind: DiscountKind, value: number) =>
    kind === 'percent' ? `Discount applied: ${value}% off` : kind === 'fixed' ? `Discount applied: ${money(value)} off` : 'Discount applied: free shipping',
  removed: 'Discount code removed',
  created: 'Discount created',
  updated: 'Discount updated',
  deleted: 'Discount deleted',
  notFound: 'Discount not found',
  codeTaken: 'A discount with this code already exists',
  pricesChanged: 'Prices in your cart changed while the order was being placed. Please review your cart and try again.',
} as const;

/** A code as typed: trimmed, letters, digits, '-' and '_'; compared case-insensitively. */
export const discountCodeField = z
  .string({ error: DISCOUNT_MESSAGES.codeRequired })
  .trim()
  .min(1, DISCOUNT_MESSAGES.codeRequired)
  .max(DISCOUNT_CODE_MAX, `Code must be at most ${DISCOUNT_CODE_MAX} characters`);

const nullable = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), schema.nullable());

export const discountBodySchema = z
  .object({
    code: discountCodeField.regex(/^[A-Za-z0-9_-]+$/, 'Code may contain only letters, digits, - and _'),
    kind: z.enum(DISCOUNT_KINDS, { error: `Kind must be one of ${DISCOUNT_KINDS.join(', ')}` }),
    value: moneyField(moneyMessages('Value')).default(0),
    minSubtotal: nullable(moneyField(moneyMessages('Minimum subtotal')).refine((v) => v >= 0, 'Minimum subtotal must be 0 or more')),
    startsAt: nullable(apiDate('Start date')),
    endsAt: nullable(apiDate('End date')),
    usageLimit: nullable(wholeNumberField(wholeNumberMessages('Usage limit', '100')).refine((v) => v >= 1 && v <= 1_000_000, 'Usage limit must be between 1 and 1000000')),
    perCustomerLimit: nullable(wholeNumberField(wholeNumberMessages('Per-customer limit', '1')).refine((v) => v >= 1 && v <= 1000, 'Per-customer limit must be between 1 and 1000')),
    productIds: z.array(idSchema, { error: 'Product ids must be a list' }).max(200, 'At most 200 products').default([]),
    categories: z.array(z.string().trim().min(1).max(100), { error: 'Categories must be a list' }).max(50, 'At most 50 categories').default([]),
    enabled: z.boolean({ error: 'Enabled must be true or false' }).default(true),
    /** The discount may take a supplier line below what the supplier charges us. */
    allowBelowSupplierCost: z.boolean({ error: 'allowBelowSupplierCost must be true or false' }).default(false),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'percent' && !(Number.isInteger(b.value) && b.value >= 1 && b.value <= 100)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'A percentage must be a whole number from 1 to 100' });
    }
    if (b.kind === 'fixed' && !(b.value >= 0.01 && b.value <= DISCOUNT_FIXED_MAX)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `A fixed amount must be between 0.01 and ${DISCOUNT_FIXED_MAX}` });
    }
    if (b.startsAt && b.endsAt && new Date(b.endsAt).getTime() <= new Date(b.startsAt).getTime()) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'End date must be after the start date' });
    }
  })
  .transform((b) => ({ ...b, code: b.code.toUpperCase(), value: b.kind === 'free_shipping' ? 0 : b.value }));
export type DiscountBody = z.infer<typeof discountBodySchema>;
export type DiscountBodyInput = z.input<typeof discountBodySchema>;

export const discountSchema = z.object({
  _id: idSchema,
  code: z.string(),
  kind: z.enum(DISCOUNT_KINDS),
  /** percent: 1-100; fixed: dollars; free_shipping: 0. */
  value: z.number(),
  minSubtotal: z.number().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  productIds: z.array(z.string()),
  categories: z.array(z.string()),
  enabled: z.boolean(),
  allowBelowSupplierCost: z.boolean(),
  /** Uses held by orders placed and not expired or cancelled. */
  timesUsed: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Discount = z.infer<typeof discountSchema>;

export const listDiscountsQuerySchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam(DISCOUNTS_PAGE_SIZE, 100),
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
});
export type ListDiscountsQuery = z.infer<typeof listDiscountsQuerySchema>;

export const discountListResponseSchema = z.object({
  discounts: z.array(discountSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countDiscounts: z.number().int(),
});
export type DiscountListResponse = z.infer<typeof discountListResponseSchema>;

export const discountMessageResponseSchema = z.object({ message: z.string(), discount: discountSchema });
export type DiscountMessageResponse = z.infer<typeof discountMessageResponseSchema>;

export const applyCartDiscountBodySchema = z.object({ code: discountCodeField });
export type ApplyCartDiscountBody = z.infer<typeof applyCartDiscountBodySchema>;

/**
 * The code applied to the cart, recomputed on every cart answer. `isValid` false: the code no longer
 * applies to the cart as it is now (`message` says why; amount 0); it is checked again at checkout.
 * A free-shipping code's amount is 0 in the cart: the shipping it saves is known at checkout.
 */
export const cartDiscountSchema = z.object({
  code: z.string(),
  amount: z.number(),
  message: z.string(),
  isValid: z.boolean(),
  kind: z.enum(DISCOUNT_KINDS),
});
export type CartDiscount = z.infer<typeof cartDiscountSchema>;
