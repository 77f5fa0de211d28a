import { PAGE_SLUGS, type PageList, type PageSlug } from '@shop/contracts';
import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pages } from '../../db/schema.ts';

/** Every information page (title and last change), in footer order. */
export async function listPages(db: Executor): Promise<PageList> {
  const rows = await db.select({ slug: pages.slug, title: pages.title, updatedAt: pages.updatedAt }).from(pages)
    .where(inArray(pages.slug, [...PAGE_SLUGS]));
  const order = (slug: string) => PAGE_SLUGS.indexOf(slug as PageSlug);
  return {
    pages: rows
      .sort((a, b) => order(a.slug) - order(b.slug))
      .map((r) => ({ slug: r.slug as PageSlug, title: r.title, updatedAt: r.updatedAt.toISOString() })),
  };
}
