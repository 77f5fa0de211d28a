import { PRODUCT_FORM_MESSAGES } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from './product-rows.ts';

/** Deletes a product; its reviews go with it (ON DELETE CASCADE). */
export async function deleteProduct(db: Executor, id: string): Promise<void> {
  if (!isId(id)) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  try {
    const deleted = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id });
    if (!deleted.length) throw notFound(PRODUCT_FORM_MESSAGES.notFound);
  } catch (err) {
    // Tables of other modules (orders) may keep a product they reference.
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw conflict('Product is referenced by existing orders and cannot be deleted');
    throw err;
  }
}
