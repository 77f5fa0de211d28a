import {
  CJ_DEFAULT_STOCK, CJ_MESSAGES, PRODUCT_FORM_MESSAGES, productFormSchema, type CjSaveBody, type CjSavedItem,
} from '@shop/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products } from '../../db/schema.ts';
import { badRequest, conflict, type FieldErrors } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../products/index.ts';
import { firstPrice } from './cj-types.ts';
import { isValidPid } from './list-supplier-products.ts';
import { findSavedRow, pidOf } from './saved-products.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import {
  htmlToText, lastCategoryLevel, presentSavedItem, presentVariant, productImages, savedColumns, slugFromName, type StoredCjData,
} from './supplier.presenter.ts';

export const DEFAULT_SUPPLIER_BRAND = 'CJ Dropshipping';

/** Form inputs may send numbers as strings; '' is not a number. */
function toNumber(value: number | string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
}
const given = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * Saves a supplier product as a product of the shop (POST cj/products/save). Only the pid is
 * required; every field left out keeps its saved value, or comes from the supplier (name, slug from
 * the lower-cased English name, price = first part of sellPrice, stock 100, images, category,
 * description). The product as it will be saved passes the product form rules (SPEC section 5).
 * Saving the same pid again updates the same product.
 */
export async function saveSupplierProduct(db: Db, catalogue: SupplierCatalogue, body: CjSaveBody): Promise<{ product: CjSavedItem; created: boolean }> {
  const pid = body.pid?.trim() ?? '';
  if (!pid) throw badRequest(CJ_MESSAGES.pidMissing, { pid: CJ_MESSAGES.pidMissing });
  if (!isValidPid(pid)) throw badRequest('Product ID is not a supplier product id', { pid: CJ_MESSAGES.pidMissing });

  const supplier = await catalogue.getProduct(pid);
  const sellPrice = firstPrice(supplier.sellPrice);
  const variants = supplier.variants.map((v) => presentVariant(v, Number.isFinite(sellPrice) ? sellPrice : 0));
  const existing = await findSavedRow(db, eq(pidOf, pid));
  const savedVid = (existing?.cjData as Partial<StoredCjData> | null | undefined)?.vid;
  // The variant sent, else the one sold so far (if the supplier still has it), else the first.
  const vid = body.vid?.trim() || (variants.some((v) => v.vid === savedVid) ? savedVid : undefined) || variants[0]?.vid;
  if (!vid) throw badRequest(CJ_MESSAGES.vidMissing, { vid: CJ_MESSAGES.vidMissing });
  const variant = variants.find((v) => v.vid === vid);
  if (!variant) throw badRequest(CJ_MESSAGES.vidUnknown, { vid: CJ_MESSAGES.vidUnknown });

  const images = productImages(supplier);
  const derivedSlug = !given(body.slug) && !existing;
  const isOnSale = body.isOnSale ?? existing?.isOnSale ?? false;
  const parsed = productFormSchema.safeParse({
    name: body.name ?? existing?.name ?? supplier.productNameEn,
    slug: body.slug ?? existing?.slug ?? slugFromName(supplier.productNameEn),
    price: given(body.price) ? toNumber(body.price) : existing?.price ?? (Number.isFinite(sellPrice) ? sellPrice : undefined),
    image: body.image ?? existing?.image ?? images[0] ?? '',
    images: body.images ?? existing?.images ?? images.slice(1),
    category: body.category ?? existing?.category ?? lastCategoryLevel(supplier.categoryName),
    brand: body.brand ?? existing?.brand ?? DEFAULT_SUPPLIER_BRAND,
    countInStock: given(body.countInStock) ? toNumber(body.countInStock) : existing?.countInStock ?? CJ_DEFAULT_STOCK,
    description: body.description ?? existing?.description ?? (htmlToText(supplier.description) || supplier.productNameEn),
    isTodaysDeal: body.isTodaysDeal ?? existing?.isTodaysDeal ?? false,
    isGift: body.isGift ?? existing?.isGift ?? false,
    isOnSale,
    saleDiscount: isOnSale ? (given(body.saleDiscount) ? toNumber(body.saleDiscount) : existing?.saleDiscount ?? 0) : 0,
  });
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? 'product')] ??= issue.message;
    throw badRequest(Object.values(fieldErrors)[0] ?? 'Invalid product', fieldErrors, 'VALIDATION_ERROR');
  }
  const form = parsed.data;

  const cjData: StoredCjData = {
    pid,
    vid,
    source: catalogue.source,
    productNameEn: supplier.productNameEn,
    productSku: supplier.productSku,
    categoryId: supplier.categoryId,
    categoryName: supplier.categoryName,
    bigImage: images[0] ?? form.image,
    variants: variants.map(({ variantSellPrice: _cost, ...v }) => v),
  };
  const supplierCost = variant.variantSellPrice;

  const slugTaken = async (slug: string) => {
    const [clash] = await db.select({ id: products.id }).from(products)
      .where(existing ? and(eq(products.slug, slug), ne(products.id, existing.id)) : eq(products.slug, slug)).limit(1);
    return !!clash;
  };
  let slug = form.slug;
  if (await slugTaken(slug)) {
    // A slug the shop made up may take a suffix; one the administrator typed may not.
    if (!derivedSlug) throw conflict(PRODUCT_FORM_MESSAGES.slugTaken, { slug: PRODUCT_FORM_MESSAGES.slugTaken });
    slug = `${slug}-${pid.replace(/[^a-z0-9]/gi, '').slice(-6).toLowerCase()}`;
    if (await slugTaken(slug)) throw conflict(PRODUCT_FORM_MESSAGES.slugTaken, { slug: PRODUCT_FORM_MESSAGES.slugTaken });
  }

  const values = {
    ...form, slug, cjData, supplierCost, isDraft: false, supplierDiscontinuedAt: null, supplierSyncedAt: new Date(),
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        const [current] = await tx.select({ id: products.id }).from(products).where(eq(pidOf, pid)).for('update');
        if (current) {
          const [row] = await tx.update(products).set({ ...values, updatedAt: sql`now()` }).where(eq(products.id, current.id)).returning(savedColumns);
          return { product: presentSavedItem(row!), created: false };
        }
        const [row] = await tx.insert(products).values({ id: newId(), ...values }).returning(savedColumns);
        return { product: presentSavedItem(row!), created: true };
      });
    } catch (err) {
      if (pgErrorCode(err) !== UNIQUE_VIOLATION) throw err;
      // Two first saves of one pid at once: the loser finds the winner's row and updates it (a
      // slug taken meanwhile fails the slug check above on the way).
      if (attempt === 0) continue;
      throw conflict(PRODUCT_FORM_MESSAGES.slugTaken, { slug: PRODUCT_FORM_MESSAGES.slugTaken });
    }
  }
}
