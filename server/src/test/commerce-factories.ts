import type { Address, Cart, Order } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { products } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { TestApp, TestUser } from './test-app.ts';

let productCounter = 0;

export type ProductRow = typeof products.$inferSelect;

/** Inserts a sellable product directly (the catalogue module is not involved). */
export async function createProduct(
  t: TestApp,
  overrides: Partial<typeof products.$inferInsert> = {},
): Promise<ProductRow> {
  productCounter += 1;
  const id = newId();
  const [row] = await t.database.db.insert(products).values({
    id,
    name: `Test Product ${productCounter}`,
    slug: `test-product-${productCounter}-${id.slice(-6)}`,
    price: 10,
    image: `/uploads/p${productCounter}.webp`,
    images: [],
    category: 'Testing',
    brand: 'Acme',
    countInStock: 10,
    description: 'A product made for tests',
    ...overrides,
  }).returning();
  return row!;
}

export async function stockOf(t: TestApp, productId: string): Promise<number | undefined> {
  const [row] = await t.database.db.select({ n: products.countInStock }).from(products).where(eq(products.id, productId));
  return row?.n;
}

type Json = Record<string, unknown>;

/** app.inject as the given user (or anonymous); answers status and parsed JSON. */
export async function call<T = Json>(
  t: TestApp,
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await t.app.inject({
    method,
    url,
    headers: user ? { cookie: user.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: (res.body ? res.json() : null) as T };
}

export async function addToCart(t: TestApp, user: TestUser, productId: string, quantity = 1): Promise<Cart> {
  const res = await call<Cart>(t, user, 'POST', '/api/cart/items', { productId, quantity });
  if (res.status !== 200) throw new Error(`addToCart failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const sampleAddress = (n = 1) => ({
  fullName: `Jane Doe ${n}`,
  address: `${n} Main Street`,
  city: 'Springfield',
  postalCode: `1000${n}`,
  country: 'USA',
});

export async function createAddressFor(t: TestApp, user: TestUser, body: Json = sampleAddress()): Promise<Address> {
  const res = await call<Address>(t, user, 'POST', '/api/addresses', body);
  if (res.status !== 201) throw new Error(`createAddress failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Puts the items in the user's cart and places an order shipped to a typed address. */
export async function placeOrderFor(
  t: TestApp,
  user: TestUser,
  items: Array<{ productId: string; quantity: number }>,
): Promise<Order> {
  for (const i of items) await addToCart(t, user, i.productId, i.quantity);
  const res = await call<Order>(t, user, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
  if (res.status !== 201) throw new Error(`placeOrder failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
