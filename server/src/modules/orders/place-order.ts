import {
  ADDRESS_NOT_FOUND_MESSAGE, OUT_OF_STOCK_MESSAGE, ORDER_MESSAGES, type Order, type PlaceOrderBody,
} from '@shop/contracts';
import { and, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { addresses, orderItems, orders, products, users, type OrderShippingAddress } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { isId, newId } from '../../lib/ids.ts';
import { finalPrice, MIN_UNIT_PRICE, roundMoney } from '../../lib/money.ts';
import { findCartLines, isAvailable } from '../cart/get-cart.ts';
import { assertSupplierSellable } from '../supplier/index.ts';
import { loadOrder } from './find-orders.ts';
import { presentOrder } from './orders.presenter.ts';

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

async function resolveShippingAddress(tx: Tx, userId: string, body: PlaceOrderBody): Promise<OrderShippingAddress> {
  if (body.addressId) {
    if (!isId(body.addressId)) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
    const [a] = await tx.select().from(addresses).where(and(eq(addresses.id, body.addressId), eq(addresses.userId, userId))).limit(1);
    if (!a) throw notFound(ADDRESS_NOT_FOUND_MESSAGE);
    return { fullName: a.fullName, address: a.address, city: a.city, postalCode: a.postalCode, country: a.country };
  }
  if (body.shippingAddress) return { ...body.shippingAddress };
  throw badRequest(ORDER_MESSAGES.addressRequired, { shippingAddress: ORDER_MESSAGES.addressRequired });
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
  const result = await db.transaction(async (tx) => {
    // One checkout at a time per customer.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const shippingAddress = await resolveShippingAddress(tx, userId, body);

    const cart = await findCartLines(tx, userId);
    if (!cart.length) throw badRequest(ORDER_MESSAGES.cartEmpty, undefined, 'CART_EMPTY');
    if (cart.some((l) => !isAvailable(l.product))) throw badRequest(ORDER_MESSAGES.productsUnavailable, undefined, 'CART_CHANGED');
    await assertSupplierSellable(tx, cart.map((l) => l.productId));

    // Sorted by product id: every transaction locks product rows in the same order.
    const lines = cart.map((l) => ({ productId: l.productId, quantity: l.quantity })).sort((a, b) => (a.productId < b.productId ? -1 : 1));
    const sig = signature(lines, shippingAddress);
    const duplicate = await findDoubleSubmit(tx, userId, now, sig);
    if (duplicate) return { orderId: duplicate, created: false };

    const orderId = newId(now.getTime());
    const items: Array<typeof orderItems.$inferInsert> = [];
    for (const line of lines) {
      const [p] = await tx.update(products)
        .set({ countInStock: sql`${products.countInStock} - ${line.quantity}` })
        .where(and(eq(products.id, line.productId), eq(products.isDraft, false), gte(products.countInStock, line.quantity)))
        .returning({
          name: products.name, slug: products.slug, image: products.image,
          price: products.price, isOnSale: products.isOnSale, saleDiscount: products.saleDiscount,
        });
      if (!p) throw badRequest(OUT_OF_STOCK_MESSAGE, undefined, 'OUT_OF_STOCK');
      const unitPrice = finalPrice(p);
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
    await tx.insert(orders).values({
      id: orderId, userId, shippingAddress, paymentMethod: body.paymentMethod,
      itemsPrice, shippingPrice, taxPrice, totalPrice, currency: 'USD',
      expiresAt: new Date(now.getTime() + input.expiryMinutes * 60_000), createdAt: now, updatedAt: now,
    });
    await tx.insert(orderItems).values(items);
    return { orderId, created: true };
  });
  const found = await loadOrder(db, result.orderId);
  if (!found) throw new Error(`order ${result.orderId} vanished after creation`);
  return { order: presentOrder(found), created: result.created };
}
