import { PRODUCT_FORM_MESSAGES, REVIEW_MESSAGES } from '@shop/contracts';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../lib/auth.ts';
import { seoRoutes } from '../seo/seo.routes.ts';
import { CACHED_READ_ROUTE, sendCached } from './cached-response.ts';
import { catalogueCacheFor, notifyCatalogueChanged } from './catalogue-cache.ts';
import { createDraftProduct } from './create-draft-product.ts';
import { createReview } from './create-review.ts';
import { deleteProduct } from './delete-product.ts';
import { getProductById, getProductBySlug } from './get-product.ts';
import { listAdminProducts } from './list-admin-products.ts';
import { listCategories } from './list-categories.ts';
import { listHomeProducts } from './list-home-products.ts';
import {
  createProductSchema, createReviewSchema, deleteProductSchema, getProductByIdSchema, getProductBySlugSchema,
  listAdminProductsSchema, myReviewSchema, listCategoriesSchema, listHomeProductsSchema, searchProductsSchema, updateProductSchema,
} from './products.schemas.ts';
import { findMyReview } from './find-my-review.ts';
import { searchProducts } from './search-products.ts';
import { updateProduct } from './update-product.ts';

const productsApi: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const cache = catalogueCacheFor(db);

  app.get('/products', { config: { access: 'public' }, schema: listHomeProductsSchema, ...CACHED_READ_ROUTE }, async (request, reply) =>
    sendCached(request, reply, cache, 'home', listHomeProductsSchema.response[200], () => listHomeProducts(db)));

  app.get('/products/search', { config: { access: 'public' }, schema: searchProductsSchema, ...CACHED_READ_ROUTE }, async (request, reply) => {
    const q = request.query;
    const key = `search\u0000${q.query.toLowerCase()}\u0000${q.category}\u0000${q.price}\u0000${q.rating}\u0000${q.order}\u0000${q.page}\u0000${q.tag}`;
    return sendCached(request, reply, cache, key, searchProductsSchema.response[200], () => searchProducts(db, cache, q));
  });

  app.get('/products/categories', { config: { access: 'public' }, schema: listCategoriesSchema }, async () =>
    listCategories(db, cache));

  app.get('/products/admin', { config: { access: 'admin' }, schema: listAdminProductsSchema }, async (request) =>
    listAdminProducts(db, request.query));

  app.get('/products/slug/:slug', { config: { access: 'public' }, schema: getProductBySlugSchema, ...CACHED_READ_ROUTE }, async (request, reply) =>
    sendCached(request, reply, cache, `slug\u0000${request.params.slug}`, getProductBySlugSchema.response[200], () =>
      getProductBySlug(db, request.params.slug)));

  app.get('/products/:id', { config: { access: 'public', optionalUser: true }, schema: getProductByIdSchema }, async (request) =>
    getProductById(db, request.params.id, { includeDrafts: request.user?.isAdmin === true }));

  app.post('/products', { config: { access: 'admin' }, schema: createProductSchema }, async (_request, reply) => {
    const product = await createDraftProduct(db);
    notifyCatalogueChanged(db);
    return reply.status(201).send({ message: PRODUCT_FORM_MESSAGES.created, product });
  });

  app.put('/products/:id', { config: { access: 'admin' }, schema: updateProductSchema }, async (request) => {
    const product = await updateProduct(db, request.params.id, request.body);
    notifyCatalogueChanged(db);
    return { message: PRODUCT_FORM_MESSAGES.updated, product };
  });

  app.delete('/products/:id', { config: { access: 'admin' }, schema: deleteProductSchema }, async (request) => {
    await deleteProduct(db, request.params.id);
    notifyCatalogueChanged(db);
    return { message: PRODUCT_FORM_MESSAGES.deleted };
  });

  app.get('/products/:productId/reviews/mine', { config: { access: 'user' }, schema: myReviewSchema }, async (request) =>
    ({ review: await findMyReview(db, request.params.productId, requireUser(request).id) }));

  app.post('/products/:productId/reviews', { config: { access: 'user' }, schema: createReviewSchema }, async (request, reply) => {
    const result = await createReview(db, request.params.productId, requireUser(request), request.body ?? {});
    notifyCatalogueChanged(db);
    return reply.status(201).send({ message: REVIEW_MESSAGES.created, ...result });
  });
};

/**
 * The catalogue: the products API under /api, plus the SEO routes that live at the site root
 * (/sitemap.xml, /robots.txt) and the product-page HTML transform. Wrapped with fastify-plugin so
 * that the root routes are not put under the /api prefix the module list applies; the API part
 * adds that prefix itself.
 */
export const productsRoutes = fp(
  async (app) => {
    await app.register(productsApi, { prefix: '/api' });
    await app.register(seoRoutes);
  },
  { name: 'products-module' },
);
