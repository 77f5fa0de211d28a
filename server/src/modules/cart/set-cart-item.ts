import {
  CART_ITEM_NOT_FOUND_MESSAGE, CART_MAX_LINES, CHOOSE_VARIANT_MESSAGE, OUT_OF_STOCK_MESSAGE, PRODUCT_NOT_FOUND_MESSAGE,
  VARIANT_NOT_FOUND_MESSAGE, type Cart,
} from '@shop/contracts';
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { cartDiscounts, cartItems, products, productVariants } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { assertNoneDiscontinued, findVariants, type VariantRow } from '../supplier/index.ts';
import {
  cartLineProductColumns, cartVariantColumns, getCart, isAvailable, readCartLine, settleCart, type CartLineProduct,
} from './get-cart.ts';
import { readColumns, selectList } from '../../db/raw-rows.ts';

/** The product to cart, with when the supplier stopped selling it (null: still sold). */
export async function findSellableProduct(db: Db, productId: string): Promise<CartLineProduct> {
  if (!isId(productId)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  const [p] = await db.select(cartLineProductColumns)
    .from(products).where(eq(products.id, productId)).limit(1);
  if (!p || !isAvailable(p)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  return p;
}

/** The line an add wrote, as SQL over its statement's own rows (for work written with it). */
export interface WrittenLine {
  productId: SQL;
  name: SQL;
  /** The FROM item holding the written line (no row when nothing was written). */
  from: SQL;
  /** The time written on the line. */
  at: Date;
}

/**
 * More to write in the same statement as an added line: a data-modifying CTE over the written line
 * (the lead's job, see leads/cartLeadJobSql), committed with the line or not at all, at no extra
 * round trip.
 */
export type WithWrittenLine = (line: WrittenLine) => SQL;

/**
 * Sets the quantity of one cart line. `mode: 'add'` creates the line when missing (POST cart/items),
 * `mode: 'update'` requires it (PUT cart/items/{productId}). The quantity may not exceed stock.
 * `withAdded` (adds only) is written by the statement that writes the line.
 */
export async function setCartItem(
  db: Db,
  input: { userId: string; productId: string; quantity: number; mode: 'add' | 'update'; variantId?: string | null; withAdded?: WithWrittenLine },
): Promise<Cart> {
  const { userId, productId, quantity } = input;
  const variantId = input.variantId ?? null;
  if (input.mode === 'add' && variantId === null) return addCartItem(db, userId, productId, quantity, input.withAdded);
  const product = await findSellableProduct(db, productId);
  assertNoneDiscontinued([product]);
  const variant = await resolveVariant(db, productId, variantId, mainVidOf(product));
  if (input.mode === 'add') return addVariantLine(db, userId, product, variant!, quantity, input.withAdded);
  if (quantity > (variant ? variant.countInStock : product.countInStock)) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
  const updated = await db.update(cartItems).set({ quantity, name: product.name, updatedAt: new Date() })
    .where(and(eq(cartItems.userId, userId), eq(cartItems.productId, productId), eq(cartItems.variantId, variant ? variant.id.trim() : '')))
    .returning({ productId: cartItems.productId });
  if (!updated.length) throw notFound(CART_ITEM_NOT_FOUND_MESSAGE);
  return getCart(db, userId);
}

/** The variant a supplier listing opens on (cjData.vid). */
export const mainVidOf = (p: { cjData: unknown }): string | null => ((p.cjData as { vid?: unknown } | null)?.vid as string | undefined) ?? null;

/**
 * The variant a cart line of this product is for: the one named (it must be one of the product's
 * variants and switched on), else the listing's own variant or the only one on sale (carts saved
 * before variants existed name none); null for a product without variants. Otherwise a choice is
 * needed (400 'Please choose a variant').
 */
export async function resolveVariant(db: Executor, productId: string, variantId: string | null, mainVid: string | null = null): Promise<VariantRow | null> {
  const variants = await findVariants(db, [productId], { enabledOnly: true });
  if (variantId !== null) {
    const v = variants.find((x) => x.id.trim() === variantId);
    if (!v) throw notFound(VARIANT_NOT_FOUND_MESSAGE);
    return v;
  }
  if (!variants.length) {
    const [any] = await db.select({ n: count() }).from(productVariants).where(eq(productVariants.productId, productId));
    // A supplier product whose variants are all switched off is not for sale.
    if (Number(any?.n ?? 0) > 0) throw notFound(VARIANT_NOT_FOUND_MESSAGE);
    return null;
  }
  const main = variants.find((v) => v.vid === mainVid);
  if (main) return main;
  if (variants.length > 1) throw badRequest(CHOOSE_VARIANT_MESSAGE, { variantId: CHOOSE_VARIANT_MESSAGE }, 'VARIANT_REQUIRED');
  return variants[0]!;
}

/**
 * Adds (sets the quantity of) a variant line: written only when the variant is on sale with enough
 * stock and the cart has room (one statement, so the checks and the write see the same rows).
 */
async function addVariantLine(db: Db, userId: string, product: CartLineProduct, variant: VariantRow, quantity: number, withAdded?: WithWrittenLine): Promise<Cart> {
  const now = new Date();
  const at = now.toISOString();
  const vid = variant.id.trim();
  const also = withAdded ? sql`, also as (${withAdded({ productId: sql`w.product_id`, name: sql`w.name`, from: sql`written w`, at: now })})` : sql``;
  const { rows } = (await db.execute(sql`
    with written as (
    insert into ${cartItems} (user_id, product_id, variant_id, quantity, name, created_at, updated_at)
    select ${userId}::char(24), v.product_id, ${vid}::text, ${quantity}::int, ${product.name}::text, ${at}::timestamptz, ${at}::timestamptz
    from ${productVariants} v
    where v.id = ${vid}::char(24) and v.product_id = ${product.id}::char(24) and v.enabled and v.count_in_stock >= ${quantity}::int
      and ((select count(*) from ${cartItems} where user_id = ${userId}::char(24)) < ${CART_MAX_LINES}::int
           or exists (select 1 from ${cartItems} where user_id = ${userId}::char(24) and product_id = v.product_id and variant_id = ${vid}::text))
    on conflict (user_id, product_id, variant_id)
      do update set quantity = excluded.quantity, name = excluded.name, updated_at = excluded.updated_at
    returning product_id, name
    )${also}
    select product_id from written`)) as unknown as { rows: unknown[] };
  if (!rows.length) {
    if (quantity > variant.countInStock) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
    throw badRequest(`A cart holds at most ${CART_MAX_LINES} products`);
  }
  return getCart(db, userId);
}

const productList = (alias: string) => sql.raw(selectList(cartLineProductColumns, alias, 'p_'));
const variantList = (alias: string) => sql.raw(selectList(cartVariantColumns, alias, 'v_'));

/**
 * POST cart/items in one statement: the product is read, the line written (only when the product
 * is sellable, in stock for the quantity, and the cart has room: fewer than CART_MAX_LINES
 * products, or the product is already in it) and the whole cart read back with live products.
 * The statement sees the cart as it was before its own write, so the written line comes from the
 * insert's `returning` and replaces the old copy of that line. Row kinds: 0 the product as read,
 * 1 the written line, 2 the cart's other lines; lines in cart order (created_at, product id).
 */
async function addCartItem(db: Db, userId: string, productId: string, quantity: number, withAdded?: WithWrittenLine): Promise<Cart> {
  if (!isId(productId)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
  const now = new Date();
  const at = now.toISOString();
  const also = withAdded ? sql`, also as (${withAdded({ productId: sql`w.product_id`, name: sql`w.name`, from: sql`written w`, at: now })})` : sql``;
  const { rows } = (await db.execute(sql`
    with p as materialized (
      select * from ${products} where id = ${productId}::char(24)
    ), written as (
      insert into ${cartItems} (user_id, product_id, quantity, name, created_at, updated_at)
      select ${userId}::char(24), p.id, ${quantity}::int, p.name, ${at}::timestamptz, ${at}::timestamptz from p
      where not p.is_draft and p.supplier_discontinued_at is null and p.supplier_below_cost_at is null and p.count_in_stock >= ${quantity}::int
        and not exists (select 1 from ${productVariants} pv where pv.product_id = p.id)
        and ((select count(*) from ${cartItems} where user_id = ${userId}::char(24)) < ${CART_MAX_LINES}::int
             or exists (select 1 from ${cartItems} where user_id = ${userId}::char(24) and product_id = p.id and variant_id = ''))
      on conflict (user_id, product_id, variant_id)
        do update set quantity = excluded.quantity, name = excluded.name, updated_at = excluded.updated_at
      returning product_id, quantity, name, created_at
    )${also}
    select * from (
      select 0 as kind, p.id as line_product_id, ''::text as line_variant_id, null::int as line_quantity, null::text as line_name, null::timestamptz as line_created_at,
        ${productList('p')}, ${variantList('nv')}, exists (select 1 from ${productVariants} pv where pv.product_id = p.id) as has_variants,
        (select d.code from ${cartDiscounts} d where d.user_id = ${userId}::char(24)) as cart_discount_code
      from p left join ${productVariants} nv on false
      union all
      select 1, w.product_id, '', w.quantity, w.name, w.created_at, ${productList('p')}, ${variantList('nv')}, false, null
      from written w cross join p left join ${productVariants} nv on false
      union all
      select 2, c.product_id, c.variant_id, c.quantity, c.name, c.created_at, ${productList('cp')}, ${variantList('cv')}, false, null
      from ${cartItems} c left join ${products} cp on cp.id = c.product_id
      left join ${productVariants} cv on cv.id::text = c.variant_id and cv.product_id = c.product_id
      where c.user_id = ${userId}::char(24) and not (c.product_id = ${productId}::char(24) and c.variant_id = '' and exists (select 1 from written))
    ) rows
    order by kind = 0 desc, line_created_at, line_product_id, line_variant_id`)) as unknown as { rows: Array<Record<string, unknown>> };
  const first = rows[0];
  const product = first?.kind === 0 ? readColumns<CartLineProduct>(cartLineProductColumns, first, 'p_') : null;
  if (!rows.some((r) => r.kind === 1)) {
    if (!product || !isAvailable(product)) throw notFound(PRODUCT_NOT_FOUND_MESSAGE);
    assertNoneDiscontinued([product]);
    // A product with variants: the line is for one of them (the only one on sale, or a choice).
    if (first?.has_variants === true) {
      const variant = await resolveVariant(db, productId, null, mainVidOf(product));
      if (variant) return addVariantLine(db, userId, product, variant, quantity, withAdded);
    }
    if (quantity > product.countInStock) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
    throw badRequest(`A cart holds at most ${CART_MAX_LINES} products`);
  }
  const lines = rows.filter((r) => r.kind !== 0).map(readCartLine);
  return settleCart(db, userId, lines, [], (first?.cart_discount_code as string | null | undefined) ?? null);
}

