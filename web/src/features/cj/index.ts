/** What other features may use of the supplier (CJ) feature: they import this file, never its inner files (re-exports only). */
export { SupplierOrderPanel } from './components/SupplierOrderPanel';
