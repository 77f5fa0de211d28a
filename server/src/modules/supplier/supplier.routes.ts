import { CJ_MESSAGES, SUPPLIER_SOURCE_NOTICES } from '@shop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { createCancelSupplierOrder } from './cancel-supplier-order.ts';
import { createFreightQuoter } from './freight.ts';
import { getPricingRule, savePricingRule } from './pricing-rule.ts';
import { refreshTrackingNow } from './supplier-tracking.ts';
import { notifyCatalogueChanged } from '../products/index.ts';
import { createSupplierCatalogue, registerSupplierJobs } from './supplier-setup.ts';
import { getSupplierProduct, listSupplierCategories, listSupplierProducts } from './list-supplier-products.ts';
import { renderOfflineImage } from './offline-catalogue.ts';
import { refreshSavedProduct } from './refresh-supplier-products.ts';
import { saveSupplierProduct } from './save-supplier-product.ts';
import { deleteSavedProduct, getPublicSupplierProduct, getSavedProduct, listSavedProducts } from './saved-products.ts';
import * as s from './supplier.schemas.ts';
import { getSupplierOrder, listSupplierOrders, retrySupplierOrder } from './supplier-orders.ts';

const admin = { access: 'admin' } as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Supplier (CJ) catalogue: browse, save as products, refresh, delete; supplier orders; offline images. */
export const supplierRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  const catalogue = createSupplierCatalogue(app.ctx, app.log);
  registerSupplierJobs(app.ctx, catalogue, app.log);
  // Cancelling a paid order (payments module) withdraws its supplier order through us first.
  app.ctx.cancelSupplierOrder = createCancelSupplierOrder({ db, catalogue, log: app.log });
  const source = catalogue.source;

  app.get('/cj/status', { config: admin, schema: s.statusSchema }, async () => ({ source, notice: SUPPLIER_SOURCE_NOTICES[source] }));

  app.get('/cj/categories', { config: admin, schema: s.categoriesSchema }, async () => listSupplierCategories(catalogue));

  app.get('/cj/products', { config: admin, schema: s.listSchema }, async (request) => listSupplierProducts(db, catalogue, request.query));

  app.get('/cj/products/saved', { config: admin, schema: s.listSavedSchema }, async (request) => listSavedProducts(db, request.query));

  app.get('/cj/products/saved/slug/:slug', { config: { access: 'public' }, schema: s.getBySlugSchema }, async (request) =>
    getPublicSupplierProduct(db, request.params.slug));

  app.get('/cj/products/saved/:id', { config: admin, schema: s.getSavedSchema }, async (request) => getSavedProduct(db, request.params.id));

  app.post('/cj/products/saved/:id/refresh', { config: admin, schema: s.refreshSchema }, async (request) => {
    const result = await refreshSavedProduct(db, catalogue, request.params.id);
    notifyCatalogueChanged(db);
    return result;
  });

  app.get('/cj/products/:id', { config: admin, schema: s.getSchema }, async (request) => getSupplierProduct(db, catalogue, request.params.id));

  app.post('/cj/products/save', { config: admin, schema: s.saveSchema }, async (request, reply) => {
    const { product, created } = await saveSupplierProduct(db, catalogue, request.body ?? {});
    notifyCatalogueChanged(db);
    return reply.status(created ? 201 : 200).send({ message: CJ_MESSAGES.saved, product, created });
  });

  app.delete('/cj/products/:id', { config: admin, schema: s.deleteSchema }, async (request) => {
    await deleteSavedProduct(db, request.params.id);
    notifyCatalogueChanged(db);
    return { message: CJ_MESSAGES.deleted };
  });

  app.get('/cj/orders', { config: admin, schema: s.listOrdersSchema }, async (request) => listSupplierOrders(db, request.query, source));

  app.get('/cj/orders/:orderId', { config: admin, schema: s.getOrderSchema }, async (request) =>
    getSupplierOrder(db, request.params.orderId, source));

  app.get('/cj/pricing', { config: admin, schema: s.getPricingSchema }, async () => ({ pricing: await getPricingRule(db) }));

  app.put('/cj/pricing', { config: admin, schema: s.putPricingSchema }, async (request) =>
    ({ pricing: await savePricingRule(db, request.body) }));

  const tracking = { db, catalogue, mailer: app.ctx.mailer, siteUrl: app.ctx.config.siteUrl, log: app.log };
  app.post('/cj/orders/:orderId/tracking/refresh', { config: admin, schema: s.refreshTrackingSchema }, async (request) =>
    refreshTrackingNow(tracking, request.params.orderId, source));

  const freight = createFreightQuoter(catalogue, { fromCountryCode: app.ctx.config.cj.fromCountryCode, logisticName: app.ctx.config.cj.logisticName });
  // Place-order and POST orders/shipping-quote (shipping module) charge the same quote (same cache).
  app.ctx.freight = freight;

  app.post('/cj/orders/:orderId/retry', { config: admin, schema: s.retryOrderSchema }, async (request) =>
    ({ message: CJ_MESSAGES.orderRetried, supplierOrder: await retrySupplierOrder(db, request.params.orderId, source) }));

  // Images of the offline catalogue, drawn on first request and kept in a small cache.
  const images = new Map<string, Buffer>();
  app.get(
    '/cj/offline-images/v1/:file',
    { config: { access: 'public' }, schema: { hide: true, params: z.object({ file: z.string().max(40) }) } },
    async (request, reply) => {
      const file = request.params.file;
      let body = images.get(file);
      if (!body) {
        const rendered = await renderOfflineImage(file);
        if (!rendered) throw notFound('File not found');
        body = rendered;
        images.set(file, body);
        if (images.size > 300) images.delete(images.keys().next().value!);
      }
      return reply.type('image/webp').header('cache-control', IMMUTABLE).send(body);
    },
  );
};
