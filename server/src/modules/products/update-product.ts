import {
  isSlugFollowingName, parseProductVariants, PRODUCT_FORM_MESSAGES as M, slugFromName, uniqueSlugCandidate, PRODUCT_OPTION_MESSAGES as OPTIONS, productFormSchema, STOCK_CHANGED_CODE,
  stockChangedMessage, SUPPLIER_PRODUCT_FIELDS_CODE, SUPPLIER_PRODUCT_FORM_MESSAGES as SUPPLIER, VARIANT_PRODUCT_FIELDS_CODE,
  type ParsedVariant, type Product, type ProductOption, type ProductUpdateBody,
} from '@shop/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { AppError, badRequest, conflict, notFound, type FieldErrors } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { findProductRow, hasOptions, pgErrorCode, productColumns, UNIQUE_VIOLATION, type ProductRow } from './product-rows.ts';
import { findVariants } from './product-variants.ts';
import { presentProduct } from './products.presenter.ts';
import { derivedFromVariants, saveProductVariants } from './save-product-variants.ts';

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

/** The options and variants a body declares, checked (null when it sends neither). */
type VariantPlan = { options: ProductOption[]; variants: ParsedVariant[] } | null;

function planVariants(body: ProductUpdateBody, isOnSale: boolean, saleDiscount: unknown): VariantPlan {
  if (body.options === undefined && body.variants === undefined) return null;
  if (body.options === undefined || body.variants === undefined) {
    throw badRequest(OPTIONS.sendTogether, { [body.options === undefined ? 'options' : 'variants']: OPTIONS.sendTogether }, 'VALIDATION_ERROR');
  }
  const parsed = parseProductVariants({
    options: body.options ?? [], variants: body.variants ?? [], isOnSale,
    saleDiscount: typeof saleDiscount === 'number' && Number.isFinite(saleDiscount) ? saleDiscount : 0,
  });
  if (!parsed.ok) throw badRequest(parsed.message, parsed.fieldErrors, 'VALIDATION_ERROR');
  return { options: parsed.options, variants: parsed.variants };
}

/**
 * A product with options has the price of its cheapest variant on sale and their stock summed: a
 * body that changes either is refused (sending the stored value is no change; the form sends none).
 */
function derivedFieldsChanged(body: ProductUpdateBody, existing: Pick<ProductRow, 'price' | 'countInStock'>): FieldErrors {
  const changed: FieldErrors = {};
  if (body.price !== undefined) {
    const price = body.price;
    if (typeof price !== 'number' || !Number.isFinite(price) || toCents(price) !== toCents(existing.price)) changed.price = OPTIONS.priceIsPerVariant;
  }
  if (body.countInStock !== undefined && body.countInStock !== existing.countInStock) changed.countInStock = OPTIONS.stockIsPerVariant;
  return changed;
}

/** The lowest price of the variants a plan puts on sale (of all of them when none is on sale). */
function lowestPrice(plan: NonNullable<VariantPlan>): number {
  const on = plan.variants.filter((v) => v.enabled);
  return Math.min(...(on.length ? on : plan.variants).map((v) => v.price));
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
 *
 * Options and variants (issue 34): `options` and `variants` sent together replace the product's
 * (saveProductVariants, under the product's row lock, in one transaction with the product). A
 * product with options takes its price (the lowest), variant_price_max (the highest) and stock
 * (the sum) from its variants on sale, in the same statement.
 */
export async function updateProduct(db: Db, id: string, body: ProductUpdateBody): Promise<Product> {
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
    if (body.options !== undefined || body.variants !== undefined) changed.variants = OPTIONS.supplierVariants;
    if (Object.keys(changed).length) throw badRequest(SUPPLIER.locked, changed, SUPPLIER_PRODUCT_FIELDS_CODE);
  }

  const isOnSale = body.isOnSale ?? existing.isOnSale;
  const saleDiscountIn = isOnSale ? (body.saleDiscount !== undefined ? body.saleDiscount : existing.saleDiscount) : 0;
  const plan = planVariants(body, isOnSale, saleDiscountIn);
  const withOptions = plan ? plan.options.length > 0 : hasOptions(existing);
  if (withOptions) {
    const changed = derivedFieldsChanged(body, existing);
    const first = Object.values(changed)[0];
    if (first) throw badRequest(first, changed, VARIANT_PRODUCT_FIELDS_CODE);
  }
  const setsStock = !isSupplierProduct && !withOptions && body.countInStock !== undefined;

  const parsed = productFormSchema.safeParse({
    name: body.name !== undefined ? body.name : existing.name,
    slug: await slugToSave(db, existing, body),
    // With options: the cheapest variant on sale (the sale discount is checked against it).
    price: plan && withOptions ? lowestPrice(plan) : (body.price !== undefined && !withOptions ? body.price : existing.price),
    image: body.image !== undefined ? body.image : existing.image,
    images: body.images ?? (body.images === null ? [] : existing.images),
    category: body.category,
    brand: body.brand,
    countInStock: body.countInStock !== undefined && !withOptions ? body.countInStock : existing.countInStock,
    description: body.description,
    isTodaysDeal: body.isTodaysDeal ?? existing.isTodaysDeal,
    isGift: body.isGift ?? existing.isGift,
    isOnSale,
    saleDiscount: saleDiscountIn,
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
    ...(isSupplierProduct ? {} : { isOnSale: onSale, saleDiscount }),
    ...(isSupplierProduct || withOptions ? {} : { price }),
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
    // A product without options, before and after: one statement, as it always was.
    if (!plan && !withOptions) return presentProduct(await writeProduct(db, id, values, stockWas), { withDraftFlag: true });
    return await db.transaction(async (tx) => {
      // Checkout takes a variant's stock under its product's row lock: so do the variants' writes.
      const [locked] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).for('update');
      if (!locked) throw notFound(M.notFound);
      if (plan) await saveProductVariants(tx, id, plan.options, plan.variants);
      const options = plan ? { options: plan.options } : {};
      const derived = withOptions ? derivedFromVariants(id) : { variantPriceMax: null };
      const row = await writeProduct(tx, id, { ...values, ...options, ...derived }, stockWas);
      const variants = withOptions ? await findVariants(tx, [id]) : undefined;
      return presentProduct(row, { withDraftFlag: true, variants });
    });
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw conflict(M.slugTaken, { slug: M.slugTaken });
    throw err;
  }
}

/**
 * The slug a save writes. A draft's slug follows its name until it is typed by hand (issue 36):
 * while the stored slug is the one the shop gave it, a body that sends that slug (or none, or the
 * slug of the new name) gets the slug of the name, made unique with the id's tail if another
 * product has it. Any other slug sent is the administrator's and is saved as typed (409 if taken).
 */
async function slugToSave(db: Executor, existing: ProductRow, body: ProductUpdateBody): Promise<unknown> {
  const asked = body.slug !== undefined ? body.slug : existing.slug;
  const name = typeof body.name === 'string' ? body.name : existing.name;
  const fromName = slugFromName(name);
  const isFollowing = isSlugFollowingName({ _id: existing.id, name: existing.name, slug: existing.slug, isDraft: existing.isDraft });
  if (!isFollowing || !fromName || (asked !== existing.slug && asked !== fromName)) return asked;
  for (const candidate of [fromName, uniqueSlugCandidate(fromName, existing.id)]) {
    const [clash] = await db.select({ id: products.id }).from(products).where(and(eq(products.slug, candidate), ne(products.id, existing.id))).limit(1);
    if (!clash) return candidate;
  }
  return fromName;
}

/** Writes the product row (with `stockWas`: only if its stock is still that, else 409). */
async function writeProduct(db: Executor, id: string, values: PgUpdateSetSource<typeof products>, stockWas: number | undefined): Promise<ProductRow> {
  const [row] = await db
    .update(products)
    .set({ ...values, isDraft: false, updatedAt: sql`now()` })
    .where(stockWas === undefined ? eq(products.id, id) : and(eq(products.id, id), eq(products.countInStock, stockWas)))
    .returning(productColumns);
  if (row) return row;
  const now = stockWas === undefined ? undefined : await findProductRow(db, eq(products.id, id));
  if (now && stockWas !== undefined) {
    const message = stockChangedMessage(stockWas, now.countInStock);
    throw new AppError(409, message, STOCK_CHANGED_CODE, { countInStock: message });
  }
  throw notFound(M.notFound);
}
