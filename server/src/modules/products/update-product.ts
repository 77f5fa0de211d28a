import {
  PRODUCT_FORM_MESSAGES as M, productFormSchema, STOCK_CHANGED_CODE, stockChangedMessage, SUPPLIER_PRODUCT_FIELDS_CODE, SUPPLIER_PRODUCT_FORM_MESSAGES as SUPPLIER,
  type Product, type ProductUpdateBody,
} from '@shop/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { findProductRow, pgErrorCode, productColumns, UNIQUE_VIOLATION } from './product-rows.ts';
import { presentProduct } from './products.presenter.ts';

const isBlank = (v: string | null | undefined) => !v || !v.trim();

const toCents = (v: number) => Math.round(v * 100) / 100;

/**
 * The money and stock fields a body changes on a supplier (CJ) product: sending the stored value
 * is no change (the generic form sends every field). Checkout charges the main variant's price
 * and takes its stock, so these are set in the supplier catalogue only.
 */
function supplierFieldsChanged(body: ProductUpdateBody, existing: { price: number; isOnSale: boolean; saleDiscount: number; countInStock: number }): FieldErrors {
  const changed: FieldErrors = {};
  // The body's numbers are parsed already (productUpdateBodySchema: decimal notation only); null is "empty".
  if (body.price !== undefined && (body.price === null || toCents(body.price) !== toCents(existing.price))) changed.price = SUPPLIER.price;
  if (body.isOnSale !== undefined && body.isOnSale !== existing.isOnSale) changed.isOnSale = SUPPLIER.isOnSale;
  // The discount only counts while on sale (it is stored as 0 otherwise).
  if ((body.isOnSale ?? existing.isOnSale) && body.saleDiscount !== undefined && body.saleDiscount !== existing.saleDiscount) {
    changed.saleDiscount = SUPPLIER.saleDiscount;
  }
  if (body.countInStock !== undefined && body.countInStock !== existing.countInStock) changed.countInStock = SUPPLIER.countInStock;
  return changed;
}

/**
 * Saves the product form. Fields left out of the body keep their stored value; the product as it
 * will be saved must pass the form rules. A valid save publishes a draft.
 *
 * Stock: count_in_stock is written only when the body sends countInStock (orders take stock
 * meanwhile, so writing back the value read here would undo them). With `countInStockWas` (the
 * stock the form loaded) the write happens only if the stored stock is still that, else 409.
 *
 * Supplier (CJ) products: a change of price, sale or stock is refused with 400 (they are set in
 * the supplier catalogue); those columns are never written here. The other fields save.
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

  const isSupplierProduct = existing.cjData != null;
  if (isSupplierProduct) {
    const changed = supplierFieldsChanged(body, existing);
    if (Object.keys(changed).length) throw badRequest(SUPPLIER.locked, changed, SUPPLIER_PRODUCT_FIELDS_CODE);
  }
  const setsStock = !isSupplierProduct && body.countInStock !== undefined;

  const isOnSale = body.isOnSale ?? existing.isOnSale;
  const parsed = productFormSchema.safeParse({
    name: body.name !== undefined ? body.name : existing.name,
    slug: body.slug !== undefined ? body.slug : existing.slug,
    price: body.price !== undefined ? body.price : existing.price,
    image: body.image !== undefined ? body.image : existing.image,
    images: body.images ?? (body.images === null ? [] : existing.images),
    category: body.category,
    brand: body.brand,
    countInStock: body.countInStock !== undefined ? body.countInStock : existing.countInStock,
    description: body.description,
    isTodaysDeal: body.isTodaysDeal ?? existing.isTodaysDeal,
    isGift: body.isGift ?? existing.isGift,
    isOnSale,
    saleDiscount: isOnSale ? (body.saleDiscount !== undefined ? body.saleDiscount : existing.saleDiscount) : 0,
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
  const { countInStock, price, isOnSale: onSale, saleDiscount, ...rest } = parsed.data;
  const values = {
    ...rest,
    ...(isSupplierProduct ? {} : { price, isOnSale: onSale, saleDiscount }),
    ...(setsStock ? { countInStock } : {}),
  };
  // A recount against the stock the form loaded: written only if the stored stock is still that.
  const stockWas = setsStock ? body.countInStockWas : undefined;

  const [clash] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.slug, values.slug), ne(products.id, id)))
    .limit(1);
  if (clash) throw conflict(M.slugTaken, { slug: M.slugTaken });

  try {
    const [row] = await db
      .update(products)
      .set({ ...values, isDraft: false, updatedAt: sql`now()` })
      .where(stockWas === undefined ? eq(products.id, id) : and(eq(products.id, id), eq(products.countInStock, stockWas)))
      .returning(productColumns);
    if (!row) {
      const now = stockWas === undefined ? undefined : await findProductRow(db, eq(products.id, id));
      if (now && stockWas !== undefined) {
        const message = stockChangedMessage(stockWas, now.countInStock);
        throw new AppError(409, message, STOCK_CHANGED_CODE, { countInStock: message });
      }
      throw notFound(M.notFound);
    }
    return presentProduct(row, { withDraftFlag: true });
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw conflict(M.slugTaken, { slug: M.slugTaken });
    throw err;
  }
}
