import { PAGE_NOT_FOUND, PAGE_SLUGS, type Page, type PageList } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/commerce-factories.ts';
import { createAdmin, createTestApp, createUser, type TestApp, type TestUser } from '../../test/test-app.ts';
import { loadFaq, matchFaq } from '../chat/assistant/faq.ts';

describe('information pages', () => {
  let t: TestApp;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    customer = await createUser(t);
  });
  afterAll(async () => { await t.close(); });

  it('lists the six seeded pages in footer order, and anyone reads one', async () => {
    const list = await call<PageList>(t, null, 'GET', '/api/pages');
    expect(list.status).toBe(200);
    expect(list.body.pages.map((p) => p.slug)).toEqual([...PAGE_SLUGS]);
    const shipping = await call<Page>(t, null, 'GET', '/api/pages/shipping');
    expect(shipping.status).toBe(200);
    expect(shipping.body).toMatchObject({ slug: 'shipping', title: 'Shipping Policy' });
    expect(shipping.body.body).toMatch(/free/);
    expect(shipping.body.faq).toBeUndefined();
  });

  it('the FAQ page lists the same questions the assistant answers from', async () => {
    const faq = await call<Page>(t, null, 'GET', '/api/pages/faq');
    expect(faq.body.faq?.map((e) => e.id)).toEqual(['shipping', 'returns', 'payment', 'account', 'contact']);
    expect(loadFaq().map((e) => e.question)).toEqual(faq.body.faq?.map((e) => e.question));
    expect(matchFaq('can I get a refund?')[0]?.id).toBe('returns');
  });

  it('answers 404 for a page that does not exist', async () => {
    for (const slug of ['careers', 'FAQ', '..%2Fusers']) {
      const res = await call<{ message: string }>(t, null, 'GET', `/api/pages/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.body.message).toBe(PAGE_NOT_FOUND);
    }
  });

  it('an administrator edits title and Markdown; customers may not', async () => {
    const body = { title: 'About This Shop', body: '# Hello\n\n<script>alert(1)</script> kept as text, rendered without HTML' };
    expect((await call(t, null, 'PUT', '/api/pages/about', body)).status).toBe(401);
    expect((await call(t, customer, 'PUT', '/api/pages/about', body)).status).toBe(403);
    const res = await call<{ message: string; page: Page }>(t, admin, 'PUT', '/api/pages/about', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Page Updated', page: { slug: 'about', ...body } });
    expect((await call<Page>(t, null, 'GET', '/api/pages/about')).body).toMatchObject(body);
  });

  it('rejects bad input with a clear 400', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['about', { title: '  ', body: 'x' }, /Title is required/],
      ['about', { title: 'x'.repeat(121), body: 'x' }, /at most 120/],
      ['about', { title: 'x', body: 'x'.repeat(20_001) }, /at most 20000/],
      ['about', { title: 'x', body: 'x', faq: [] }, /Only the FAQ page has questions/],
      ['faq', { title: 'x', body: 'x', faq: [{ question: 'Q?', answer: 'A', keywords: [] }] }, /at least one keyword/],
      ['faq', { title: 'x', body: 'x', faq: [{ question: '', answer: 'A', keywords: ['a'] }] }, /Question is required/],
    ];
    for (const [slug, body, message] of cases) {
      const res = await call<{ message: string }>(t, admin, 'PUT', `/api/pages/${slug}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await call(t, admin, 'PUT', '/api/pages/careers', { title: 'x', body: 'x' })).status).toBe(404);
  });

  it('saving the FAQ replaces its questions, in order, and the assistant answers from them at once', async () => {
    const faq = [
      { question: 'Do you ship to the moon?', answer: 'Not yet, sorry.', keywords: ['Moon', 'space', 'moon'] },
      { question: 'Do you sell gift cards?', answer: 'Yes, in every amount.', keywords: ['gift card'] },
    ];
    const res = await call<{ page: Page }>(t, admin, 'PUT', '/api/pages/faq', { title: 'FAQ', body: 'Ask us anything.', faq });
    expect(res.status).toBe(200);
    expect(res.body.page.faq?.map((e) => [e.question, e.keywords])).toEqual([
      ['Do you ship to the moon?', ['moon', 'space']],
      ['Do you sell gift cards?', ['gift card']],
    ]);
    expect(matchFaq('Can you ship to the MOON?')[0]?.answer).toBe('Not yet, sorry.');
    expect(matchFaq('what is your return policy')).toEqual([]);
    // Saving without `faq` keeps the questions.
    await call(t, admin, 'PUT', '/api/pages/faq', { title: 'FAQ', body: 'Changed intro.' });
    expect((await call<Page>(t, null, 'GET', '/api/pages/faq')).body.faq).toHaveLength(2);
  });
});
