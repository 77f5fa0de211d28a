import type { CreateReviewResponse, Product } from '@shop/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviews } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe('POST /api/products/{productId}/reviews', () => {
  let t: TestApp;
  let alice: TestUser;
  const post = (productId: string, payload: unknown, user: TestUser | null = alice) =>
    t.app.inject({ method: 'POST', url: `/api/products/${productId}/reviews`, headers: user ? { cookie: user.cookie } : {}, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t, { name: 'Alice Reviewer' });
  });
  afterAll(async () => { await t.close(); });

  it('requires a signed-in user', async () => {
    const p = await insertProduct(t, { name: 'Guest Target' });
    const res = await post(p.id, { rating: 5, comment: 'Hi' }, null);
    expect(res.statusCode).toBe(401);
    expect(await t.database.db.select().from(reviews)).toHaveLength(0);
  });

  it('adds the review with the account name and updates rating and count', async () => {
    const p = await insertProduct(t, { name: 'Reviewed Lamp' });
    const res = await post(p.id, { rating: 4, comment: '  Bright and warm  ', name: 'Mallory Spoofed' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as CreateReviewResponse;
    expect(body.message).toBe('Review submitted successfully');
    expect(body.review).toMatchObject({ name: 'Alice Reviewer', rating: 4, comment: 'Bright and warm' });
    expect(body.review._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.numReviews).toBe(1);
    expect(body.rating).toBe(4);

    const bob = await createUser(t, { name: 'Bob' });
    const second = await post(p.id, { rating: '5', comment: 'Love it' }, bob);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ numReviews: 2, rating: 4.5 });
    const carol = await createUser(t, { name: 'Carol' });
    const third = await post(p.id, { rating: 5, comment: 'Same' }, carol);
    expect(third.json()).toMatchObject({ numReviews: 3, rating: 4.67 });

    const page = (await t.app.inject({ method: 'GET', url: `/api/products/slug/${p.slug}` })).json() as Product;
    expect(page).toMatchObject({ numReviews: 3, rating: 4.67 });
    expect(page.reviews?.map((r) => r.name)).toEqual(['Carol', 'Bob', 'Alice Reviewer']);
    // The rating filter sees the new average.
    const four = (await t.app.inject({ method: 'GET', url: '/api/products/search?rating=4&query=lamp' })).json();
    expect(four.countProducts).toBe(1);
  });

  it('refuses a second review by the same user', async () => {
    const p = await insertProduct(t, { name: 'Once Only' });
    expect((await post(p.id, { rating: 3, comment: 'ok' })).statusCode).toBe(201);
    const res = await post(p.id, { rating: 5, comment: 'changed my mind' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You have already submitted a review for this product');
    const rows = await t.database.db.select().from(reviews).where(eq(reviews.productId, p.id));
    expect(rows).toHaveLength(1);
  });

  it('keeps exactly one review when one user submits twice at once', async () => {
    const p = await insertProduct(t, { name: 'Race Target' });
    const dave = await createUser(t, { name: 'Dave' });
    const results = await Promise.all([
      post(p.id, { rating: 5, comment: 'first' }, dave),
      post(p.id, { rating: 1, comment: 'second' }, dave),
      post(p.id, { rating: 3, comment: 'third' }, dave),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) {
      expect(r.json().message).toBe('You have already submitted a review for this product');
    }
    const rows = await t.database.db.select().from(reviews).where(eq(reviews.productId, p.id));
    expect(rows).toHaveLength(1);
    const page = (await t.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).json() as Product;
    expect(page.numReviews).toBe(1);
    expect(page.rating).toBe(rows[0]?.rating);
  });

  it('counts concurrent reviews by different users correctly', async () => {
    const p = await insertProduct(t, { name: 'Popular' });
    const users = await Promise.all([1, 2, 3, 4].map((i) => createUser(t, { name: `Fan ${i}` })));
    const results = await Promise.all(users.map((u, i) => post(p.id, { rating: i + 2, comment: 'yay' }, u)));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const page = (await t.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).json() as Product;
    expect(page).toMatchObject({ numReviews: 4, rating: 3.5 });
  });

  it.each([
    [{}, 'Please enter comment and rating'],
    [{ rating: 5 }, 'Please enter comment and rating'],
    [{ rating: 5, comment: '   ' }, 'Please enter comment and rating'],
    [{ comment: 'no rating' }, 'Please enter comment and rating'],
    [{ rating: 0, comment: 'zero' }, 'Please enter comment and rating'],
    [{ rating: null, comment: 'null' }, 'Please enter comment and rating'],
    [{ rating: 6, comment: 'too high' }, 'Rating must be a whole number from 1 to 5'],
    [{ rating: 2.5, comment: 'half' }, 'Rating must be a whole number from 1 to 5'],
    [{ rating: 'five', comment: 'text' }, 'Rating must be a whole number from 1 to 5'],
    [{ rating: 5, comment: 'x'.repeat(2001) }, 'Comment must be at most 2000 characters'],
    [{ rating: 5, comment: 42 }, 'Please enter comment and rating'],
  ])('answers 400 for %j', async (payload, message) => {
    const p = await insertProduct(t, { name: 'Validation Target' });
    const res = await post(p.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers 400 for a request without a body', async () => {
    const p = await insertProduct(t, { name: 'No Body' });
    const res = await t.app.inject({ method: 'POST', url: `/api/products/${p.id}/reviews`, headers: { cookie: alice.cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter comment and rating');
  });

  it('answers Product not found for unknown ids and drafts', async () => {
    const draft = await insertProduct(t, { name: 'Hidden', isDraft: true });
    for (const id of [newId(), 'nope', draft.id]) {
      const res = await post(id, { rating: 5, comment: 'hello' });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('Product not found');
    }
  });

  it('lets administrators review too', async () => {
    const admin = await createAdmin(t, { name: 'Admin Person' });
    const p = await insertProduct(t, { name: 'Admin Reviewed' });
    const res = await post(p.id, { rating: 5, comment: 'Staff pick' }, admin);
    expect(res.statusCode).toBe(201);
    expect(res.json().review.name).toBe('Admin Person');
  });
});
