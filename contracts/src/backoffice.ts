import { z } from 'zod';
import { idSchema } from './common.ts';
import { apiDate, calendarDay } from './dates.ts';
import { moneyMessages, numberProblemMessage, parseMoney, parseWholeNumber } from './numbers.ts';
import { ORDER_STATUSES, orderSchema } from './orders.ts';

// ---------------------------------------------------------------- users administration (issue 9)

export const USER_MESSAGES = {
  updated: 'User updated successfully',
  deleted: 'User deleted successfully',
  created: 'User created. A set-password e-mail is on its way.',
  notFound: 'User Not Found',
  formInvalid: 'Please fill all fields correctly!',
  cannotDeleteSelf: 'You cannot delete your own account',
  cannotDemoteSelf: 'You cannot remove your own admin rights',
  lastAdmin: 'The last administrator cannot be deleted or demoted',
  emailInUse: 'Email is already in use by another account',
} as const;

export const USERS_PAGE_SIZE_DEFAULT = 20;
export const USERS_PAGE_SIZE_MAX = 100;

/** Query numbers: digits only (numbers.ts), so "0x10" or "1e1" is a 400, not page 16 or 10. */
const wholeQueryNumber = (label: string, fallback: number, max: number, tooLarge: string) =>
  z
    .union([z.string(), z.number()], { error: `${label} must be a whole number` })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return fallback;
      const parsed = parseWholeNumber(v);
      const message = !parsed.ok ? `${label} must be a whole number` : parsed.value < 1 ? `${label} must be 1 or more` : parsed.value > max ? tooLarge : null;
      if (message) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return parsed.ok ? parsed.value : fallback;
    });
export const pageParam = wholeQueryNumber('Page', 1, 100_000, 'Page is too large');
export const pageSizeParam = (fallback: number, max: number) => wholeQueryNumber('Page size', fallback, max, `Page size must be at most ${max}`);

export const adminUserSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  numOrders: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const listUsersQuerySchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam(USERS_PAGE_SIZE_DEFAULT, USERS_PAGE_SIZE_MAX),
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

export const userListResponseSchema = z.object({
  users: z.array(adminUserSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countUsers: z.number().int(),
});
export type UserListResponse = z.infer<typeof userListResponseSchema>;

const userName = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters');
const userEmail = z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').toLowerCase()
  .pipe(z.email('Please enter a valid email address').max(254, 'Email must be at most 254 characters'));

/** PUT users/{id} (the spec's client also sends `id`; it is ignored in favour of the path). */
export const adminUpdateUserBodySchema = z.object({
  id: z.string().optional(),
  name: userName,
  email: userEmail,
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }),
});
export type AdminUpdateUserBody = z.infer<typeof adminUpdateUserBodySchema>;

/** POST users (admin): the account gets no password; the person sets one from a mailed link. */
export const adminCreateUserBodySchema = z.object({
  name: userName,
  email: userEmail,
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }).default(false),
});
export type AdminCreateUserBody = z.infer<typeof adminCreateUserBodySchema>;

export const adminUserMessageResponseSchema = z.object({ message: z.string(), user: adminUserSchema });
export type AdminUserMessageResponse = z.infer<typeof adminUserMessageResponseSchema>;

// ---------------------------------------------------------------- dashboard summary

export const SUMMARY_DEFAULT_DAYS = 30;
export const SUMMARY_MAX_DAYS = 366;
export const DASHBOARD_RANGES = [7, 30, 90] as const;
export const DASHBOARD_RECENT_ORDERS = 5;
export const TOP_PRODUCTS_OF_INTEREST = 5;

const isoDay = calendarDay('Dates', { format: 'Dates must look like YYYY-MM-DD', real: 'Dates must be real calendar days' });

export const summaryQuerySchema = z.object({ from: isoDay.optional(), to: isoDay.optional() });
export type SummaryQuery = z.infer<typeof summaryQuerySchema>;

const periodFigures = z.object({ totalSales: z.number(), numOrders: z.number().int(), numUsers: z.number().int() });

export const orderSummarySchema = z.object({
  /**
   * Paid orders in the period (by payment day, UTC). totalSales is net: paid minus refunded, each
   * refund counted on the day it was given (grossSales is paid alone, totalRefunds the refunds).
   */
  orders: z.array(z.object({ totalSales: z.number(), numOrders: z.number().int(), grossSales: z.number(), totalRefunds: z.number() })),
  /** numUsers: every account at the end of the period; newUsers: accounts created in it. */
  users: z.array(z.object({ numUsers: z.number().int(), newUsers: z.number().int() })),
  /** sales: net of the refunds given that day (refunds: given that day). */
  dailyOrders: z.array(z.object({ _id: z.string(), sales: z.number(), orders: z.number().int(), refunds: z.number() })),
  productCategories: z.array(z.object({ _id: z.string(), count: z.number().int() })),
  range: z.object({ from: z.string(), to: z.string(), days: z.number().int() }),
  /** Discount codes given on orders paid in the period (by payment day, UTC): the amount taken off, and how many orders. */
  discounts: z.object({ totalGiven: z.number(), numOrders: z.number().int() }).optional(),
  /** The same figures for the period of equal length just before. */
  previous: periodFigures.extend({ from: z.string(), to: z.string(), newUsers: z.number().int(), totalRefunds: z.number() }),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

// ---------------------------------------------------------------- leads

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export const LEAD_INTEREST_LEVELS = ['high', 'medium', 'low'] as const;
export const LEAD_NOTES_MAX = 2000;
export const LEAD_TEXT_MAX = 500;
export const LEADS_PAGE_SIZE_DEFAULT = 20;
export const LEAD_MESSAGES = {
  notFound: 'Lead not found',
  updated: 'Lead updated successfully',
  empty: 'No leads found',
} as const;

export const leadSchema = z.object({
  _id: idSchema,
  userId: z.string(),
  isGuest: z.boolean(),
  userName: z.string(),
  userEmail: z.string(),
  interestLevel: z.enum(LEAD_INTEREST_LEVELS),
  status: z.enum(LEAD_STATUSES),
  productsOfInterest: z.array(z.object({ productId: z.string(), name: z.string() })),
  lastInteraction: z.string(),
  notes: z.string(),
  followUpDate: z.string().nullable(),
  contactMethod: z.string().nullable(),
  qualificationCriteria: z.string().nullable(),
  nextSteps: z.string().nullable(),
  conversionDetails: z.string().nullable(),
  revenueAmount: z.number().nullable(),
  lossReason: z.string().nullable(),
  lossDetails: z.string().nullable(),
  createdAt: z.string(),
  /** When the person asked the chat assistant for a person or was upset ("Wants a person"); cleared by a chat reply or a status change. */
  wantsPersonAt: z.string().nullable().optional(),
});
export type Lead = z.infer<typeof leadSchema>;

export const listLeadsQuerySchema = z.object({
  status: z.enum(['all', ...LEAD_STATUSES], { error: `Status must be one of all, ${LEAD_STATUSES.join(', ')}` }).default('all'),
  interest: z.enum(['all', ...LEAD_INTEREST_LEVELS], { error: `Interest must be one of all, ${LEAD_INTEREST_LEVELS.join(', ')}` }).default('all'),
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  page: pageParam,
  pageSize: pageSizeParam(LEADS_PAGE_SIZE_DEFAULT, 100),
});
export type ListLeadsQuery = z.infer<typeof listLeadsQuerySchema>;

export const leadStatsSchema = z.object({
  total: z.number().int(),
  byStatus: z.record(z.enum(LEAD_STATUSES), z.number().int()),
  byInterest: z.record(z.enum(LEAD_INTEREST_LEVELS), z.number().int()),
  topProducts: z.array(z.object({ productId: z.string(), name: z.string(), count: z.number().int() })),
});
export type LeadStats = z.infer<typeof leadStatsSchema>;

export const leadListResponseSchema = z.object({
  leads: z.array(leadSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countLeads: z.number().int(),
  stats: leadStatsSchema,
});
export type LeadListResponse = z.infer<typeof leadListResponseSchema>;

const optionalText = (label: string) => z.string({ error: `${label} must be text` }).trim()
  .max(LEAD_TEXT_MAX, `${label} must be at most ${LEAD_TEXT_MAX} characters`).nullable().optional();

export const updateLeadBodySchema = z.object({
  status: z.enum(LEAD_STATUSES, { error: `Status must be one of ${LEAD_STATUSES.join(', ')}` }),
  notes: z.string({ error: 'Notes must be text' }).max(LEAD_NOTES_MAX, `Notes must be at most ${LEAD_NOTES_MAX} characters`).optional(),
  // '' or null clears it.
  followUpDate: apiDate('Follow-up date', { format: 'Follow-up date must be a valid date (YYYY-MM-DD)' }, { allowEmpty: true }).nullable().optional(),
  contactMethod: optionalText('Contact method'),
  qualificationCriteria: optionalText('Qualification criteria'),
  nextSteps: optionalText('Next steps'),
  conversionDetails: optionalText('Conversion details'),
  // '' or null clears it; otherwise the one money parser (numbers.ts): "0x10" or "1e3" is refused.
  revenueAmount: z
    .union([z.null(), z.number(), z.string()], { error: 'Revenue amount must be a number' })
    .transform((v, ctx) => {
      if (v === null) return null;
      if (typeof v === 'string' && v.trim() === '') return '' as const;
      const parsed = parseMoney(v);
      const message = !parsed.ok ? numberProblemMessage(parsed.problem, moneyMessages('Revenue amount'))
        : parsed.value < 0 ? 'Revenue amount must be 0 or more' : parsed.value > 1_000_000_000 ? 'Revenue amount is too large' : null;
      if (message || !parsed.ok) {
        ctx.addIssue({ code: 'custom', message: message ?? 'Revenue amount must be a number' });
        return z.NEVER;
      }
      return parsed.value;
    })
    .optional(),
  lossReason: optionalText('Reason for loss'),
  lossDetails: optionalText('Loss details'),
});
export type UpdateLeadBody = z.infer<typeof updateLeadBodySchema>;

export const updateLeadResponseSchema = z.object({ message: z.string(), lead: leadSchema });
export type UpdateLeadResponse = z.infer<typeof updateLeadResponseSchema>;

// ---------------------------------------------------------------- admin order list

export const ORDER_LIST_FILTERS = ['all', 'paid', 'unpaid', 'delivered', 'expired'] as const;
export const ORDERS_PAGE_SIZE = 20;

export const listOrdersQuerySchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam(ORDERS_PAGE_SIZE, 100),
  filter: z.enum(ORDER_LIST_FILTERS, { error: `Filter must be one of ${ORDER_LIST_FILTERS.join(', ')}` }).default('all'),
  /** One of ORDER_STATUSES (the order's `status`), or all. */
  status: z.enum(['all', ...ORDER_STATUSES], { error: `Status must be one of all, ${ORDER_STATUSES.join(', ')}` }).default('all'),
  /** Order number (#1003 or 1003), order id (or its start), customer name or e-mail, shipping name. */
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
});
export type ListOrdersQuery = z.infer<typeof listOrdersQuerySchema>;

export const adminOrderSchema = orderSchema.extend({ userEmail: z.string().nullable() });
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const orderListResponseSchema = z.object({
  orders: z.array(adminOrderSchema),
  page: z.number().int(),
  pages: z.number().int(),
  countOrders: z.number().int(),
});
export type OrderListResponse = z.infer<typeof orderListResponseSchema>;
