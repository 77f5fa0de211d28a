/* Test data for the supplier feature's tests (not part of the app bundle). */
import type { CjListItem, CjProductResponse, CjSavedItem, SupplierOrder } from '@shop/contracts';

let seq = 0;
const hex = () => (++seq).toString(16).padStart(24, 'a');

export function makeListItem(n: number, overrides: Partial<CjListItem> = {}): CjListItem {
  const pid = `PID-${String(n).padStart(4, '0')}-AAAA-BBBB`;
  return {
    pid,
    productId: pid,
    productNameEn: `Supplier Product ${n}`,
    productSku: `CJSKU${n}`,
    productImage: JSON.stringify([`/api/cj/offline-images/v1/${n}.webp`]),
    bigImage: `/api/cj/offline-images/v1/${n}.webp`,
    sellPrice: '4.50 -- 6.00',
    price: 4.5,
    categoryId: 'CAT-1',
    categoryName: 'Home > Kitchen > Drinkware',
    isSaved: false,
    savedProductId: null,
    ...overrides,
  };
}

export function makeSupplierProduct(overrides: Partial<CjProductResponse> = {}): CjProductResponse {
  const base = makeListItem(1);
  return {
    ...base,
    productNameEn: 'Insulated Travel Mug',
    productImage: JSON.stringify(['/api/cj/offline-images/v1/mug-0.webp', '/api/cj/offline-images/v1/mug-1.webp', '/api/cj/offline-images/v1/mug-2.webp']),
    productImageSet: ['/api/cj/offline-images/v1/mug-0.webp', '/api/cj/offline-images/v1/mug-1.webp', '/api/cj/offline-images/v1/mug-2.webp'],
    bigImage: '/api/cj/offline-images/v1/mug-0.webp',
    description: 'Keeps drinks hot.',
    variants: [
      { vid: 'VID-BLACK', variantNameEn: 'Insulated Travel Mug Black', variantSku: 'CJSKU1-BLACK', variantKey: 'Black', variantImage: '/api/cj/offline-images/v1/black.webp', variantSellPrice: 4.5 },
      { vid: 'VID-RED', variantNameEn: 'Insulated Travel Mug Red', variantSku: 'CJSKU1-RED', variantKey: 'Red', variantImage: '/api/cj/offline-images/v1/red.webp', variantSellPrice: 6 },
    ],
    source: 'offline',
    suggestedCategory: { category: 'Drinkware', isExisting: true },
    ...overrides,
  };
}

export function makeSavedItem(overrides: Partial<CjSavedItem> = {}): CjSavedItem {
  const _id = hex();
  return {
    _id,
    name: 'Insulated Travel Mug',
    slug: 'insulated-travel-mug',
    price: 19.99,
    finalPrice: 19.99,
    image: '/api/cj/offline-images/v1/mug-0.webp',
    images: ['/api/cj/offline-images/v1/mug-1.webp'],
    category: 'Drinkware',
    brand: 'CJ Dropshipping',
    countInStock: 100,
    description: 'Keeps drinks hot.',
    rating: 0,
    numReviews: 0,
    isTodaysDeal: false,
    isGift: false,
    isOnSale: false,
    saleDiscount: 0,
    cjData: { pid: 'PID-0001-AAAA-BBBB', variants: [{ vid: 'VID-BLACK' }, { vid: 'VID-RED' }] },
    isDraft: false,
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    isSaved: true,
    pid: 'PID-0001-AAAA-BBBB',
    vid: 'VID-RED',
    nameEn: 'Insulated Travel Mug',
    bigImage: '/api/cj/offline-images/v1/mug-0.webp',
    variants: [
      { vid: 'VID-BLACK', variantNameEn: 'Insulated Travel Mug Black', variantSku: 'CJSKU1-BLACK', variantKey: 'Black', variantImage: '/api/cj/offline-images/v1/black.webp' },
      { vid: 'VID-RED', variantNameEn: 'Insulated Travel Mug Red', variantSku: 'CJSKU1-RED', variantKey: 'Red', variantImage: '/api/cj/offline-images/v1/red.webp' },
    ],
    supplierCategoryId: 'CAT-1',
    supplierCost: 6,
    margin: 13.99,
    marginPercent: 70,
    supplierDiscontinuedAt: null,
    supplierSyncedAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function makeSupplierOrder(overrides: Partial<SupplierOrder> = {}): SupplierOrder {
  return {
    orderId: 'cccccccccccccccccccccccc',
    status: 'pending',
    source: 'cj',
    cjOrderId: null,
    lastError: null,
    attempts: 0,
    maxAttempts: 8,
    nextAttemptAt: '2025-01-02T10:00:00.000Z',
    lines: [{ productId: 'dddddddddddddddddddddddd', name: 'Insulated Travel Mug', vid: 'VID-RED', quantity: 2 }],
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
    sentAt: null,
    ...overrides,
  };
}
