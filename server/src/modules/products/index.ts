// The products module's public face: what other modules (cart, orders) may use.
export { productColumns, isPublished, findProductRow, type ProductRow } from './product-rows.ts';
export { presentProduct } from './products.presenter.ts';
