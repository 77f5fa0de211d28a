import type { Cart, CartItem } from '@shop/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { readColumns } from '../../db/raw-rows.ts';
import { cartItems, products } from '../../db/schema.ts';
import { cartProductColumns, presentCartItem, type CartProductRow } from './cart.presenter.ts';

export interface CartLine {
  productId: string;
  quantity: number;
  name: string;
  product: CartProductRow | null;
  /** When the supplier stopped selling the product (null: still sold, or not a supplier product). */
  supplierDiscontinuedAt: Date | null;
}

/** A cart line's product columns with when its supplier stopped selling it. */
export const cartLineProductColumns = { ...cartProductColumns, supplierDiscontinuedAt: products.supplierDiscontinuedAt };
export type CartLineProduct = CartProductRow & { supplierDiscontinuedAt: Date | null };

/**
 * A cart line from a hand-written statement's row (raw-rows): `line_product_id`, `line_quantity`,
 * `line_name`, and the product's columns as `p_<column>` (all null when the product is gone).
 */
export function readCartLine(row: Record<string, unknown>): CartLine {
  const read = row.p_id === null ? null : readColumns<CartLineProduct>(cartLineProductColumns, row, 'p_');
  const { supplierDiscontinuedAt = null, ...product } = read ?? {};
  return {
    productId: row.line_product_id as string, quantity: row.line_quantity as number, name: row.line_name as string,
    product: read ? (product as CartProductRow) : null, supplierDiscontinuedAt,
  };
}

/** The user's cart lines joined with the live product rows (null when the product is gone). */
export async function findCartLines(db: Executor, userId: string): Promise<CartLine[]> {
  return db
    .select({
      productId: cartItems.productId, quantity: cartItems.quantity, name: cartItems.name, product: cartProductColumns,
      supplierDiscontinuedAt: products.supplierDiscontinuedAt,
    })
    .from(cartItems)
    .leftJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.productId));
}

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
 */
export async function settleCart(db: Executor, userId: string, lines: CartLine[], notices: string[] = []): Promise<Cart> {
  const gone = lines.filter((l) => !isAvailable(l.product));
  if (gone.length) {
    await db.delete(cartItems).where(and(eq(cartItems.userId, userId), inArray(cartItems.productId, gone.map((l) => l.productId))));
    for (const l of gone) notices.push(`'${l.name}' is no longer available and was removed from your cart`);
  }
  const items: CartItem[] = [];
  for (const line of lines) {
    const p = line.product;
    if (!isAvailable(p)) continue;
    let quantity = line.quantity;
    if (quantity > p.countInStock) {
      if (p.countInStock > 0) {
        quantity = p.countInStock;
        await db.update(cartItems).set({ quantity, updatedAt: new Date() })
          .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, p.id)));
        notices.push(`Only ${p.countInStock} of '${p.name}' left in stock: quantity changed to ${p.countInStock}`);
      } else {
        notices.push(`'${p.name}' is out of stock`);
      }
    }
    items.push(presentCartItem(p, quantity));
  }
  return notices.length ? { cartItems: items, notices } : { cartItems: items };
}

/** Empties the user's cart (after payment, or on request). */
export async function clearCart(db: Executor, userId: string): Promise<void> {
  await db.delete(cartItems).where(eq(cartItems.userId, userId));
}

/** Removes one line; removing a line that is not there is not an error. */
export async function removeCartItem(db: Executor, userId: string, productId: string): Promise<Cart> {
  await db.delete(cartItems).where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId)));
  return getCart(db, userId);
}
