import {
  applyPricingRule, belowCostMessage, CJ_DEFAULT_STOCK, CJ_MESSAGES, finalPrice, PRODUCT_FORM_MESSAGES, productFormSchema, slugFromName, SUPPLIER_DEFAULT_BRAND,
  type CjSaveBody, type CjSavedItem,
} from '@shop/contracts';
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { products, productVariants } from '../../db/schema.ts';
import { badRequest, conflict, type FieldErrors } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../products/index.ts';
import { firstPrice } from './cj-types.ts';
import { isValidPid } from './list-supplier-products.ts';
import { getPricingRule } from './pricing-rule.ts';
import { findVariants } from '../products/index.ts';
import { findSavedRow, pidOf, presentSavedItems } from './saved-products.ts';
import { suggestCategory } from './suggest-category.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import {
  htmlToText, presentVariant, productImages, savedColumns, type StoredCjData,
} from './supplier.presenter.ts';


/** The brand of an import saved without one (the editor starts with it too). */
export const UNBRANDED = SUPPLIER_DEFAULT_BRAND;

const given = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * Saves a supplier product as a product of the shop (POST cj/products/save). Only the pid is
 * required; every field left out keeps its saved value, or comes from the supplier (name, slug from
 * the lower-cased English name, price = first part of sellPrice, stock 100, images, description),
 * the closest of the shop's categories (suggestCategory) and brand 'Unbranded'. The product as it will be saved passes the product form rules (SPEC section 5).
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

  const rule = await getPricingRule(db);
  const images = productImages(supplier);
  const derivedSlug = !given(body.slug) && !existing;
  const isOnSale = body.isOnSale ?? existing?.isOnSale ?? false;
  const parsed = productFormSchema.safeParse({
    name: body.name ?? existing?.name ?? supplier.productNameEn,
    slug: body.slug ?? existing?.slug ?? slugFromName(supplier.productNameEn),
    // A new product's price comes from the pricing rule applied to the variant's cost.
    price: given(body.price) ? body.price : existing?.price ?? applyPricingRule(variant.variantSellPrice, rule),
    image: body.image ?? existing?.image ?? images[0] ?? '',
    images: body.images ?? existing?.images ?? images.slice(1),
    // A new import left without a category takes the closest of the shop's (not the supplier's own).
    category: body.category ?? existing?.category ?? (await suggestCategory(db, supplier)).category,
    // The supplier's name is not the product's brand (issue 23): an API save without one says so.
    brand: body.brand ?? existing?.brand ?? UNBRANDED,
    countInStock: given(body.countInStock) ? body.countInStock : existing?.countInStock ?? CJ_DEFAULT_STOCK,
    description: body.description ?? existing?.description ?? (htmlToText(supplier.description) || supplier.productNameEn),
    isTodaysDeal: body.isTodaysDeal ?? existing?.isTodaysDeal ?? false,
    isGift: body.isGift ?? existing?.isGift ?? false,
    isOnSale,
    saleDiscount: isOnSale ? (given(body.saleDiscount) ? body.saleDiscount : existing?.saleDiscount ?? 0) : 0,
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

  // Every supplier variant is kept, each with its own price, stock and switch: the variant the
  // product page opens on follows the form; the others keep their saved values, or take the
  // pricing rule's price. A price below the supplier's cost needs `confirmBelowCost`.
  const savedVariants = existing ? await findVariants(db, [existing.id]) : [];
  const savedByVid = new Map(savedVariants.map((v) => [v.vid, v]));
  const askedByVid = new Map((body.variants ?? []).map((v) => [v.vid, v]));
  const askedValues = variants.map((v, position) => {
    const asked = askedByVid.get(v.vid);
    const saved = savedByVid.get(v.vid);
    const isMain = v.vid === vid;
    const price = isMain ? form.price : given(asked?.price) ? asked.price : saved?.price ?? applyPricingRule(v.variantSellPrice, rule);
    const stock = isMain ? form.countInStock : given(asked?.countInStock) ? asked.countInStock : saved?.countInStock ?? CJ_DEFAULT_STOCK;
    const enabled = isMain ? true : asked?.enabled ?? saved?.enabled ?? true;
    return { vid: v.vid, name: v.variantNameEn, variantKey: v.variantKey, image: v.variantImage, supplierCost: v.variantSellPrice, price, countInStock: stock, enabled, position };
  });
  for (const v of askedValues) {
    if (v.price === undefined || !Number.isFinite(v.price) || v.price < 0 || v.price > 1_000_000) {
      throw badRequest(`Price of variant ${v.name || v.vid} must be a number from 0 to 1000000`, { variants: 'Invalid price' }, 'VALIDATION_ERROR');
    }
    if (v.countInStock === undefined || !Number.isInteger(v.countInStock) || v.countInStock < 0 || v.countInStock > 1_000_000) {
      throw badRequest(`Stock of variant ${v.name || v.vid} must be a whole number from 0 to 1000000`, { variants: 'Invalid stock' }, 'VALIDATION_ERROR');
    }
  }
  const variantValues = askedValues.map((v) => ({ ...v, price: v.price!, countInStock: v.countInStock! }));
  if (!body.confirmBelowCost) {
    const discount = { isOnSale: form.isOnSale, saleDiscount: form.saleDiscount };
    const loss = variantValues.find((v) => v.enabled && finalPrice({ price: v.price, ...discount }) < v.supplierCost);
    if (loss) {
      const message = belowCostMessage(finalPrice({ price: loss.price, ...discount }), loss.supplierCost);
      throw badRequest(message, { price: message }, 'BELOW_SUPPLIER_COST');
    }
  }

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
    ...form, slug, cjData, supplierCost, isDraft: false, supplierDiscontinuedAt: null, supplierSyncedAt: new Date(), supplierBelowCostAt: null,
  };
  const writeVariants = async (tx: Executor, productId: string) => {
    const vids = variantValues.map((v) => v.vid);
    await tx.delete(productVariants).where(and(eq(productVariants.productId, productId), notInArray(productVariants.vid, vids.length ? vids : [''])));
    for (const v of variantValues) {
      await tx.insert(productVariants).values({ id: newId(), productId, ...v })
        .onConflictDoUpdate({
          target: [productVariants.productId, productVariants.vid],
          set: {
            name: v.name, variantKey: v.variantKey, image: v.image, supplierCost: v.supplierCost, price: v.price, countInStock: v.countInStock,
            enabled: v.enabled, position: v.position, updatedAt: sql`now()`,
          },
        });
    }
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => {
        const [current] = await tx.select({ id: products.id }).from(products).where(eq(pidOf, pid)).for('update');
        if (current) {
          const [row] = await tx.update(products).set({ ...values, updatedAt: sql`now()` }).where(eq(products.id, current.id)).returning(savedColumns);
          await writeVariants(tx, row!.id);
          return { product: (await presentSavedItems(tx, [row!]))[0]!, created: false };
        }
        const [row] = await tx.insert(products).values({ id: newId(), ...values }).returning(savedColumns);
        await writeVariants(tx, row!.id);
        return { product: (await presentSavedItems(tx, [row!]))[0]!, created: true };
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
