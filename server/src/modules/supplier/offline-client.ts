import { CjApiError, cjError } from './cj-client.ts';
import { CJ_CODES, type CjListData } from './cj-types.ts';
import { offlineCatalogue, offlineStock, toListProduct } from './offline-catalogue.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';

/**
 * The bundled catalogue behind the same interface as the CJ client, answering the same shapes with
 * the same paging rules (pageNum from 1, pageSize up to 200, an empty list past the last page) and
 * the same errors (an unknown pid is CJ's 1602001 "Product not found").
 */
export function createOfflineCatalogue(): SupplierCatalogue {
  return {
    source: 'offline',
    async listProducts({ pageNum, pageSize, keyword, categoryId }): Promise<CjListData> {
      if (!Number.isInteger(pageNum) || pageNum < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200) {
        throw cjError(CJ_CODES.illegalParameter, 'pageNum must be at least 1 and pageSize from 1 to 200');
      }
      const words = (keyword ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const matches = offlineCatalogue().products.filter((p) =>
        (!categoryId || p.categoryId === categoryId)
        && words.every((w) => p.productNameEn.toLowerCase().includes(w)));
      const start = (pageNum - 1) * pageSize;
      return { pageNum, pageSize, total: matches.length, list: matches.slice(start, start + pageSize).map(toListProduct) };
    },
    async getProduct(pid) {
      const p = offlineCatalogue().byPid.get(pid);
      if (!p) throw cjError(CJ_CODES.productNotFound, 'Product not found');
      return structuredClone(p);
    },
    async getStock(vid) {
      const rows = offlineStock(vid);
      if (!rows.length) throw cjError(CJ_CODES.variantNotFound, 'Variant not found');
      return rows;
    },
    async getCategories() {
      return structuredClone(offlineCatalogue().categories);
    },
    async createOrder() {
      // Unreachable in practice: supplier orders are only sent when a CJ account is connected.
      throw new CjApiError(503, 'No CJ account is connected (CJ_API_KEY is not set): the supplier order waits until one is.', null, 'SUPPLIER_OFFLINE');
    },
  };
}
