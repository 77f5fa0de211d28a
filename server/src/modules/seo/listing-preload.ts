import { CARD_IMAGE_SIZES, productSearchQuerySchema, uploadedImageSrcSet } from '@shop/contracts';
import type { Db } from '../../db/client.ts';
import type { HtmlTransform } from '../../lib/context.ts';
import { catalogueCacheFor } from '../products/catalogue-cache.ts';
import { RESPONSE_TTL_MS } from '../products/cached-response.ts';
import { listHomeProducts } from '../products/list-home-products.ts';
import { searchProducts } from '../products/search-products.ts';
import { escapeHtml } from './html.ts';

/** The preload tag of an image: the same srcset and sizes as the element showing it, so the browser reuses it. */
export function imagePreload(src: string, sizes: string): string {
  const srcSet = uploadedImageSrcSet(src);
  const responsive = srcSet ? ` imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(sizes)}"` : '';
  return `<link rel="preload" as="image" href="${escapeHtml(src)}"${responsive} fetchpriority="high" />`;
}

/**
 * The cards whose images are preloaded: the first two rows on a phone, the first row on a
 * desktop, loaded eagerly by the pages too. Any of them can be the largest paint (the cards are
 * the same size, sub-pixel widths decide), so preloading only the first is not enough.
 */
export const PRELOADED_CARDS = 4;

/**
 * HTML transform for the home page and the unfiltered search page: preloads the images of the
 * first product cards (the largest paint on a phone), which the browser would otherwise find only
 * after the app has fetched the products and rendered.
 */
export function createListingPreloadTransform(deps: { db: Db }): HtmlTransform {
  const cache = catalogueCacheFor(deps.db);
  const pages: Record<string, { sizes: string; firstProducts: () => Promise<Array<{ image: string }>> }> = {
    '/': { sizes: CARD_IMAGE_SIZES.home, firstProducts: () => listHomeProducts(deps.db, PRELOADED_CARDS) },
    '/search': {
      sizes: CARD_IMAGE_SIZES.search,
      firstProducts: async () => (await searchProducts(deps.db, cache, productSearchQuerySchema.parse({}))).products,
    },
  };
  return async (request, html) => {
    // A page rendered on the server holds the cards: React's own preloads of their images are in its head.
    if (request.serverRendered) return null;
    const page = Object.hasOwn(pages, request.url) ? pages[request.url] : undefined;
    if (!page) return null;
    let tags: string;
    try {
      tags = await cache.remember(`preload\u0000${request.url}`, RESPONSE_TTL_MS, async () =>
        (await page.firstProducts())
          .slice(0, PRELOADED_CARDS)
          .filter((p) => p.image)
          .map((p) => `  ${imagePreload(p.image, page.sizes)}\n`)
          .join(''));
    } catch (err) {
      // Only a hint: the page works without it.
      request.log.warn({ err }, 'could not find the product images to preload');
      return null;
    }
    const headEnd = html.search(/<\/head>/i);
    if (!tags || headEnd === -1) return null;
    return `${html.slice(0, headEnd)}${tags}  ${html.slice(headEnd)}`;
  };
}
