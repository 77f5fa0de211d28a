import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import { notifyCatalogueChanged } from '../products/index.ts';
import { createCjClient } from './cj-client.ts';
import { createOfflineCatalogue } from './offline-client.ts';
import { refreshStaleProducts } from './refresh-supplier-products.ts';
import { withCache, type CachedCatalogue } from './supplier-catalogue.ts';
import { sendSupplierOrderHandler, SUPPLIER_ORDER_JOB } from './supplier-orders.ts';
import { pollTracking, SUPPLIER_TRACKING_JOB } from './supplier-tracking.ts';
import { createDbTokenStore } from './token-store.ts';

/** How long supplier list pages, details and categories are cached per instance. */
export const SUPPLIER_CACHE_TTL_MS = 10 * 60_000;
/** The periodic refresh looks for stale products this often, and refreshes this many per round. */
export const SUPPLIER_REFRESH_EVERY_MS = 10 * 60_000;
export const SUPPLIER_REFRESH_BATCH = 20;
export const SUPPLIER_REFRESH_JOB = 'supplier.refresh';

/** The supplier catalogue of this instance: CJ when CJ_API_KEY is set, else the bundled offline one. */
export function createSupplierCatalogue(ctx: AppContext, log: FastifyBaseLogger): CachedCatalogue {
  const { config, db } = ctx;
  if (!config.cj.apiKey) return withCache(createOfflineCatalogue({ shipDelaySeconds: config.cj.offlineShipDelaySeconds }), { ttlMs: SUPPLIER_CACHE_TTL_MS });
  const client = createCjClient({
    apiKey: config.cj.apiKey,
    apiBase: config.cj.apiBase,
    tokens: createDbTokenStore(db, { provider: 'cj', apiKey: config.cj.apiKey, secret: config.jwtSecret }),
    requestsPerSecond: config.cj.requestsPerSecond,
    log,
  });
  return withCache(client, { ttlMs: SUPPLIER_CACHE_TTL_MS });
}

/**
 * Background work of the supplier module: sending supplier orders (only with a CJ account: offline,
 * they wait as pending) and the periodic refresh of cost, stock and availability.
 */
export function registerSupplierJobs(ctx: AppContext, catalogue: CachedCatalogue, log: FastifyBaseLogger): void {
  // Offline, the bundled catalogue simulates forwarding and shipping (see offline-client.ts).
  ctx.jobs.register(SUPPLIER_ORDER_JOB, sendSupplierOrderHandler({ db: ctx.db, catalogue, config: ctx.config }));
  const pollSeconds = ctx.config.cj.trackingPollSeconds;
  if (pollSeconds > 0) {
    const deps = { db: ctx.db, catalogue, mailer: ctx.mailer, siteUrl: ctx.config.siteUrl, log };
    ctx.jobs.register(SUPPLIER_TRACKING_JOB, async () => pollTracking(deps));
    ctx.jobs.schedule(SUPPLIER_TRACKING_JOB, pollSeconds * 1000);
  }
  const hours = ctx.config.cj.refreshHours;
  if (hours <= 0) return;
  ctx.jobs.register(SUPPLIER_REFRESH_JOB, async () => {
    const result = await refreshStaleProducts(ctx.db, catalogue, {
      staleBefore: new Date(Date.now() - hours * 3_600_000), limit: SUPPLIER_REFRESH_BATCH, log,
    });
    if (result.updated || result.discontinued) notifyCatalogueChanged(ctx.db);
    return result;
  });
  ctx.jobs.schedule(SUPPLIER_REFRESH_JOB, SUPPLIER_REFRESH_EVERY_MS);
}
