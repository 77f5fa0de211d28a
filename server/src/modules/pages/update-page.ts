import { PAGE_NOT_FOUND, type Page, type PageUpdateBody } from '@shop/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { faqEntries, pages } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { getPage, isPageSlug } from './get-page.ts';

/**
 * Saves a page's title and Markdown body (admin). On the FAQ page `faq`, when given, replaces every
 * question in the order sent, in the same transaction. Other pages refuse `faq` with a 400.
 */
export async function updatePage(db: Db, slug: string, input: PageUpdateBody): Promise<Page> {
  if (!isPageSlug(slug)) throw notFound(PAGE_NOT_FOUND);
  if (input.faq && slug !== 'faq') throw badRequest('Only the FAQ page has questions', { faq: 'Only the FAQ page has questions' });
  await db.transaction(async (tx) => {
    const updated = await tx.update(pages).set({ title: input.title, body: input.body, updatedAt: sql`now()` })
      .where(eq(pages.slug, slug)).returning({ slug: pages.slug });
    if (!updated.length) throw notFound(PAGE_NOT_FOUND);
    if (input.faq) {
      await tx.delete(faqEntries);
      if (input.faq.length) {
        await tx.insert(faqEntries).values(input.faq.map((e, i) => ({
          id: newId(), position: i + 1, question: e.question, answer: e.answer, keywords: [...new Set(e.keywords)],
        })));
      }
    }
  });
  return getPage(db, slug);
}
