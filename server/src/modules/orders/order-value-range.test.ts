import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALUE_OUT_OF_RANGE_MESSAGE } from '../../lib/http-errors.ts';
import { addToCart, call, sampleAddress, stockOf } from '../../test/commerce-factories.ts';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from '../products/test-factories.ts';

describe('an order whose total is too large to store', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('answers 400 with a clear message (not a 500), takes no stock and writes no order', async () => {
    const buyer = await createUser(t, { name: 'Yacht Buyer' });
    const ids: string[] = [];
    // Each line is within the shop's limits; together they overflow the order total's numeric(12,2).
    for (let i = 0; i < 11; i += 1) {
      const product = await insertProduct(t, { name: `Yacht ${i}`, price: 1_000_000, countInStock: 1_000 });
      ids.push(product!.id);
      await addToCart(t, buyer, product!.id, 999);
    }
    const res = await call<{ message: string; code: string }>(t, buyer, 'POST', '/api/orders', { shippingAddress: sampleAddress(), paymentMethod: 'PayPal' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: VALUE_OUT_OF_RANGE_MESSAGE, code: 'VALUE_OUT_OF_RANGE' });
    for (const id of ids) expect(await stockOf(t, id)).toBe(1_000);
    const mine = await call<unknown[]>(t, buyer, 'GET', '/api/orders/mine');
    expect(mine.body).toEqual([]);
  });
});
