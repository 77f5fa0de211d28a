import { draftSlug, type Product } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { productColumns } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

/**
 * "Create Product": a draft with placeholder values, hidden from the storefront until it is saved
 * valid. Price 0 and no image are deliberate: the form refuses them, so a draft cannot go live
 * with placeholder price or picture. Its slug follows its name until typed by hand (update-product.ts).
 */
export async function createDraftProduct(db: Executor): Promise<Product> {
  const id = newId();
  const [row] = await db
    .insert(products)
    .values({
      id,
      name: 'Sample name',
      slug: draftSlug(id),
      price: 0,
      image: '',
      images: [],
      // No category until one is chosen from the shop's (or created on purpose) in the form.
      category: '',
      brand: 'Sample brand',
      countInStock: 0,
      description: 'Sample description',
      isDraft: true,
    })
    .returning(productColumns);
  if (!row) throw new Error('insert returned no row');
  return presentProduct(row, { withDraftFlag: true });
}
