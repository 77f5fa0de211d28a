import { sql } from 'drizzle-orm';
import { newId } from '../../lib/ids.ts';
import type { Db } from '../client.ts';
import { products, productVariants, reviews } from '../schema.ts';
import { DEMO_CATALOGUE, REVIEW_COMMENTS, REVIEWER_NAMES } from './catalogue-data.ts';
import { DEMO_VIEWS, demoImageKey, demoSlug } from './demo-images.ts';
import { mulberry32 } from '../../lib/seeded-random.ts';


const DAY = 86_400_000;

/**
 * Demo products sold in options (issue 34): each combination is a variant with its own price and
 * stock; the product's price is the lowest and its stock their sum, as the product form saves them.
 */
const DEMO_OPTIONS: Record<string, { option: string; variants: Array<{ value: string; price: number; stock: number; sku: string }> }> = {
  'Everyday Cotton T-Shirt': {
    option: 'Size',
    variants: [
      { value: 'S', price: 19.99, stock: 8, sku: 'URB-TEE-S' },
      { value: 'M', price: 19.99, stock: 12, sku: 'URB-TEE-M' },
      { value: 'L', price: 19.99, stock: 10, sku: 'URB-TEE-L' },
      { value: 'XL', price: 21.99, stock: 4, sku: 'URB-TEE-XL' },
    ],
  },
};

export interface CatalogueSeedResult {
  products: number;
  reviews: number;
}

/**
 * Seeds the demo catalogue into an empty products table: 64 products over 10 categories, each with
 * three image views, and reviews by demo reviewers; some on sale, some today's deals, some gifts,
 * some out of stock, one sold in sizes (DEMO_OPTIONS). Deterministic. The images are not drawn here: their URLs are demo image keys
 * that the upload store draws on first request or after the start (demo-images.ts).
 */
export async function seedCatalogue(db: Db, now = Date.now()): Promise<CatalogueSeedResult> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (Number(count) > 0) return { products: 0, reviews: 0 };
  const rand = mulberry32(20_240_601);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

  const productRows: Array<typeof products.$inferInsert> = [];
  const variantRows: Array<typeof productVariants.$inferInsert> = [];
  const reviewRows: Array<typeof reviews.$inferInsert> = [];
  let index = 0;

  for (const category of DEMO_CATALOGUE) {
    for (const item of category.products) {
      const i = index++;
      const slug = demoSlug(item.name);
      const createdAt = new Date(now - Math.floor((i * 37 % 64) * 0.9 * DAY + rand() * 3_600_000 * 20));
      const id = newId(createdAt.getTime());
      const keys = DEMO_VIEWS.map((v) => demoImageKey(slug, v));

      const isOnSale = i % 4 === 1 || i % 9 === 4;
      const isTodaysDeal = i % 7 === 2 || i % 10 === 5;
      const isGift = category.name === 'Toys & Games' || (category.name === 'Beauty' && i % 2 === 0) || i % 8 === 3;
      const countInStock = i % 11 === 6 || i === 20 ? 0 : 3 + Math.floor(rand() * 60);

      // Reviews: most products have a few, some none; ratings lean positive but vary.
      const numReviews = i % 6 === 5 ? 0 : 1 + Math.floor(rand() * 6);
      const names = [...REVIEWER_NAMES].sort(() => rand() - 0.5).slice(0, numReviews);
      const bias = rand();
      let total = 0;
      names.forEach((name, r) => {
        const roll = rand() * 0.7 + bias * 0.3;
        const rating = (roll > 0.75 ? 5 : roll > 0.5 ? 4 : roll > 0.3 ? 3 : roll > 0.15 ? 2 : 1) as 1 | 2 | 3 | 4 | 5;
        total += rating;
        const reviewedAt = new Date(Math.min(now - 60_000, createdAt.getTime() + (r + 1) * DAY * (0.5 + rand() * 2)));
        reviewRows.push({ id: newId(reviewedAt.getTime()), productId: id, userId: null, name, rating, comment: pick(REVIEW_COMMENTS[rating]), createdAt: reviewedAt });
      });

      productRows.push({
        id,
        name: item.name,
        slug,
        price: item.price,
        image: `/uploads/${keys[0]}`,
        images: keys.slice(1).map((k) => `/uploads/${k}`),
        category: category.name,
        brand: item.brand,
        countInStock,
        description: item.description,
        rating: numReviews ? Math.round((total / numReviews) * 100) / 100 : 0,
        numReviews,
        isTodaysDeal,
        isGift,
        isOnSale,
        saleDiscount: isOnSale ? pick([10, 15, 20, 25, 30, 40]) : 0,
        createdAt,
        updatedAt: createdAt,
      });
      const sold = DEMO_OPTIONS[item.name];
      if (sold) {
        const row = productRows[productRows.length - 1]!;
        Object.assign(row, {
          options: [{ name: sold.option, values: sold.variants.map((v) => v.value) }],
          price: Math.min(...sold.variants.map((v) => v.price)),
          variantPriceMax: Math.max(...sold.variants.map((v) => v.price)),
          countInStock: sold.variants.reduce((sum, v) => sum + v.stock, 0),
        });
        sold.variants.forEach((v, position) => {
          const variantId = newId(createdAt.getTime() + position + 1);
          variantRows.push({
            id: variantId, productId: id, vid: variantId, name: v.value, options: { [sold.option]: v.value }, sku: v.sku,
            price: v.price, countInStock: v.stock, position, createdAt, updatedAt: createdAt,
          });
        });
      }
    }
  }

  await db.transaction(async (tx) => {
    await tx.insert(products).values(productRows);
    if (variantRows.length) await tx.insert(productVariants).values(variantRows);
    await tx.insert(reviews).values(reviewRows);
  });
  return { products: productRows.length, reviews: reviewRows.length };
}
