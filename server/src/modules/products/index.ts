// The products module's public face: what other modules (cart, orders) may use.
export { productColumns, hasOptions, isPublished, findProductRow, pgErrorCode, UNIQUE_VIOLATION, type ProductRow } from './product-rows.ts';
export { presentProduct } from './products.presenter.ts';
export { getProductBySlug } from './get-product.ts';
export { notifyCatalogueChanged } from './catalogue-cache.ts';
export { searchProducts } from './search-products.ts';
export { listCategories } from './list-categories.ts';
export { catalogueCacheFor } from './catalogue-cache.ts';
export {
  findVariants, presentSavedVariant, presentSellableVariant, variantColumns, variantFinalPrice, type VariantRow,
} from './product-variants.ts';
