import { CjApiError, cjError } from './cj-client.ts';
import { CJ_CODES, type CjListData } from './cj-types.ts';
import { offlineCatalogue, offlineStock, toListProduct } from './offline-catalogue.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';

/**
 * The bundled catalogue behind the same interface as the CJ client, answering the same shapes with
 * the same paging rules (pageNum from 1, pageSize up to 200, an empty list past the last page) and
 * the same errors (an unknown pid is CJ's 1602001 "Product not found").
 */
export function createOfflineCatalogue(opts: { shipDelaySeconds?: number; now?: () => number } = {}): SupplierCatalogue {
  const shipDelaySeconds = opts.shipDelaySeconds ?? 600;
  const now = opts.now ?? Date.now;
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
    // Forwarding and shipping are simulated so the demo shows the whole journey: an order is
    // "created" at once (its id records when), and ships `shipDelaySeconds` later with a tracking
    // number; CJ's answers have the same shapes. Stateless, so every instance answers alike.
    async createOrder(body) {
      const orderId = `OFFLINE-${now()}-${body.orderNumber}`;
      return { orderId, orderNumber: body.orderNumber, orderStatus: 'CREATED', orderAmount: null };
    },
    async getOrderDetail(cjOrderId) {
      const m = /^OFFLINE-(\d+)-([A-Za-z0-9]+)$/.exec(cjOrderId);
      if (!m) throw new CjApiError(404, 'Supplier order not found', null, 'SUPPLIER_NOT_FOUND');
      const shipped = now() >= Number(m[1]) + shipDelaySeconds * 1000;
      return {
        orderId: cjOrderId, orderNum: m[2]!, cjOrderId, orderStatus: shipped ? 'SHIPPED' : 'UNSHIPPED',
        trackNumber: shipped ? `OFFTRK${m[2]!.slice(-10).toUpperCase()}` : null, logisticName: shipped ? 'CJPacket Ordinary' : null,
      };
    },
    // The same rule as CJ: an order can be withdrawn until it ships (shipDelaySeconds after it was created).
    async deleteOrder(cjOrderId) {
      const m = /^OFFLINE-(\d+)-([A-Za-z0-9]+)$/.exec(cjOrderId);
      if (!m) throw new CjApiError(404, 'Supplier order not found', null, 'SUPPLIER_NOT_FOUND');
      if (now() >= Number(m[1]) + shipDelaySeconds * 1000) throw cjError(CJ_CODES.illegalParameter, 'The order has been shipped and cannot be deleted');
    },
    async freightCalculate(body) {
      // A flat demo rate: $4.99 for the first unit, $1.50 for each further one.
      const units = body.products.reduce((n, p) => n + p.quantity, 0);
      if (!units) return [];
      return [{ logisticName: 'CJPacket Ordinary', logisticAging: '7-12', logisticPrice: Math.round((4.99 + (units - 1) * 1.5) * 100) / 100 }];
    },
  };
}
