import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe('GET /api/products/:productId/reviews/mine', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it("answers the user's own review once they reviewed, null before, and never someone else's", async () => {
    const p = await insertProduct(t, { name: 'Reviewed Kettle' });
    const alice = await createUser(t, { name: 'Alice' });
    const bob = await createUser(t, { name: 'Bob' });
    const mine = (cookie: string) => t.app.inject({ method: 'GET', url: `/api/products/${p.id}/reviews/mine`, headers: { cookie } });
    expect((await mine(alice.cookie)).json()).toEqual({ review: null });
    const created = await t.app.inject({ method: 'POST', url: `/api/products/${p.id}/reviews`, headers: { cookie: alice.cookie }, payload: { rating: 4, comment: 'Boils fast' } });
    expect(created.statusCode).toBe(201);
    const res = await mine(alice.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().review).toMatchObject({ name: 'Alice', rating: 4, comment: 'Boils fast' });
    expect((await mine(bob.cookie)).json()).toEqual({ review: null });
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${p.id}/reviews/mine` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/products/not-an-id/reviews/mine', headers: { cookie: alice.cookie } })).json()).toEqual({ review: null });
  });
});
