// The supplier module's public face: what other modules (cart, orders) may use.
import { badRequest } from '../../lib/errors.ts';
import { supplierNotSoldMessage } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { findDiscontinued } from './saved-products.ts';

export { enqueueSupplierOrder, holdsSupplierProducts, SUPPLIER_ORDER_JOB } from './supplier-orders.ts';
export type { CancelSupplierOrder, SupplierCancelOutcome } from './cancel-supplier-order.ts';

const supplierDiscontinued = (name: string) => badRequest(supplierNotSoldMessage(name), undefined, 'SUPPLIER_DISCONTINUED');

/**
 * Refuses products the supplier no longer sells ('{name}' is no longer available and
 * cannot be bought). Cart additions and order placement call it.
 */
export async function assertSupplierSellable(db: Executor, productIds: string[]): Promise<void> {
  const gone = await findDiscontinued(db, productIds);
  if (gone[0]) throw supplierDiscontinued(gone[0].name);
}

/**
 * The same refusal for product rows the caller has already read with their
 * `supplier_discontinued_at` (the checkout path, without a query of its own).
 */
export function assertNoneDiscontinued(rows: Array<{ name: string; supplierDiscontinuedAt: Date | null; supplierBelowCostAt?: Date | null }>): void {
  const gone = rows.find((r) => r.supplierDiscontinuedAt !== null);
  if (gone) throw supplierDiscontinued(gone.name);
  // The supplier's cost rose above our price: not sold at a loss until repriced or confirmed.
  const loss = rows.find((r) => r.supplierBelowCostAt);
  if (loss) throw badRequest(`'${loss.name}' is not available right now`, undefined, 'SUPPLIER_BELOW_COST');
}

export {
  findVariants, presentSellableVariant, variantColumns, variantFinalPrice, type VariantRow,
} from '../products/index.ts';
