// The supplier module's public face: what other modules (cart, orders) may use.
import { badRequest } from '../../lib/errors.ts';
import { supplierNotSoldMessage } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { findDiscontinued } from './saved-products.ts';

export { enqueueSupplierOrder, SUPPLIER_ORDER_JOB } from './supplier-orders.ts';

/**
 * Refuses products the supplier no longer sells ('{name}' is no longer sold by our supplier and
 * cannot be bought). Cart additions and order placement call it.
 */
export async function assertSupplierSellable(db: Executor, productIds: string[]): Promise<void> {
  const gone = await findDiscontinued(db, productIds);
  if (gone[0]) throw badRequest(supplierNotSoldMessage(gone[0].name), undefined, 'SUPPLIER_DISCONTINUED');
}
