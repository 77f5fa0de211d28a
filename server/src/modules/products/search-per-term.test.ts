import type { Product, ProductSearchResponse } from '@shop/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { insertProduct } from './test-factories.ts';

describe('GET /api/products/search: misspelt words matched one by one (search_words)', () => {
  let t: TestApp;
  const search = async (qs: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products/search?${qs}` });
    expect(res.statusCode).toBe(200);
    return res.json() as ProductSearchResponse;
  };
  const names = (b: ProductSearchResponse) => b.products.map((p: Product) => p.name);

  beforeAll(async () => {
    t = await createTestApp();
    await insertProduct(t, { name: 'Aurora Wireless Headphones', brand: 'SoundMax', category: 'Electronics', description: 'Over-ear headphones with deep bass.' });
    await insertProduct(t, { name: 'Noise Cancelling Earbuds', brand: 'SoundMax', category: 'Electronics', description: 'Tiny earbuds, a travel alternative to big headphones.' });
    await insertProduct(t, { name: 'Studio Monitor Speakers', brand: 'SoundMax', category: 'Electronics', description: 'Near-field speakers.' });
    await insertProduct(t, { name: 'Wired Office Headset', brand: 'Deskly', category: 'Electronics', description: 'A headset for calls; not wireless.' });
    await insertProduct(t, { name: 'Basic Cotton T-Shirt', brand: 'Urbano', category: 'Fashion', description: 'A soft tee.' });
    await insertProduct(t, { name: 'Classic Leather Wallet', brand: 'Urbano', category: 'Fashion', description: 'Full-grain leather.' });
  });
  afterAll(async () => { await t.close(); });

  it('finds "noise cancelng headphones" (one misspelt word among correct ones)', async () => {
    const body = await search('query=noise%20cancelng%20headphones');
    expect(names(body)).toEqual(['Noise Cancelling Earbuds']);
    expect(body.suggestions).toBeUndefined();
  });

  it('finds "tshirt" (a hyphenated word typed without its hyphen) and "t-shirt"', async () => {
    expect(names(await search('query=tshirt'))).toEqual(['Basic Cotton T-Shirt']);
    expect(names(await search('query=t-shirt'))).toEqual(['Basic Cotton T-Shirt']);
    expect(names(await search('query=TShirts'))).toEqual(['Basic Cotton T-Shirt']);
  });

  it('finds "wireles hedphones" (every word misspelt) and ranks the best match first', async () => {
    const body = await search('query=wireles%20hedphones');
    expect(names(body)[0]).toBe('Aurora Wireless Headphones');
    expect(names(body)).not.toContain('Studio Monitor Speakers');
    expect(names(await search('query=sundmax%20speakrs'))).toEqual(['Studio Monitor Speakers']);
  });

  it('keeps the filters on per-word matches', async () => {
    expect((await search('query=wireles%20hedphones&category=Fashion')).countProducts).toBe(0);
    expect(names(await search('query=walet&category=Fashion'))).toEqual(['Classic Leather Wallet']);
  });

  it("answers 'nothing' with suggestions: a did-you-mean that finds products, and categories", async () => {
    const none = await search('query=zzzzqqqq');
    expect(none).toMatchObject({ products: [], countProducts: 0, pages: 0, page: 1 });
    expect(none.suggestions).toEqual({ didYouMean: null, categories: ['Electronics', 'Fashion'] });
    const partly = await search('query=zzzzqqqq%20walet');
    expect(partly.countProducts).toBe(0);
    expect(partly.suggestions?.didYouMean).toBe('wallet');
    expect(names(await search(`query=${partly.suggestions?.didYouMean}`))).toEqual(['Classic Leather Wallet']);
  });

  it('learns the words of new and renamed products, never of drafts (triggers on products)', async () => {
    const { id } = await insertProduct(t, { name: 'Quixotic Gizmo', brand: 'Zany', category: 'Toys', description: 'Odd.' });
    expect(names(await search('query=quixotik%20gizmo'))).toEqual(['Quixotic Gizmo']);
    await t.database.db.execute(sql`update products set name = 'Marvellous Gadget' where id = ${id}`);
    const words = (await t.database.db.execute(sql`select word from search_words where word in ('marvellous', 'gadget') order by word`)) as unknown as { rows: Array<{ word: string }> };
    expect(words.rows.map((r) => r.word)).toEqual(['gadget', 'marvellous']);
    await insertProduct(t, { name: 'Secretive Prototype', brand: 'Zany', category: 'Toys', isDraft: true });
    const secret = (await t.database.db.execute(sql`select word from search_words where word = 'secretive'`)) as unknown as { rows: unknown[] };
    expect(secret.rows).toHaveLength(0);
  });
});
