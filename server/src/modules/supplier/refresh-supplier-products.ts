import { CJ_MESSAGES, type CjSavedItem } from '@shop/contracts';
import { and, asc, eq, isNull, lt, or, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { orderItems, orders, products, productVariants } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { CjApiError } from './cj-client.ts';
import { CJ_CODES } from './cj-types.ts';
import { findVariants, variantFinalPrice } from '../products/index.ts';
import { findSavedRow, isSupplierProduct, presentSavedItems } from './saved-products.ts';
import type { CachedCatalogue } from './supplier-catalogue.ts';
import { presentVariant, savedColumns, type SavedRow, type StoredCjData } from './supplier.presenter.ts';

export type RefreshOutcome = 'updated' | 'discontinued';

const isGone = (err: unknown) =>
  err instanceof CjApiError && (err.cjCode === CJ_CODES.productNotFound || err.cjCode === CJ_CODES.variantNotFound);

/** Units of this product held by unpaid orders (already taken from our stock, not yet bought from the supplier). */
async function reservedUnits(db: Db, productId: string): Promise<number> {
  const [row] = await db.select({ n: sum(orderItems.quantity).mapWith(Number) }).from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.productId, productId), eq(orders.isPaid, false), isNull(orders.stockReleasedAt)));
  return row?.n ?? 0;
}

async function markDiscontinued(db: Db, row: SavedRow): Promise<void> {
  await db.update(products).set({
    supplierDiscontinuedAt: row.supplierDiscontinuedAt ?? new Date(),
    countInStock: 0,
    supplierSyncedAt: new Date(),
    updatedAt: sql`now()`,
  }).where(eq(products.id, row.id));
}

/**
 * Reads one saved product's variant from the supplier (never from the cache) and updates our cost
 * and stock; a product or variant the supplier no longer sells is flagged and its stock set to 0,
 * so it cannot be bought. Stock = the supplier's stock less what our unpaid orders hold.
 */
export async function refreshRow(db: Db, catalogue: CachedCatalogue, row: SavedRow): Promise<RefreshOutcome> {
  const cj = row.cjData as unknown as StoredCjData;
  let supplier;
  try {
    supplier = await catalogue.getFreshProduct(cj.pid);
  } catch (err) {
    if (!isGone(err)) throw err;
    await markDiscontinued(db, row);
    return 'discontinued';
  }
  const variant = supplier.variants.find((v) => v.vid === cj.vid);
  if (!variant) {
    await markDiscontinued(db, row);
    return 'discontinued';
  }
  let supplierStock: number;
  try {
    const warehouses = await catalogue.getStock(cj.vid);
    supplierStock = warehouses.reduce((acc, w) => acc + Math.max(0, Number(w.storageNum ?? w.totalInventoryNum ?? 0) || 0), 0);
  } catch (err) {
    if (!isGone(err)) throw err;
    await markDiscontinued(db, row);
    return 'discontinued';
  }
  const fallback = row.supplierCost ?? 0;
  const variants = supplier.variants.map((v) => presentVariant(v, fallback));
  const cost = variants.find((v) => v.vid === cj.vid)!.variantSellPrice;
  const stock = Math.max(0, Math.min(1_000_000, supplierStock - await reservedUnits(db, row.id)));
  const cjData: StoredCjData = {
    ...cj,
    productNameEn: supplier.productNameEn || cj.productNameEn,
    variants: variants.map(({ variantSellPrice: _cost, ...v }) => v),
  };
  // Each variant's cost follows the supplier. A cost that rose above what we sell the variant for
  // flags the product: it is not sold at a loss until an administrator reprices or confirms it.
  const saved = await findVariants(db, [row.id]);
  let loss = false;
  for (const sv of saved) {
    const fresh = variants.find((v) => v.vid === sv.vid);
    if (!fresh || fresh.variantSellPrice === sv.supplierCost) continue;
    const rose = sv.supplierCost === null || fresh.variantSellPrice > sv.supplierCost;
    if (sv.enabled && rose && variantFinalPrice(sv, row) < fresh.variantSellPrice) loss = true;
    await db.update(productVariants).set({ supplierCost: fresh.variantSellPrice, updatedAt: sql`now()` }).where(eq(productVariants.id, sv.id));
  }
  // The listing's own variant has the stock just read from the supplier.
  await db.update(productVariants).set({ countInStock: stock, updatedAt: sql`now()` })
    .where(and(eq(productVariants.productId, row.id), eq(productVariants.vid, cj.vid)));
  await db.update(products).set({
    supplierCost: cost, countInStock: stock, cjData, supplierDiscontinuedAt: null, supplierSyncedAt: new Date(), updatedAt: sql`now()`,
    ...(loss && !row.supplierBelowCostAt ? { supplierBelowCostAt: new Date() } : {}),
  }).where(eq(products.id, row.id));
  return 'updated';
}

/** 'Refresh from supplier' on one saved product. */
export async function refreshSavedProduct(db: Db, catalogue: CachedCatalogue, id: string): Promise<{ message: string; product: CjSavedItem }> {
  const row = isId(id) ? await findSavedRow(db, eq(products.id, id)) : undefined;
  if (!row) throw notFound(CJ_MESSAGES.savedNotFound);
  const outcome = await refreshRow(db, catalogue, row);
  const fresh = await findSavedRow(db, eq(products.id, id));
  if (!fresh) throw notFound(CJ_MESSAGES.savedNotFound);
  return { message: outcome === 'discontinued' ? CJ_MESSAGES.discontinued : CJ_MESSAGES.refreshed, product: (await presentSavedItems(db, [fresh]))[0]! };
}

/**
 * The periodic refresh: the `limit` saved products refreshed longest ago (and not since
 * `staleBefore`), one at a time. Stops at the first rate-limit, quota or outage answer; the rest
 * wait for the next round.
 */
export async function refreshStaleProducts(
  db: Db, catalogue: CachedCatalogue, opts: { staleBefore: Date; limit: number; log: FastifyBaseLogger },
): Promise<{ updated: number; discontinued: number; stoppedEarly: boolean }> {
  const rows = await db.select(savedColumns).from(products)
    .where(and(isSupplierProduct, or(isNull(products.supplierSyncedAt), lt(products.supplierSyncedAt, opts.staleBefore))))
    .orderBy(sql`${products.supplierSyncedAt} asc nulls first`, asc(products.id))
    .limit(opts.limit);
  let updated = 0;
  let discontinued = 0;
  for (const row of rows) {
    try {
      if (await refreshRow(db, catalogue, row) === 'discontinued') discontinued += 1;
      else updated += 1;
    } catch (err) {
      opts.log.warn({ productId: row.id, reason: err instanceof Error ? err.message : 'unknown' }, 'supplier refresh stopped');
      return { updated, discontinued, stoppedEarly: true };
    }
  }
  return { updated, discontinued, stoppedEarly: false };
}
