import type { Database } from '../../server/src/db/client.ts';

/** Words the generator builds products from; the benchmark searches for them too. */
export const ADJECTIVES = [
  'Wireless', 'Classic', 'Compact', 'Premium', 'Vintage', 'Smart', 'Organic', 'Portable', 'Deluxe', 'Rugged',
  'Modern', 'Ergonomic', 'Handmade', 'Waterproof', 'Foldable', 'Ultralight', 'Cozy', 'Bamboo', 'Ceramic', 'Leather',
];
export const NOUNS = [
  'Headphones', 'Speaker', 'Lamp', 'Backpack', 'Wallet', 'Sneakers', 'Watch', 'Kettle', 'Mug', 'Notebook',
  'Jacket', 'Camera', 'Keyboard', 'Blender', 'Tent', 'Bottle', 'Chair', 'Desk', 'Pillow', 'Blanket',
  'Sunglasses', 'Charger', 'Drone', 'Guitar', 'Skillet', 'Planter', 'Scarf', 'Tripod', 'Monitor', 'Router',
];
export const CATEGORIES = [
  'Electronics', 'Audio', 'Home & Kitchen', 'Fashion', 'Sports & Outdoors', 'Beauty', 'Toys & Games', 'Books',
  'Office', 'Garden', 'Automotive', 'Pet Supplies', 'Health', 'Jewelry', 'Music', 'Baby', 'Tools', 'Grocery',
  'Furniture', 'Travel',
];
export const BRANDS = [
  'Nova', 'Zentek', 'SoundMax', 'Echo', 'Hearth', 'Lumo', 'Urbano', 'Stride', 'Summit', 'Bloom', 'Brainy',
  'Paperleaf', 'Inkwell', 'Sitwell', 'Greenhouse', 'Fieldcraft', 'Kickoff', 'Solace', 'Pulse', 'Pixelight',
];
const DESCRIPTION_WORDS = [
  'durable', 'lightweight', 'elegant', 'practical', 'everyday', 'travel', 'gift', 'quiet', 'powerful', 'soft',
  'stylish', 'sturdy', 'washable', 'rechargeable', 'adjustable', 'minimal', 'colourful', 'warm', 'fast', 'eco',
];

const arr = (xs: readonly string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/**
 * Inserts `count` published products in batches with generate_series (one INSERT ... SELECT per
 * batch, computed in the database), with varied names, categories, brands, prices, ratings, flags
 * and creation times. Slugs are `bench-{n}`. Works on PostgreSQL and PGlite.
 */
export async function generateProducts(database: Database, count: number, batch = 20_000): Promise<void> {
  // h(n, k): a cheap deterministic hash of n for spreading values.
  const h = (k: number) => `((g::bigint * ${2_654_435_761 + k * 97}) % 1000003)`;
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1);
    await database.exec(`
      INSERT INTO products (id, name, slug, price, image, images, category, brand, count_in_stock, description,
        rating, num_reviews, is_todays_deal, is_gift, is_on_sale, sale_discount, created_at, updated_at)
      SELECT
        lpad(to_hex(g), 24, '0'),
        (${arr(ADJECTIVES)})[1 + ${h(1)} % ${ADJECTIVES.length}] || ' ' || (${arr(NOUNS)})[1 + ${h(2)} % ${NOUNS.length}] || ' ' || g,
        'bench-' || g,
        round((1 + (${h(3)} % 99900) / 100.0)::numeric, 2),
        '/uploads/bench.webp',
        '[]'::jsonb,
        (${arr(CATEGORIES)})[1 + ${h(4)} % ${CATEGORIES.length}],
        (${arr(BRANDS)})[1 + ${h(5)} % ${BRANDS.length}],
        (${h(6)} % 40)::int,
        'A ' || (${arr(DESCRIPTION_WORDS)})[1 + ${h(7)} % ${DESCRIPTION_WORDS.length}] || ' and '
          || (${arr(DESCRIPTION_WORDS)})[1 + ${h(8)} % ${DESCRIPTION_WORDS.length}] || ' '
          || lower((${arr(NOUNS)})[1 + ${h(2)} % ${NOUNS.length}]) || ' for home, work and travel. Model ' || g || '.',
        ((${h(9)} % 51) / 10.0)::real,
        (${h(10)} % 300)::int,
        ${h(11)} % 17 = 0,
        ${h(12)} % 11 = 0,
        ${h(13)} % 7 = 0,
        CASE WHEN ${h(13)} % 7 = 0 THEN 5 + (${h(14)} % 46)::int ELSE 0 END,
        now() - make_interval(secs => (${count} - g) * 60 + (${h(15)} % 60)),
        now()
      FROM generate_series(${start}, ${end}) AS g
    `);
  }
  await database.exec('VACUUM ANALYZE products');
}
