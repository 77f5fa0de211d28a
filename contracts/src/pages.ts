import { z } from 'zod';

/** The shop's information pages, linked from the footer, at /pages/:slug. */
export const PAGE_SLUGS = ['faq', 'shipping', 'returns', 'terms', 'about', 'contact'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export const PAGE_NOT_FOUND = 'Page Not Found';
export const PAGE_UPDATED = 'Page Updated';
export const PAGE_TITLE_MAX = 120;
export const PAGE_BODY_MAX = 20_000;
export const FAQ_MAX_ENTRIES = 50;

/** One question the FAQ page shows and the chat assistant answers from (when a message holds a keyword). */
export const faqEntrySchema = z.object({
  question: z.string({ error: 'Question is required' }).trim().min(1, 'Question is required').max(300, 'Question can be at most 300 characters'),
  answer: z.string({ error: 'Answer is required' }).trim().min(1, 'Answer is required').max(2000, 'Answer can be at most 2000 characters'),
  /** Lowercase words or phrases; a chat message containing one of them gets this answer. */
  keywords: z
    .array(z.string().trim().toLowerCase().min(1, 'Keywords cannot be empty').max(60, 'A keyword can be at most 60 characters'))
    .min(1, 'Add at least one keyword')
    .max(30, 'At most 30 keywords'),
});
export type FaqEntryInput = z.infer<typeof faqEntrySchema>;
export const faqEntryResponseSchema = faqEntrySchema.extend({ id: z.string() });
export type FaqEntryResponse = z.infer<typeof faqEntryResponseSchema>;

export const pageSlugParamsSchema = z.object({ slug: z.string().max(40) });

/** GET pages/:slug: title and Markdown body (rendered without raw HTML); the FAQ page also lists its entries. */
export const pageSchema = z.object({
  slug: z.enum(PAGE_SLUGS),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string(),
  faq: z.array(faqEntryResponseSchema).optional(),
});
export type Page = z.infer<typeof pageSchema>;

/** GET pages/{slug}?source=true: the text as stored, shipping placeholders unfilled (the page editor). */
export const pageSourceQuerySchema = z.object({
  source: z.enum(['true', 'false'], { error: "source must be 'true' or 'false'" }).optional(),
});

/** GET pages: every page, for the footer and Admin → Pages. */
export const pageListSchema = z.object({ pages: z.array(pageSchema.pick({ slug: true, title: true, updatedAt: true })) });
export type PageList = z.infer<typeof pageListSchema>;

/** PUT pages/:slug (admin). `faq` (only on the FAQ page) replaces every entry, in this order. */
export const pageUpdateBodySchema = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(PAGE_TITLE_MAX, `Title can be at most ${PAGE_TITLE_MAX} characters`),
  body: z.string({ error: 'Content is required' }).max(PAGE_BODY_MAX, `Content can be at most ${PAGE_BODY_MAX} characters`),
  faq: z.array(faqEntrySchema).max(FAQ_MAX_ENTRIES, `At most ${FAQ_MAX_ENTRIES} questions`).optional(),
});
export type PageUpdateBody = z.infer<typeof pageUpdateBodySchema>;
