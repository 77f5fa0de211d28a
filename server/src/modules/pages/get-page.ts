import { PAGE_NOT_FOUND, PAGE_SLUGS, type Page, type PageSlug } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pages } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { getShippingSettings, fillShippingPlaceholders } from '../shipping/index.ts';
import { listFaqEntries } from './list-faq-entries.ts';

export const isPageSlug = (slug: string): slug is PageSlug => (PAGE_SLUGS as readonly string[]).includes(slug);

/**
 * One information page; the FAQ page with its questions. Unknown slug → 404 'Page Not Found'. The
 * shipping placeholders (`{{shipping.summary}}`...) are filled from the shipping settings, so the
 * page promises what checkout charges; `source` answers the text as stored (the page editor).
 */
export async function getPage(db: Executor, slug: string, opts: { source?: boolean } = {}): Promise<Page> {
  if (!isPageSlug(slug)) throw notFound(PAGE_NOT_FOUND);
  const [row] = await db.select().from(pages).where(eq(pages.slug, slug)).limit(1);
  if (!row) throw notFound(PAGE_NOT_FOUND);
  const page: Page = { slug, title: row.title, body: row.body, updatedAt: row.updatedAt.toISOString() };
  if (slug === 'faq') page.faq = await listFaqEntries(db, opts);
  if (opts.source) return page;
  const settings = await getShippingSettings(db);
  return { ...page, body: fillShippingPlaceholders(page.body, settings) };
}
