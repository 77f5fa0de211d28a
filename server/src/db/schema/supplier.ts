import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
