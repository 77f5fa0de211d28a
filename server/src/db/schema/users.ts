import { sql } from 'drizzle-orm';
import { boolean, char, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const id = (name = 'id') => char(name, { length: 24 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id().primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/** One row per signed-in device; revoking it ends the session everywhere it is used. */
export const sessions = pgTable(
  'sessions',
  {
    id: id().primaryKey(),
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes. A token is used once; reuse revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id().primaryKey(),
    sessionId: id('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('refresh_tokens_token_hash_key'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_id_idx').on(t.sessionId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id().primaryKey(),
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_key'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_id_idx').on(t.userId)],
);

/**
 * Mail that was sent (or would have been, without SMTP). `text` and `html` are sealed
 * (lib/mail-seal.ts) and erased ('' / null) once sent or once the mail's link expired.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: id().primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A mail carrying a link: when the link expires (its body is erased then, 0030). */
    eraseAfter: timestamp('erase_after', { withTimezone: true }),
    /** When the body was erased (sent, or its link expired). */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_to_idx').on(t.to),
    index('outbox_erase_after_idx').on(t.eraseAfter).where(sql`erased_at IS NULL AND erase_after IS NOT NULL`),
  ],
);

/**
 * A sign-up waiting for its e-mail confirmation: the password is already hashed, the link's token
 * is stored as a SHA-256 hash, single-use and expiring. Confirming creates the user (0004).
 */
export const signupRequests = pgTable(
  'signup_requests',
  {
    id: id().primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    tokenHash: text('token_hash').notNull().unique('signup_requests_token_hash_key'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('signup_requests_email_idx').on(sql`lower(${t.email})`)],
);

/**
 * A change of an account's e-mail waiting for the new address to confirm it (0060): the link's token
 * is stored as a SHA-256 hash, single-use and expiring. Confirming sets users.email; a newer request
 * or a password reset cancels it.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: id().primaryKey(),
    userId: id('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique('email_changes_token_hash_key'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [index('email_changes_user_id_idx').on(t.userId)],
);

export { id as idColumn, createdAt as createdAtColumn };
