import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The information pages linked from the footer (migration 0040): Markdown bodies, edited in Admin → Pages. */
export const pages = pgTable('pages', {
  slug: text('slug').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The FAQ page's questions, which the chat assistant also answers from (by keyword). */
export const faqEntries = pgTable(
  'faq_entries',
  {
    id: text('id').primaryKey(),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    keywords: text('keywords').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('faq_entries_position_idx').on(t.position)],
);
