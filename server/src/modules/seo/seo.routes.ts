import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { wholeNumberParam } from '@shop/contracts';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { catalogueCacheFor } from '../products/catalogue-cache.ts';
import { listCategories } from '../products/list-categories.ts';
import { createListingPreloadTransform } from './listing-preload.ts';
import { createProductPageTransform } from './product-page-tags.ts';
import { createRoutePreloadTransform } from './route-preload.ts';
import { renderPagesSitemap, renderProductsSitemap, renderRobots, renderSitemap } from './sitemap.ts';

const SITEMAP_TTL_MS = 5 * 60_000;
const CACHE_HEADER = 'public, max-age=3600';
const schema = { hide: true } as const;

/**
 * Site-root SEO routes (/robots.txt, /sitemap.xml), the product-page HTML transform, the
 * preload of the first card image on the home and search pages, and the preload of each page's
 * code and first API reads.
 * The server is the one source of robots.txt because its Sitemap line needs the site's absolute
 * URL; a robots.txt in the web build would clash with this route, so it is only served here when
 * the build has none.
 */
export const seoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const cache = catalogueCacheFor(db);
  app.ctx.htmlTransforms.push(
    createProductPageTransform({ db, config }),
    createListingPreloadTransform({ db }),
    // The build this instance started with: the one its pages are (lib/web-build.ts).
    createRoutePreloadTransform({ webDistDir: app.ctx.webBuild.own }),
  );

  if (existsSync(path.join(app.ctx.webBuild.own, 'robots.txt'))) {
    app.log.warn('web build contains robots.txt; serving it instead of the generated one (remove web/public/robots.txt)');
  } else {
    app.get('/robots.txt', { config: { access: 'public' }, schema }, async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', CACHE_HEADER).send(renderRobots(config.siteUrl)));
  }

  // Every absolute URL below is on config.siteUrl (PUBLIC_URL, else localhost outside production),
  // never on the request's Host: a forged Host cannot reach a crawler or a cached sitemap.
  const origin = config.siteUrl;
  app.get('/sitemap.xml', { config: { access: 'public' }, schema }, async (_request, reply) => {
    const xml = await cache.remember('sitemap', SITEMAP_TTL_MS, async () =>
      renderSitemap(db, origin, await listCategories(db, cache)));
    return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE_HEADER).send(xml);
  });

  app.get('/sitemaps/pages.xml', { config: { access: 'public' }, schema }, async (_request, reply) => {
    const xml = renderPagesSitemap(origin, await listCategories(db, cache));
    return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE_HEADER).send(xml);
  });

  app.get(
    '/sitemaps/products-:part.xml',
    { config: { access: 'public' }, schema: { ...schema, params: z.object({ part: wholeNumberParam({ fallback: 1, min: 1, max: 10_000, message: 'Sitemap part must be a whole number from 1' }) }) } },
    async (request, reply) => {
      const xml = await cache.remember(`sitemap\u0000${request.params.part}`, SITEMAP_TTL_MS, () =>
        renderProductsSitemap(db, origin, request.params.part));
      if (!xml) throw notFound('Sitemap not found');
      return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE_HEADER).send(xml);
    },
  );
};
