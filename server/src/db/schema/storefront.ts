import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn as createdAt, idColumn as id } from './users.ts';

/**
 * The catalogue's vocabulary (migration 0006): every distinct word of published products, kept
 * fresh by triggers on products. `form` is what full-text search is given for the word.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
    form: text('form').notNull(),
  },
  (t) => [index('search_words_word_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);

/** A newsletter subscription; the unsubscribe token is stored hashed. */
export const newsletterSubscriptions = pgTable(
  'newsletter_subscriptions',
  {
    id: id().primaryKey(),
    email: text('email').notNull(),
    unsubscribeTokenHash: text('unsubscribe_token_hash').notNull(),
    createdAt: createdAt(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('newsletter_subscriptions_email_key').on(t.email),
    uniqueIndex('newsletter_subscriptions_token_key').on(t.unsubscribeTokenHash),
  ],
);
