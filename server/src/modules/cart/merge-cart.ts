import { CART_MAX_LINES, CART_MAX_QUANTITY, type Cart, type MergeCartBody } from '@shop/contracts';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cartItems, products } from '../../db/schema.ts';
import { isId } from '../../lib/ids.ts';
import { findVariants, type VariantRow } from '../supplier/index.ts';
import { cartProductColumns } from './cart.presenter.ts';
import { getCart, isAvailable } from './get-cart.ts';

const lineKey = (productId: string, variantId: string) => `${productId}\u0000${variantId}`;

/**
 * Sign-in merge: each guest line's quantity is added to the server cart's, capped at stock (the
 * variant's stock for a variant line; two variants of one product are two lines). A line without
 * a variant for a product with variants takes the only variant on sale, else is skipped.
 * Unavailable products are skipped; every cap or skip is reported in `notices` (`source` names
 * where the lines came from). Also refills the cart from an earlier order (orders/reorder).
 */
export async function mergeCart(db: Db, userId: string, body: MergeCartBody, source = 'your saved cart'): Promise<Cart> {
  const wanted = new Map<string, { productId: string; variantId: string | null; quantity: number }>();
  let unknown = 0;
  for (const item of body.items) {
    if (!isId(item.productId) || (item.variantId && !isId(item.variantId))) { unknown += 1; continue; }
    const key = lineKey(item.productId, item.variantId ?? '');
    const prev = wanted.get(key);
    wanted.set(key, { productId: item.productId, variantId: item.variantId ?? null, quantity: (prev?.quantity ?? 0) + item.quantity });
  }
  const notices: string[] = [];
  await db.transaction(async (tx) => {
    const ids = [...new Set([...wanted.values()].map((w) => w.productId))];
    const found = ids.length
      ? await tx.select(cartProductColumns).from(products).where(inArray(products.id, ids))
      : [];
    const byId = new Map(found.map((p) => [p.id, p]));
    const variants = await findVariants(tx, ids);
    const variantsOf = new Map<string, VariantRow[]>();
    for (const v of variants) variantsOf.set(v.productId.trim(), [...(variantsOf.get(v.productId.trim()) ?? []), v]);
    const existingRows = await tx.select({ productId: cartItems.productId, variantId: cartItems.variantId, quantity: cartItems.quantity })
      .from(cartItems).where(eq(cartItems.userId, userId)).for('update');
    const existing = new Map(existingRows.map((r) => [lineKey(r.productId, r.variantId), r.quantity]));
    let lineCount = existing.size;
    const now = new Date();
    for (const { productId, variantId: askedVariant, quantity: addQty } of wanted.values()) {
      const p = byId.get(productId) ?? null;
      if (!isAvailable(p)) { unknown += 1; continue; }
      const all = variantsOf.get(productId) ?? [];
      const onSale = all.filter((v) => v.enabled);
      let variant: VariantRow | null = null;
      if (askedVariant) {
        variant = onSale.find((v) => v.id.trim() === askedVariant) ?? null;
        if (!variant) { unknown += 1; continue; }
      } else if (all.length) {
        // A line saved before variants existed: the listing's own variant, else the only one on sale.
        const mainVid = (p.cjData as { vid?: string } | null)?.vid;
        variant = onSale.find((v) => v.vid === mainVid) ?? (onSale.length === 1 ? onSale[0]! : null);
        if (!variant) { unknown += 1; continue; }
      }
      const variantId = variant ? variant.id.trim() : '';
      const stock = variant ? variant.countInStock : p.countInStock;
      const label = variant ? `${p.name} (${variant.name})` : p.name;
      const key = lineKey(productId, variantId);
      const current = existing.get(key) ?? 0;
      const limit = Math.min(stock, CART_MAX_QUANTITY);
      const quantity = Math.min(current + addQty, limit);
      if (quantity < current + addQty) {
        notices.push(limit > 0
          ? `Only ${stock} of '${label}' in stock: quantity set to ${quantity}`
          : `'${label}' is out of stock and was not added to your cart`);
      }
      if (quantity <= 0 || quantity === current) continue;
      if (current === 0) {
        if (lineCount >= CART_MAX_LINES) {
          notices.push(`A cart holds at most ${CART_MAX_LINES} products: '${label}' was not added`);
          continue;
        }
        lineCount += 1;
      }
      existing.set(key, quantity);
      await tx.insert(cartItems).values({ userId, productId, variantId, quantity, name: p.name, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [cartItems.userId, cartItems.productId, cartItems.variantId],
          set: { quantity: sql`excluded.quantity`, name: sql`excluded.name`, updatedAt: now },
        });
    }
  });
  if (unknown > 0) {
    notices.push(unknown === 1
      ? `A product in ${source} is no longer available and was not added`
      : `${unknown} products in ${source} are no longer available and were not added`);
  }
  return getCart(db, userId, notices);
}
