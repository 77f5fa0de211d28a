import {
  ADDRESS_NOT_FOUND_MESSAGE, OUT_OF_STOCK_MESSAGE, ORDER_MESSAGES, type Order, type PlaceOrderBody,
} from '@shop/contracts';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { addresses, orderItems, orders, products, users, type OrderShippingAddress } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { finalPrice, MIN_UNIT_PRICE, roundMoney } from '../../lib/money.ts';
import { findCartLines, isAvailable } from '../cart/get-cart.ts';
import { assertNoneDiscontinued } from '../supplier/index.ts';
import { loadOrder } from './find-orders.ts';
import { presentOrder, type OrderWithLines } from './orders.presenter.ts';

export const SHIPPING_PRICE = 0;
export const TAX_RATE = 0;
/** A second identical order placed this soon after an unpaid one is a double submit: answer the first. */
const DOUBLE_SUBMIT_WINDOW_MS = 10_000;

export interface PlaceOrderInput {
  userId: string;
  body: PlaceOrderBody;
  expiryMinutes: number;
  now?: Date;
}

/**
 * Locks the customer's row (one checkout at a time per customer) and, in the same statement, reads
 * their name (for the answer) and the saved address the body names, if any.
 */
async function lockCustomer(tx: Tx, userId: string, body: PlaceOrderBody): Promise<{ userName: string | null; shippingAddress: OrderShippingAddress }> {
  const addressId = body.addressId && isId(body.addressId) ? body.addressId : null;
  const [row] = await tx.select({ name: users.name, address: addresses }).from(users)
    .leftJoin(addresses, addressId ? and(eq(addresses.id, addressId), eq(addresses.userId, users.id)) : sql`false`)
    .where(eq(users.id, userId))
    .for('update', { of: users });
  const userName = row?.name ?? null;
  if (body.addressId) {
    const a = row?.address;
    if (!a) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
    return { userName, shippingAddress: { fullName: a.fullName, address: a.address, city: a.city, postalCode: a.postalCode, country: a.country } };
  }
  if (body.shippingAddress) return { userName, shippingAddress: { ...body.shippingAddress } };
  throw badRequest(ORDER_MESSAGES.addressRequired, { shippingAddress: ORDER_MESSAGES.addressRequired });
}

type StockRow = { id: string; name: string; slug: string; image: string; price: number; is_on_sale: boolean; sale_discount: number };

/**
 * Takes the stock of every line in one statement. The product rows are locked first, in product id
 * order (the same order everywhere: no deadlocks), then each is decremented only if it is published
 * and holds enough; a line missing from the answer could not be served. Under concurrency the
 * update re-checks each row's latest version, so stock never goes below 0.
 */
async function takeStock(tx: Tx, lines: Line[]): Promise<Map<string, StockRow>> {
  const rows = (await tx.execute(sql`
    with wanted as materialized (
      select w.id, w.quantity
      from unnest(string_to_array(${lines.map((l) => l.productId).join(',')}, ',')::char(24)[],
                  string_to_array(${lines.map((l) => l.quantity).join(',')}, ',')::int[]) as w(id, quantity)
    ), locked as materialized (
      select p.id from ${products} p where p.id in (select id from wanted) order by p.id for update of p
    )
    update ${products} p set count_in_stock = p.count_in_stock - w.quantity
    from wanted w, locked l
    where p.id = w.id and l.id = p.id and not p.is_draft and p.count_in_stock >= w.quantity
    returning p.id, p.name, p.slug, p.image, p.price::float8 as price, p.is_on_sale, p.sale_discount`)) as unknown as { rows: StockRow[] };
  return new Map(rows.rows.map((r) => [r.id, r]));
}

type Line = { productId: string; quantity: number };
const signature = (lines: Line[], address: OrderShippingAddress) =>
  JSON.stringify([
    lines.map((l) => [l.productId, l.quantity]),
    [address.fullName, address.address, address.city, address.postalCode, address.country],
  ]);

async function findDoubleSubmit(tx: Tx, userId: string, now: Date, sig: string): Promise<string | null> {
  const [recent] = await tx.select({ id: orders.id, shippingAddress: orders.shippingAddress }).from(orders)
    .where(and(
      eq(orders.userId, userId), eq(orders.isPaid, false), isNull(orders.stockReleasedAt),
      gt(orders.createdAt, new Date(now.getTime() - DOUBLE_SUBMIT_WINDOW_MS)), gt(orders.expiresAt, now),
    ))
    .orderBy(desc(orders.createdAt)).limit(1);
  if (!recent) return null;
  const lines = await tx.select({ productId: orderItems.productId, quantity: orderItems.quantity }).from(orderItems)
    .where(eq(orderItems.orderId, recent.id)).orderBy(orderItems.productId);
  return signature(lines, recent.shippingAddress) === sig ? recent.id : null;
}

/**
 * Places an order from the user's server cart. Prices come from the database (finalPrice), never
 * from the request; stock is taken with a conditional update in the same transaction, so no number
 * of concurrent orders can take more than exists. The cart is kept until the order is paid.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<{ order: Order; created: boolean }> {
  const now = input.now ?? new Date();
  const { userId, body } = input;
  const result = await db.transaction(async (tx): Promise<{ created: false; orderId: string } | { created: true; placed: OrderWithLines }> => {
    const { userName, shippingAddress } = await lockCustomer(tx, userId, body);

    const cart = await findCartLines(tx, userId);
    if (!cart.length) throw badRequest(ORDER_MESSAGES.cartEmpty, undefined, 'CART_EMPTY');
    if (cart.some((l) => !isAvailable(l.product))) throw badRequest(ORDER_MESSAGES.productsUnavailable, undefined, 'CART_CHANGED');
    assertNoneDiscontinued(cart.map((l) => ({ name: l.product!.name, supplierDiscontinuedAt: l.supplierDiscontinuedAt })));

    // Sorted by product id: every transaction locks product rows in the same order.
    const lines = cart.map((l) => ({ productId: l.productId, quantity: l.quantity })).sort((a, b) => (a.productId < b.productId ? -1 : 1));
    const sig = signature(lines, shippingAddress);
    const duplicate = await findDoubleSubmit(tx, userId, now, sig);
    if (duplicate) return { orderId: duplicate, created: false };

    const orderId = newId(now.getTime());
    const taken = await takeStock(tx, lines);
    const items: Array<typeof orderItems.$inferInsert & { price: number; position: number }> = [];
    for (const line of lines) {
      const p = taken.get(line.productId);
      if (!p) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
      const unitPrice = finalPrice({ price: Number(p.price), isOnSale: p.is_on_sale, saleDiscount: Number(p.sale_discount) });
      // Never a free line, whatever the catalogue holds (the database refuses such a published
      // product too): the transaction rolls back, stock included.
      if (!(unitPrice >= MIN_UNIT_PRICE)) throw badRequest(ORDER_MESSAGES.productsUnavailable, undefined, 'CART_CHANGED');
      items.push({
        id: newId(now.getTime()), orderId, productId: line.productId, name: p.name, slug: p.slug, image: p.image,
        price: unitPrice, quantity: line.quantity, position: cart.findIndex((c) => c.productId === line.productId),
      });
    }
    // Summed in cents so that many lines cannot drift.
    const itemsPrice = roundMoney(items.reduce((acc, i) => acc + Math.round(i.price * 100) * i.quantity, 0) / 100);
    const shippingPrice = roundMoney(SHIPPING_PRICE);
    const taxPrice = roundMoney(itemsPrice * TAX_RATE);
    const totalPrice = roundMoney(itemsPrice + shippingPrice + taxPrice);
    // The answer is built from the rows as written (returning), not read again.
    const [order] = await tx.insert(orders).values({
      id: orderId, userId, shippingAddress, paymentMethod: body.paymentMethod,
      itemsPrice, shippingPrice, taxPrice, totalPrice, currency: 'USD',
      expiresAt: new Date(now.getTime() + input.expiryMinutes * 60_000), createdAt: now, updatedAt: now,
    }).returning();
    const written = await tx.insert(orderItems).values(items).returning();
    written.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
    return { created: true, placed: { order: order!, userName, items: written } };
  });
  if (result.created) return { order: presentOrder(result.placed), created: true };
  const found = await loadOrder(db, result.orderId);
  if (!found) throw new Error(`order ${result.orderId} vanished after creation`);
  return { order: presentOrder(found), created: false };
}
