import { paths } from '../../../lib/paths';

/** Router state the list hands to the edit page, so Save and Cancel come back to the same page and filters. */
export interface ProductsReturnState {
  returnTo: string;
}

/** The list address to come back to: the one handed over when it is a product list address, else the list. */
export function productsReturnTo(state: unknown): string {
  const returnTo = (state as Partial<ProductsReturnState> | null)?.returnTo;
  if (typeof returnTo === 'string' && (returnTo === paths.admin.products || returnTo.startsWith(`${paths.admin.products}?`))) return returnTo;
  return paths.admin.products;
}
