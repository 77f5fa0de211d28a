import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id, users } from './users.ts';

/**
 * Idempotency keys (0071, lib/idempotency.ts): per caller and key, the request's fingerprint and,
 * once done, its answer; claimed by `claim_token` until `locked_until` while it runs. Purged after 24 h.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    claimToken: text('claim_token'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);
