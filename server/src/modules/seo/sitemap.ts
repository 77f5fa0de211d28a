import { asc, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { isPublished } from '../products/product-rows.ts';
import { escapeXml } from './html.ts';

/** The sitemap protocol allows 50,000 URLs per file; larger catalogues get a sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

function urlEntry(loc: string, lastmod?: Date, changefreq?: string): string {
  return `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}${changefreq ? `<changefreq>${changefreq}</changefreq>` : ''}</url>\n`;
}

export async function countPublishedProducts(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(isPublished);
  return Number(row?.n ?? 0);
}

async function productEntries(db: Executor, origin: string, offset: number, limit: number): Promise<string> {
  const rows = await db
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .where(isPublished)
    .orderBy(asc(products.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => urlEntry(`${origin}/product/${encodeURIComponent(r.slug)}`, r.updatedAt, 'weekly')).join('');
}

function pageEntries(origin: string, categories: string[]): string {
  return [
    urlEntry(`${origin}/`, undefined, 'daily'),
    urlEntry(`${origin}/search`, undefined, 'daily'),
    ...categories.map((c) => urlEntry(`${origin}/search?category=${encodeURIComponent(c)}`, undefined, 'daily')),
    urlEntry(`${origin}/privacy`, undefined, 'yearly'),
  ].join('');
}

/**
 * /sitemap.xml: the storefront pages and every published product. Past 50,000 URLs it becomes a
 * sitemap index over /sitemaps/pages.xml and /sitemaps/products-{n}.xml.
 */
export async function renderSitemap(db: Executor, origin: string, categories: string[], maxUrls = SITEMAP_MAX_URLS): Promise<string> {
  const count = await countPublishedProducts(db);
  const staticCount = categories.length + 3;
  if (count + staticCount <= maxUrls) {
    return `${XML_HEAD}${URLSET_OPEN}${pageEntries(origin, categories)}${await productEntries(db, origin, 0, count)}</urlset>\n`;
  }
  const parts = Math.ceil(count / maxUrls);
  const sitemaps = [`${origin}/sitemaps/pages.xml`, ...Array.from({ length: parts }, (_, i) => `${origin}/sitemaps/products-${i + 1}.xml`)];
  return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps
    .map((loc) => `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`)
    .join('')}</sitemapindex>\n`;
}

export function renderPagesSitemap(origin: string, categories: string[]): string {
  return `${XML_HEAD}${URLSET_OPEN}${pageEntries(origin, categories)}</urlset>\n`;
}

/** One part of the product sitemap (1-based); null past the end. */
export async function renderProductsSitemap(db: Executor, origin: string, part: number, maxUrls = SITEMAP_MAX_URLS): Promise<string | null> {
  const count = await countPublishedProducts(db);
  const offset = (part - 1) * maxUrls;
  if (part < 1 || offset >= count) return null;
  return `${XML_HEAD}${URLSET_OPEN}${await productEntries(db, origin, offset, maxUrls)}</urlset>\n`;
}

/** robots.txt: crawl the storefront, not the back office, the API or private pages. */
export function renderRobots(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin/',
    'Disallow: /api/',
    'Disallow: /cart',
    'Disallow: /shipping',
    'Disallow: /payment',
    'Disallow: /placeorder',
    'Disallow: /order/',
    'Disallow: /orderhistory',
    'Disallow: /profile',
    'Disallow: /signin',
    'Disallow: /signup',
    'Disallow: /forgot-password',
    'Disallow: /reset-password',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
