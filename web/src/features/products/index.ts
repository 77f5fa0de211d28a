/** What other features may use of the catalogue: they import this file, never its inner files (re-exports only). */
export { useCategories } from './api/get-categories';
export { ProductBuyBox } from './components/ProductBuyBox';
export { ProductGallery } from './components/ProductGallery';
export { ProductReviewsSection } from './components/ProductReviewsSection';
export { ProductSummary } from './components/ProductSummary';
export { VariantPicker } from './components/VariantPicker';
