import {
  combinationKey, PRODUCT_OPTION_MESSAGES as T, STOCK_CHANGED_CODE, stockChangedMessage, VARIANTS_HAVE_ORDERS_CODE,
  type ParsedVariant, type ProductOption,
} from '@shop/contracts';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orderItems, products, productVariants } from '../../db/schema.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { findVariants, type VariantRow } from './product-variants.ts';

/**
 * The variants of this product that order lines name: they are switched off rather than deleted,
 * so an order keeps pointing at what it sold (and an unpaid order's stock can go back to it).
 */
async function findOrderedVariantIds(tx: Tx, productId: string): Promise<Set<string>> {
  const rows = await tx.selectDistinct({ variantId: orderItems.variantId }).from(orderItems)
    .where(and(eq(orderItems.productId, productId), isNotNull(orderItems.variantId)));
  return new Set(rows.map((r) => r.variantId!.trim()));
}

/**
 * Writes an own product's variants as the body declares them. Call it in the transaction that
 * holds the product's row lock (checkout takes variant stock under that lock, so the stock read
 * here is the stock written over). Each body variant is the variant its `_id` names, else the
 * stored variant with the same combination, else a new one. Stored variants left out are deleted,
 * or switched off when orders name them. A changed stock sent with `countInStockWas` is written
 * only when the stored stock is still that (409 otherwise, nothing written).
 */
export async function saveProductVariants(tx: Tx, productId: string, options: ProductOption[], wanted: ParsedVariant[]): Promise<void> {
  const stored = await findVariants(tx, [productId]);
  const byId = new Map(stored.map((v) => [v.id.trim(), v]));
  const byCombination = new Map<string, VariantRow>();
  for (const v of stored) if (Object.keys(v.options).length) byCombination.set(combinationKey(options, v.options), v);

  const matched: Array<VariantRow | null> = [];
  const used = new Set<string>();
  wanted.forEach((w, i) => {
    let row: VariantRow | null = null;
    if (w._id) {
      row = byId.get(w._id) ?? null;
      if (!row) throw badRequest(T.variantId(w.name), { [`variants.${i}._id`]: T.variantId(w.name) }, 'VALIDATION_ERROR');
    } else {
      const same = byCombination.get(combinationKey(options, w.options));
      if (same && !used.has(same.id.trim())) row = same;
    }
    if (row && used.has(row.id.trim())) throw badRequest(T.variantTaken(w.name), { [`variants.${i}._id`]: T.variantTaken(w.name) }, 'VALIDATION_ERROR');
    if (row) used.add(row.id.trim());
    matched.push(row);
  });

  const left = stored.filter((v) => !used.has(v.id.trim()));
  const ordered = left.length ? await findOrderedVariantIds(tx, productId) : new Set<string>();
  const keep = left.filter((v) => ordered.has(v.id.trim()));
  if (!options.length && keep.length) throw new AppError(409, T.orderedVariants, VARIANTS_HAVE_ORDERS_CODE, { options: T.orderedVariants });

  // A recount against the stock the form loaded: refused when orders changed it since.
  wanted.forEach((w, i) => {
    const row = matched[i];
    if (row && w.countInStock !== null && w.countInStockWas !== undefined && row.countInStock !== w.countInStockWas) {
      const message = stockChangedMessage(w.countInStockWas, row.countInStock);
      throw new AppError(409, `${w.name}: ${message}`, STOCK_CHANGED_CODE, { [`variants.${i}.countInStock`]: message });
    }
  });

  const gone = left.filter((v) => !ordered.has(v.id.trim())).map((v) => v.id);
  if (gone.length) await tx.delete(productVariants).where(inArray(productVariants.id, gone));
  const now = new Date();
  for (const [k, v] of keep.entries()) {
    await tx.update(productVariants).set({ enabled: false, position: wanted.length + k, updatedAt: now }).where(eq(productVariants.id, v.id));
  }

  const fresh: Array<typeof productVariants.$inferInsert> = [];
  for (const [position, w] of wanted.entries()) {
    const row = matched[position];
    const values = { name: w.name, variantKey: '', options: w.options, price: w.price, sku: w.sku, image: w.image, enabled: w.enabled, position, updatedAt: now };
    if (row) {
      await tx.update(productVariants)
        .set({ ...values, ...(w.countInStock === null ? {} : { countInStock: w.countInStock }) })
        .where(eq(productVariants.id, row.id));
    } else {
      const id = newId(now.getTime());
      // An own variant's vid is its id (supplier variants carry the supplier's).
      fresh.push({ id, productId, vid: id, ...values, countInStock: w.countInStock ?? 0, createdAt: now });
    }
  }
  if (fresh.length) await tx.insert(productVariants).values(fresh);
}

/**
 * An own product with options: its price is the lowest of its variants on sale (of all its variants
 * when none is), variant_price_max the highest, and count_in_stock their stock summed. Set in the
 * statement that saves the product, after its variants were written.
 */
export function derivedFromVariants(productId: string) {
  const on = sql`${productVariants.productId} = ${productId}::char(24)`;
  return {
    price: sql<number>`coalesce((select min(price) from ${productVariants} where ${on} and enabled), (select min(price) from ${productVariants} where ${on}), ${products.price})`,
    variantPriceMax: sql<number>`coalesce((select max(price) from ${productVariants} where ${on} and enabled), (select max(price) from ${productVariants} where ${on}))`,
    countInStock: sql<number>`(select coalesce(sum(count_in_stock), 0)::int from ${productVariants} where ${on} and enabled)`,
  };
}
