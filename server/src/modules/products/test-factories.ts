import { products } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { TestApp } from '../../test/test-app.ts';

export type NewProduct = Partial<typeof products.$inferInsert> & { name: string };

let counter = 0;

/** Inserts a published product directly (tests of search, cart, orders). */
export async function insertProduct(t: Pick<TestApp, 'database'>, p: NewProduct) {
  counter += 1;
  const createdAt = p.createdAt ?? new Date(Date.now() - counter * 1000);
  const values = {
    id: newId(createdAt.getTime()),
    slug: `${p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${counter}`,
    price: 10,
    image: '/uploads/test.webp',
    images: [],
    category: 'General',
    brand: 'Acme',
    countInStock: 5,
    description: `${p.name} description`,
    ...p,
    createdAt,
    updatedAt: p.updatedAt ?? createdAt,
  };
  const [row] = await t.database.db.insert(products).values(values).returning();
  if (!row) throw new Error('insert failed');
  return row;
}
