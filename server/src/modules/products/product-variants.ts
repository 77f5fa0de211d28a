import type { SavedVariant, SellableVariant } from '@shop/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { productVariants } from '../../db/schema.ts';
import { finalPrice, roundMoney } from '../../lib/money.ts';

/**
 * The one variant model (issue 20, extended by issue 34): a supplier product's variants and the
 * combinations of an own product's options live in `product_variants`, each with its own price and
 * stock; cart lines and order lines name one by `variantId`, and checkout takes its stock.
 */

/** The variant columns a cart line, an order line and the product pages read. */
export const variantColumns = {
  id: productVariants.id,
  productId: productVariants.productId,
  vid: productVariants.vid,
  name: productVariants.name,
  variantKey: productVariants.variantKey,
  image: productVariants.image,
  price: productVariants.price,
  countInStock: productVariants.countInStock,
  enabled: productVariants.enabled,
  supplierCost: productVariants.supplierCost,
  position: productVariants.position,
  options: productVariants.options,
  sku: productVariants.sku,
};
export type VariantRow = {
  id: string; productId: string; vid: string; name: string; variantKey: string; image: string; price: number;
  countInStock: number; enabled: boolean; supplierCost: number | null; position: number;
  options: Record<string, string>; sku: string;
};

type Discount = { isOnSale: boolean; saleDiscount: number };

/** What the shopper pays for one unit of the variant (the product's sale discount applies). */
export const variantFinalPrice = (v: Pick<VariantRow, 'price'>, p: Discount) =>
  finalPrice({ price: v.price, isOnSale: p.isOnSale, saleDiscount: p.saleDiscount });

/** An own product's variant has option values (a supplier variant has none). */
const isOwnVariant = (v: Pick<VariantRow, 'options'>) => Object.keys(v.options ?? {}).length > 0;

export function presentSellableVariant(v: VariantRow, p: Discount): SellableVariant {
  return {
    _id: v.id.trim(), vid: v.vid, name: v.name, variantKey: v.variantKey, image: v.image, price: v.price,
    finalPrice: variantFinalPrice(v, p), countInStock: v.countInStock, enabled: v.enabled,
    ...(isOwnVariant(v) ? { options: v.options, sku: v.sku } : {}),
  };
}

export function presentSavedVariant(v: VariantRow, p: Discount): SavedVariant {
  const sellable = presentSellableVariant(v, p);
  const margin = v.supplierCost === null ? null : roundMoney(sellable.finalPrice - v.supplierCost);
  const marginPercent = margin === null || sellable.finalPrice <= 0 ? null : roundMoney((margin / sellable.finalPrice) * 100);
  return { ...sellable, supplierCost: v.supplierCost, margin, marginPercent };
}

/** The variants of these products, in their order (the supplier's, or the options' combinations). */
export async function findVariants(db: Executor, productIds: string[], opts: { enabledOnly?: boolean } = {}): Promise<VariantRow[]> {
  if (!productIds.length) return [];
  return db.select(variantColumns).from(productVariants)
    .where(and(inArray(productVariants.productId, productIds), opts.enabledOnly ? eq(productVariants.enabled, true) : undefined))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
}
