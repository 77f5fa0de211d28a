import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { orders } from './commerce.ts';
import { idColumn as id } from './users.ts';

/**
 * The supplier's API tokens (one row per provider), shared by every instance and kept across
 * restarts. Token values are encrypted (modules/supplier/token-store.ts); the API key is never
 * stored, only its fingerprint.
 */
export const supplierTokens = pgTable('supplier_tokens', {
  provider: text('provider').primaryKey(),
  keyFingerprint: text('key_fingerprint').notNull(),
  accessToken: text('access_token'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  refreshToken: text('refresh_token'),
  refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  /** One instance at a time renews the tokens; the others wait for its result. */
  renewingUntil: timestamp('renewing_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The pricing rule for newly imported supplier products and variants (one row, id 'default'). */
export const supplierPricing = pgTable(
  'supplier_pricing',
  {
    id: text('id').primaryKey().default('default'),
    markupPercent: numeric('markup_percent', { precision: 7, scale: 2, mode: 'number' }).notNull().default(50),
    fixedAmount: numeric('fixed_amount', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    rounding: text('rounding').notNull().default('.99'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('supplier_pricing_single', sql`${t.id} = 'default'`),
    check('supplier_pricing_markup_range', sql`${t.markupPercent} >= 0 AND ${t.markupPercent} <= 1000`),
    check('supplier_pricing_fixed_nonneg', sql`${t.fixedAmount} >= 0`),
    check('supplier_pricing_rounding', sql`${t.rounding} IN ('.99', '.00')`),
  ],
);

/** What the supplier reports about a forwarded order (polled by the supplier.tracking job). */
export const supplierShipments = pgTable(
  'supplier_shipments',
  {
    orderId: id('order_id').primaryKey().references(() => orders.id, { onDelete: 'cascade' }),
    cjOrderId: text('cj_order_id').notNull(),
    status: text('status').notNull().default(''),
    trackingNumber: text('tracking_number'),
    carrier: text('carrier'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The "your order has shipped" e-mail was recorded (once). */
    shippedMailAt: timestamp('shipped_mail_at', { withTimezone: true }),
  },
  (t) => [index('supplier_shipments_open_idx').on(t.checkedAt).where(sql`delivered_at IS NULL`)],
);
