import type { Cart, CartItem } from '@shop/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { readColumns } from '../../db/raw-rows.ts';
import { cartItems, products, productVariants } from '../../db/schema.ts';
import { finalPrice } from '../../lib/money.ts';
import { findCartDiscount, removeCartDiscount, type DiscountLine } from '../discounts/index.ts';
import { hasOptions } from '../products/index.ts';
import { variantColumns, variantFinalPrice, type VariantRow } from '../supplier/index.ts';
import { cartProductColumns, presentCartItem, type CartProductRow } from './cart.presenter.ts';

export interface CartLine {
  productId: string;
  /** The chosen variant ('' for a product without variants). */
  variantId: string;
  quantity: number;
  name: string;
  product: CartProductRow | null;
  /** The variant's live row (null: no variant, or the variant is gone). */
  variant: VariantRow | null;
  /** When the supplier stopped selling the product (null: still sold, or not a supplier product). */
  supplierDiscontinuedAt: Date | null;
  /** When the supplier's cost rose above our price (null: sold at a profit, or confirmed). */
  supplierBelowCostAt?: Date | null;
}

export { variantColumns as cartVariantColumns };

/** A cart line's product columns with when its supplier stopped selling it. */
export const cartLineProductColumns = {
  ...cartProductColumns, supplierDiscontinuedAt: products.supplierDiscontinuedAt, supplierBelowCostAt: products.supplierBelowCostAt,
};
export type CartLineProduct = CartProductRow & { supplierDiscontinuedAt: Date | null; supplierBelowCostAt: Date | null };

/**
 * A cart line from a hand-written statement's row (raw-rows): `line_product_id`, `line_variant_id`,
 * `line_quantity`, `line_name`, the product's columns as `p_<column>` (all null when the product
 * is gone) and the variant's as `v_<column>` (null without a variant).
 */
export function readCartLine(row: Record<string, unknown>): CartLine {
  const read = row.p_id === null ? null : readColumns<CartLineProduct>(cartLineProductColumns, row, 'p_');
  const { supplierDiscontinuedAt = null, supplierBelowCostAt = null, ...product } = read ?? {};
  const variant = row.v_id === null || row.v_id === undefined ? null : readColumns<VariantRow>(variantColumns, row, 'v_');
  return {
    productId: row.line_product_id as string, variantId: (row.line_variant_id as string | null | undefined) ?? '',
    quantity: row.line_quantity as number, name: row.line_name as string,
    product: read ? (product as CartProductRow) : null, variant, supplierDiscontinuedAt, supplierBelowCostAt,
  };
}

/** The user's cart lines joined with the live product rows (null when the product is gone). */
export async function findCartLines(db: Executor, userId: string): Promise<CartLine[]> {
  return db
    .select({
      productId: cartItems.productId, variantId: cartItems.variantId, quantity: cartItems.quantity, name: cartItems.name,
      product: cartProductColumns, variant: variantColumns, supplierDiscontinuedAt: products.supplierDiscontinuedAt,
      supplierBelowCostAt: products.supplierBelowCostAt,
    })
    .from(cartItems)
    .leftJoin(products, eq(products.id, cartItems.productId))
    .leftJoin(productVariants, and(eq(sql`${productVariants.id}::text`, cartItems.variantId), eq(productVariants.productId, cartItems.productId)))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId), asc(cartItems.variantId));
}

/**
 * A line is sellable: its product is, and a variant line's variant exists and is switched on (a
 * line without a variant, of a product that has since been given options, is not).
 */
export const isLineAvailable = (l: Pick<CartLine, 'product' | 'variant' | 'variantId'>): boolean =>
  isAvailable(l.product) && (l.variantId === '' ? !hasOptions(l.product) : (!!l.variant && l.variant.enabled));

/**
 * A sellable line as a discount code sees it: the unit price the shopper pays now and, for a
 * supplier line, what the supplier charges us per unit (the floor a discount keeps to).
 */
export function discountLineOf(line: CartLine, quantity = line.quantity): DiscountLine {
  const p = line.product!;
  const isSupplierLine = p.cjData != null;
  return {
    productId: line.productId,
    category: p.category,
    unitPrice: line.variant ? variantFinalPrice(line.variant, p) : finalPrice(p),
    quantity,
    supplierCost: isSupplierLine ? (line.variant?.supplierCost ?? null) : null,
  };
}

/** Where one cart line is (user, product, variant). */
const lineWhere = (userId: string, productId: string, variantId: string) =>
  and(eq(cartItems.userId, userId), eq(cartItems.productId, productId), eq(cartItems.variantId, variantId));

/** A product the storefront can sell: it exists and is not a draft. */
export const isAvailable = (p: CartProductRow | null): p is CartProductRow => !!p && !p.isDraft;

/**
 * The whole cart with live prices and stock. Lines whose product was deleted are removed, and
 * quantities above the stock now on hand are lowered to it; each change is reported in `notices`.
 */
export async function getCart(db: Executor, userId: string, notices: string[] = []): Promise<Cart> {
  return settleCart(db, userId, await findCartLines(db, userId), notices);
}

/**
 * The cart answer from lines already read (findCartLines' shape and order): removes lines whose
 * product is gone and lowers quantities above stock, each with a notice (a statement only then).
 * `keptDiscountCode`: the cart's discount code if the caller's statement read it (else one is asked).
 */
export async function settleCart(db: Executor, userId: string, lines: CartLine[], notices: string[] = [], keptDiscountCode?: string | null): Promise<Cart> {
  const gone = lines.filter((l) => !isLineAvailable(l));
  if (gone.length) {
    const plain = gone.filter((l) => l.variantId === '');
    if (plain.length) {
      await db.delete(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.variantId, ''), inArray(cartItems.productId, plain.map((l) => l.productId))));
    }
    for (const l of gone.filter((g) => g.variantId !== '')) await db.delete(cartItems).where(lineWhere(userId, l.productId, l.variantId));
    for (const l of gone) {
      notices.push(l.variantId === '' && l.product && isAvailable(l.product) && hasOptions(l.product)
        ? `'${l.name}' now comes in options and was removed from your cart: choose one on its page`
        : `'${l.name}' is no longer available and was removed from your cart`);
    }
  }
  const items: CartItem[] = [];
  const discountLines: DiscountLine[] = [];
  for (const line of lines) {
    const p = line.product;
    if (!isLineAvailable(line) || !isAvailable(p)) continue;
    const stock = line.variant ? line.variant.countInStock : p.countInStock;
    const label = line.variant ? `${p.name} (${line.variant.name})` : p.name;
    let quantity = line.quantity;
    if (quantity > stock) {
      if (stock > 0) {
        quantity = stock;
        await db.update(cartItems).set({ quantity, updatedAt: new Date() }).where(lineWhere(userId, p.id, line.variantId));
        notices.push(`Only ${stock} of '${label}' left in stock: quantity changed to ${stock}`);
      } else {
        notices.push(`'${label}' is out of stock`);
      }
    }
    items.push(presentCartItem(p, quantity, line.variant));
    discountLines.push(discountLineOf(line, quantity));
  }
  // The code applied to the cart, judged again for the cart as it is now (issue 34.1).
  const discount = await findCartDiscount(db, userId, discountLines, keptDiscountCode);
  return { cartItems: items, ...(notices.length ? { notices } : {}), ...(discount ? { discount } : {}) };
}

/** Empties the user's cart (after payment, or on request). */
export async function clearCart(db: Executor, userId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
  await removeCartDiscount(db, userId);
}

/** Removes one line (all of the product's lines when no variant is named); a missing line is not an error. */
export async function removeCartItem(db: Executor, userId: string, productId: string, variantId: string | null = null): Promise<Cart> {
  await db.delete(cartItems).where(variantId === null
    ? and(eq(cartItems.userId, userId), eq(cartItems.productId, productId))
    : lineWhere(userId, productId, variantId));
  return getCart(db, userId);
}
