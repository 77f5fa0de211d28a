import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt } from './users.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Uploaded image originals shared by every app instance when the shop runs on PostgreSQL (the
 * embedded database keeps them on disk). Keys are never reused for other bytes, so `sha256` is
 * also the HTTP validator. Resized variants are not stored: each instance caches them on its disk.
 */
export const uploads = pgTable('uploads', {
  key: text('key').primaryKey(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  /** Hex SHA-256 of `data`. */
  sha256: text('sha256').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});
