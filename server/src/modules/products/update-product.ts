import {
  PRODUCT_FORM_MESSAGES as M, productFormSchema, type Product, type ProductUpdateBody,
} from '@shop/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { findProductRow, pgErrorCode, productColumns, UNIQUE_VIOLATION } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

/** Form inputs may send numbers as strings; '' is not a number. */
function toNumber(value: number | string | null | undefined): number | null | undefined {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
}

const isBlank = (v: string | null | undefined) => !v || !v.trim();

/**
 * Saves the product form. Fields left out of the body keep their stored value; the product as it
 * will be saved must pass the form rules. A valid save publishes a draft.
 */
export async function updateProduct(db: Executor, id: string, body: ProductUpdateBody): Promise<Product> {
  if (isBlank(body._id)) throw badRequest(M.idRequired, { _id: M.idRequired });
  if (body._id !== id) throw badRequest('Product ID does not match the product being updated', { _id: M.idRequired });
  const missing: FieldErrors = {};
  if (isBlank(body.category)) missing.category = M.category;
  if (isBlank(body.brand)) missing.brand = M.brand;
  if (isBlank(body.description)) missing.description = M.description;
  if (Object.keys(missing).length) throw badRequest(M.categoryBrandDescriptionRequired, missing);

  const existing = isId(id) ? await findProductRow(db, eq(products.id, id)) : undefined;
  if (!existing) throw notFound(M.notFound);

  const isOnSale = body.isOnSale ?? existing.isOnSale;
  const parsed = productFormSchema.safeParse({
    name: body.name !== undefined ? body.name : existing.name,
    slug: body.slug !== undefined ? body.slug : existing.slug,
    price: toNumber(body.price !== undefined ? body.price : existing.price),
    image: body.image !== undefined ? body.image : existing.image,
    images: body.images ?? (body.images === null ? [] : existing.images),
    category: body.category,
    brand: body.brand,
    countInStock: toNumber(body.countInStock !== undefined ? body.countInStock : existing.countInStock),
    description: body.description,
    isTodaysDeal: body.isTodaysDeal ?? existing.isTodaysDeal,
    isGift: body.isGift ?? existing.isGift,
    isOnSale,
    saleDiscount: isOnSale ? toNumber(body.saleDiscount !== undefined ? body.saleDiscount : existing.saleDiscount) : 0,
  });
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'product');
      fieldErrors[field] ??= issue.message;
    }
    const first = Object.values(fieldErrors)[0] ?? 'Invalid product';
    throw badRequest(first, fieldErrors, 'VALIDATION_ERROR');
  }
  const form = parsed.data;

  const [clash] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.slug, form.slug), ne(products.id, id)))
    .limit(1);
  if (clash) throw conflict(M.slugTaken, { slug: M.slugTaken });

  try {
    const [row] = await db
      .update(products)
      .set({ ...form, isDraft: false, updatedAt: sql`now()` })
      .where(eq(products.id, id))
      .returning(productColumns);
    if (!row) throw notFound(M.notFound);
    return presentProduct(row, { withDraftFlag: true });
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw conflict(M.slugTaken, { slug: M.slugTaken });
    throw err;
  }
}
