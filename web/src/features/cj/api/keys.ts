import type { CjListParams, SupplierOrderListParams } from '@shop/contracts';

/** Query keys of the supplier screens; every supplier mutation invalidates `cjKeys.all`. */
export const cjKeys = {
  all: ['cj'] as const,
  status: () => ['cj', 'status'] as const,
  categories: () => ['cj', 'categories'] as const,
  list: (params: CjListParams) => ['cj', 'list', params] as const,
  product: (pid: string) => ['cj', 'product', pid] as const,
  savedList: (params: CjListParams) => ['cj', 'saved', 'list', params] as const,
  saved: (id: string) => ['cj', 'saved', id] as const,
  publicBySlug: (slug: string) => ['cj', 'public', slug] as const,
  orders: (params: SupplierOrderListParams) => ['cj', 'orders', params] as const,
  order: (orderId: string) => ['cj', 'order', orderId] as const,
};
