import { PRODUCT_IMAGE_SIZES } from '@shop/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { HtmlTransform } from '../../lib/context.ts';
import { finalPrice } from '../../lib/money.ts';
import { findPublishedProductBySlug } from '../products/get-product.ts';
import { hasOptions, type ProductRow } from '../products/product-rows.ts';
import { escapeHtml, jsonForScript, rewriteHead, summarize } from './html.ts';
import { imagePreload } from './listing-preload.ts';
import { absoluteUrl } from './site-url.ts';

export const SITE_NAME = 'Shop';
const PRODUCT_PATH = /^\/product\/([^/?#]+)\/?(?:[?#]|$)/;
const SUPPLIER_PRODUCT_PATH = /^\/cj-product\/([^/?#]+)\/?(?:[?#]|$)/;

const meta = (attr: 'name' | 'property', key: string, content: string) =>
  `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;

/** schema.org Product for a product page. */
export function productJsonLd(p: ProductRow, pageUrl: string, origin: string): Record<string, unknown> {
  const images = [p.image, ...p.images].filter(Boolean).map((i) => absoluteUrl(origin, i));
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description: summarize(p.description, 5000),
    image: [...new Set(images)],
    sku: p.id,
    ...(p.category ? { category: p.category } : {}),
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    url: pageUrl,
    offers: {
      url: pageUrl,
      priceCurrency: 'USD',
      // Variants that differ in price (issue 34): the range paid, as schema.org's AggregateOffer.
      ...(hasOptions(p) && p.variantPriceMax !== null && p.variantPriceMax > p.price
        ? { '@type': 'AggregateOffer', lowPrice: finalPrice(p).toFixed(2), highPrice: finalPrice({ ...p, price: p.variantPriceMax }).toFixed(2) }
        : { '@type': 'Offer', price: finalPrice(p).toFixed(2) }),
      availability: p.countInStock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
    ...(p.numReviews > 0
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: Math.round(p.rating * 10) / 10, reviewCount: p.numReviews } }
      : {}),
  };
}

/**
 * The preload of the gallery's main image (ProductGallery shows the first of image and images), the
 * page's largest paint: fetched with the app's code instead of after the app has loaded the product.
 */
export function galleryImagePreload(p: Pick<ProductRow, 'image' | 'images'>): string[] {
  const main = p.image || p.images.find(Boolean);
  return main ? [imagePreload(main, PRODUCT_IMAGE_SIZES)] : [];
}

/** The head tags of a product page: main image preload, title, description, canonical, Open Graph, Twitter, JSON-LD. */
export function renderProductHead(html: string, p: ProductRow, origin: string, withImagePreload = true): string {
  const pageUrl = `${origin}/product/${encodeURIComponent(p.slug)}`;
  const description = summarize(p.description || `${p.name} by ${p.brand}`);
  const title = `${p.name} | ${SITE_NAME}`;
  const image = p.image ? absoluteUrl(origin, p.image) : undefined;
  const price = finalPrice(p).toFixed(2);
  const tags = [
    ...(withImagePreload ? galleryImagePreload(p) : []),
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(pageUrl)}" />`,
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', p.name),
    meta('property', 'og:description', description),
    meta('property', 'og:url', pageUrl),
    ...(image ? [meta('property', 'og:image', image), meta('property', 'og:image:alt', p.name)] : []),
    meta('property', 'product:price:amount', price),
    meta('property', 'product:price:currency', 'USD'),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', p.name),
    meta('name', 'twitter:description', description),
    ...(image ? [meta('name', 'twitter:image', image)] : []),
    `<script type="application/ld+json">${jsonForScript(productJsonLd(p, pageUrl, origin))}</script>`,
  ];
  return rewriteHead(html, title, tags);
}

/**
 * HTML transform for /product/{slug}: the page the server sends already carries the product's
 * title, description, canonical URL, Open Graph tags and JSON-LD, so crawlers and link previews
 * need no JavaScript. An unknown slug gets a 'Product Not Found' title and noindex.
 * A supplier product's page (/cj-product/{slug}) gets the preload of its main image only.
 */
export function createProductPageTransform(deps: { db: Db; config: Config }): HtmlTransform {
  return async (request, html) => {
    const supplier = SUPPLIER_PRODUCT_PATH.exec(request.url);
    const match = supplier ?? PRODUCT_PATH.exec(request.url);
    if (!match?.[1]) return null;
    let slug: string;
    try {
      slug = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    const product = await findPublishedProductBySlug(deps.db, slug);
    if (supplier) {
      // A supplier product's page (/cj-product/{slug}) carries no SEO tags, only its image's preload.
      const tags = product?.cjData && !request.serverRendered ? galleryImagePreload(product) : [];
      const headEnd = html.search(/<\/head>/i);
      if (!tags.length || headEnd === -1) return null;
      return `${html.slice(0, headEnd)}  ${tags.join('\n  ')}\n  ${html.slice(headEnd)}`;
    }
    if (!product) {
      return rewriteHead(html, `Product Not Found | ${SITE_NAME}`, [meta('name', 'robots', 'noindex')]);
    }
    // A page rendered on the server carries React's preload of the gallery's main image already.
    return renderProductHead(html, product, deps.config.siteUrl, !request.serverRendered);
  };
}
