import type { SupplierSource } from '@shop/contracts';
import type {
  CjCategoryData, CjCreatedOrder, CjCreateOrderBody, CjFreightBody, CjFreightData, CjListData, CjOrderDetail, CjProductData, CjStockData,
} from './cj-types.ts';

export interface ListProductsInput {
  /** From 1. */
  pageNum: number;
  /** 1-200. */
  pageSize: number;
  keyword?: string;
  categoryId?: string;
}

/**
 * The supplier catalogue as the shop uses it, in CJ's own shapes: the real CJ client and the
 * bundled offline catalogue both implement it, so everything above works the same on either.
 */
export interface SupplierCatalogue {
  readonly source: SupplierSource;
  listProducts(input: ListProductsInput): Promise<CjListData>;
  /** Throws a 404 CjApiError ('Supplier product not found') when the supplier does not sell it. */
  getProduct(pid: string): Promise<CjProductData>;
  getStock(vid: string): Promise<CjStockData>;
  getCategories(): Promise<CjCategoryData>;
  createOrder(body: CjCreateOrderBody): Promise<CjCreatedOrder>;
  /** shopping/order/getOrderDetail: status, tracking number and carrier of a forwarded order. */
  getOrderDetail(cjOrderId: string): Promise<CjOrderDetail>;
  /** shopping/order/deleteOrder: withdraws a forwarded order CJ has not shipped (CJ refuses otherwise). */
  deleteOrder(cjOrderId: string): Promise<void>;
  /** logistic/freightCalculate: shipping options for these variants to a country. */
  freightCalculate(body: CjFreightBody): Promise<CjFreightData>;
}

export interface CachedCatalogue extends SupplierCatalogue {
  /** The details straight from the supplier, replacing the cached copy (refresh from supplier). */
  getFreshProduct(pid: string): Promise<CjProductData>;
  clear(): void;
}

/**
 * A short in-memory cache in front of the supplier's list pages, details and categories, so that an
 * administrator paging back and forth does not spend the daily quota. Stock and orders are never
 * cached. Failed calls are not cached; concurrent misses share one call.
 */
export function withCache(inner: SupplierCatalogue, opts: { ttlMs: number; maxEntries?: number; now?: () => number }): CachedCatalogue {
  const now = opts.now ?? Date.now;
  const max = opts.maxEntries ?? 500;
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  function remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value as Promise<T>;
    entries.delete(key);
    const value = load();
    entries.set(key, { expires: now() + opts.ttlMs, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    if (entries.size > max) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return value;
  }

  return {
    source: inner.source,
    listProducts: (input) =>
      remember(`list\u0000${input.pageNum}\u0000${input.pageSize}\u0000${input.keyword ?? ''}\u0000${input.categoryId ?? ''}`, () => inner.listProducts(input)),
    getProduct: (pid) => remember(`product\u0000${pid}`, () => inner.getProduct(pid)),
    async getFreshProduct(pid) {
      entries.delete(`product\u0000${pid}`);
      return remember(`product\u0000${pid}`, () => inner.getProduct(pid));
    },
    getStock: (vid) => inner.getStock(vid),
    getCategories: () => remember('categories', () => inner.getCategories()),
    createOrder: (body) => inner.createOrder(body),
    getOrderDetail: (id) => inner.getOrderDetail(id),
    deleteOrder: (id) => inner.deleteOrder(id),
    freightCalculate: (body) => inner.freightCalculate(body),
    clear: () => entries.clear(),
  };
}
