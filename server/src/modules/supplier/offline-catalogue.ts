/**
 * The bundled supplier catalogue used when no CJ account is connected (no CJ_API_KEY): 210 products
 * over 10 categories, 1-6 variants each, in CJ's own shapes, with images drawn locally by the demo
 * catalogue's image generator (db/seed/catalogue-images.ts). Deterministic: the same on every
 * machine and start, so saved offline products keep pointing at the same images.
 */
import { OFFLINE_SUPPLIER_IMAGE_PREFIX } from '@shop/contracts/images';
import type { ShapeKind } from '../../db/seed/catalogue-data.ts';
import { productImageSvg, renderImage } from '../../db/seed/catalogue-images.ts';
import type { CjCategoryData, CjListProduct, CjProductData, CjStockData } from './cj-types.ts';
import { mulberry32 } from '../../lib/seeded-random.ts';

/** Where the offline catalogue's images are served (a product may point at them: contracts' isProductImageUrl). */
export const OFFLINE_IMAGE_PREFIX = OFFLINE_SUPPLIER_IMAGE_PREFIX;
/** The label under the drawing: never the supplier's name (the images are the shop's, issue 23). */
const IMAGE_LABEL = '';

interface Base { noun: string; kind: ShapeKind; cost: number; options: 'color' | 'size' | 'shoe' | 'color-size' }
interface CategoryDef {
  first: string;
  second: string;
  name: string;
  palette: [string, string];
  modifiers: [string, string, string];
  bases: Base[];
  blurb: string;
}

const CATEGORIES: CategoryDef[] = [
  {
    first: 'Consumer Electronics', second: 'Home Audio & Video', name: 'Earphones & Speakers', palette: ['#4338ca', '#22d3ee'],
    modifiers: ['Wireless', 'Portable', 'Noise Cancelling'],
    blurb: 'Bluetooth 5.3, fast pairing and a long-lasting rechargeable battery.',
    bases: [
      { noun: 'Over-Ear Headphones', kind: 'headphones', cost: 14.2, options: 'color' },
      { noun: 'Gaming Headset With Mic', kind: 'headphones', cost: 11.6, options: 'color' },
      { noun: 'Earbuds With Charging Case', kind: 'earbuds', cost: 6.4, options: 'color' },
      { noun: 'Sport Ear Hook Earphones', kind: 'earbuds', cost: 5.1, options: 'color' },
      { noun: 'Mini Bluetooth Speaker', kind: 'speaker', cost: 7.9, options: 'color' },
      { noun: 'Waterproof Shower Speaker', kind: 'speaker', cost: 6.8, options: 'color' },
      { noun: 'Bookshelf Speaker', kind: 'speaker', cost: 18.5, options: 'color' },
    ],
  },
  {
    first: 'Phones & Accessories', second: 'Mobile Phone Accessories', name: 'Smart Gadgets', palette: ['#0f766e', '#5eead4'],
    modifiers: ['Smart', 'Magnetic', 'Foldable'],
    blurb: 'Works with iOS and Android; compact, light and easy to carry.',
    bases: [
      { noun: 'Phone Stand Holder', kind: 'phone', cost: 2.3, options: 'color' },
      { noun: 'Fitness Tracker Watch', kind: 'watch', cost: 9.7, options: 'color' },
      { noun: 'Kids Smart Watch', kind: 'watch', cost: 12.4, options: 'color' },
      { noun: 'Ring Light Selfie Camera Kit', kind: 'camera', cost: 8.6, options: 'color' },
      { noun: 'Action Camera Mount', kind: 'camera', cost: 4.2, options: 'color' },
      { noun: 'Wireless Charging Pad', kind: 'phone', cost: 5.5, options: 'color' },
      { noun: 'Laptop Stand', kind: 'laptop', cost: 10.9, options: 'color' },
    ],
  },
  {
    first: 'Home, Garden & Furniture', second: 'Kitchen, Dining & Bar', name: 'Drinkware & Kitchen', palette: ['#b45309', '#fcd34d'],
    modifiers: ['Insulated', 'Ceramic', 'Stainless Steel'],
    blurb: 'Food-grade materials, easy to clean and dishwasher safe.',
    bases: [
      { noun: 'Coffee Mug', kind: 'mug', cost: 3.1, options: 'color' },
      { noun: 'Travel Tumbler With Lid', kind: 'mug', cost: 4.6, options: 'color' },
      { noun: 'Electric Kettle', kind: 'kettle', cost: 13.8, options: 'color' },
      { noun: 'Gooseneck Pour Over Kettle', kind: 'kettle', cost: 11.2, options: 'color' },
      { noun: 'Water Bottle 750ml', kind: 'bottle', cost: 3.9, options: 'color' },
      { noun: 'Storage Jar Set', kind: 'jar', cost: 6.3, options: 'color' },
      { noun: 'Spice Jar With Bamboo Lid', kind: 'jar', cost: 2.7, options: 'color' },
    ],
  },
  {
    first: 'Home Improvement', second: 'Lights & Lighting', name: 'Lamps & Decor', palette: ['#a16207', '#fde68a'],
    modifiers: ['Nordic', 'Dimmable LED', 'Rechargeable'],
    blurb: 'Warm and cool light modes, energy saving LEDs and a soft diffuser.',
    bases: [
      { noun: 'Desk Lamp', kind: 'lamp', cost: 9.4, options: 'color' },
      { noun: 'Bedside Night Light', kind: 'lamp', cost: 5.2, options: 'color' },
      { noun: 'Floor Lamp', kind: 'lamp', cost: 24.6, options: 'color' },
      { noun: 'Artificial Potted Plant', kind: 'plant', cost: 4.8, options: 'color' },
      { noun: 'Succulent Planter Pot', kind: 'plant', cost: 3.3, options: 'color' },
      { noun: 'Accent Chair Cushion', kind: 'chair', cost: 7.1, options: 'color' },
      { noun: 'Watering Can', kind: 'can', cost: 4.4, options: 'color' },
    ],
  },
  {
    first: "Women's Clothing", second: 'Tops & Tees', name: 'T-Shirts & Tops', palette: ['#7e22ce', '#f0abfc'],
    modifiers: ['Oversized', 'Cotton', 'Summer'],
    blurb: 'Soft breathable fabric, relaxed fit; machine wash cold.',
    bases: [
      { noun: 'Crew Neck T-Shirt', kind: 'shirt', cost: 3.6, options: 'color-size' },
      { noun: 'Graphic Tee', kind: 'shirt', cost: 4.1, options: 'color-size' },
      { noun: 'Long Sleeve Top', kind: 'shirt', cost: 5.3, options: 'color-size' },
      { noun: 'Button Down Shirt', kind: 'shirt', cost: 6.7, options: 'color-size' },
      { noun: 'Polo Shirt', kind: 'shirt', cost: 5.9, options: 'color-size' },
      { noun: 'Tank Top', kind: 'shirt', cost: 2.8, options: 'color-size' },
      { noun: 'Hoodie', kind: 'shirt', cost: 9.8, options: 'color-size' },
    ],
  },
  {
    first: 'Bags & Shoes', second: 'Luggage & Bags', name: 'Bags & Backpacks', palette: ['#9f1239', '#fb7185'],
    modifiers: ['Waterproof', 'Vintage', 'Large Capacity'],
    blurb: 'Durable fabric, reinforced straps and plenty of pockets.',
    bases: [
      { noun: 'Tote Bag', kind: 'bag', cost: 5.4, options: 'color' },
      { noun: 'Crossbody Bag', kind: 'bag', cost: 6.2, options: 'color' },
      { noun: 'Laptop Backpack', kind: 'backpack', cost: 11.3, options: 'color' },
      { noun: 'Hiking Daypack', kind: 'backpack', cost: 9.6, options: 'color' },
      { noun: 'Canvas Sneakers', kind: 'shoe', cost: 8.9, options: 'shoe' },
      { noun: 'Running Shoes', kind: 'shoe', cost: 12.7, options: 'shoe' },
      { noun: 'Duffel Weekend Bag', kind: 'bag', cost: 10.2, options: 'color' },
    ],
  },
  {
    first: 'Sports & Outdoors', second: 'Fitness & Body Building', name: 'Sports & Fitness', palette: ['#c2410c', '#fdba74'],
    modifiers: ['Professional', 'Outdoor', 'Training'],
    blurb: 'Made for everyday training, indoors and outdoors.',
    bases: [
      { noun: 'Football Size 5', kind: 'ball', cost: 6.1, options: 'color' },
      { noun: 'Basketball', kind: 'ball', cost: 7.4, options: 'color' },
      { noun: 'Sports Water Bottle', kind: 'bottle', cost: 3.2, options: 'color' },
      { noun: 'Shaker Bottle', kind: 'bottle', cost: 2.9, options: 'color' },
      { noun: 'Trail Shoes', kind: 'shoe', cost: 14.1, options: 'shoe' },
      { noun: 'Gym Backpack', kind: 'backpack', cost: 8.2, options: 'color' },
      { noun: 'Cycling Sunglasses', kind: 'sunglasses', cost: 4.7, options: 'color' },
    ],
  },
  {
    first: 'Toys, Kids & Babies', second: 'Toys & Hobbies', name: 'Toys & Puzzles', palette: ['#1d4ed8', '#93c5fd'],
    modifiers: ['Educational', 'Soft', 'Classic'],
    blurb: 'Safe, non-toxic materials; a great gift for ages 3 and up.',
    bases: [
      { noun: 'Plush Teddy Bear', kind: 'bear', cost: 4.9, options: 'color' },
      { noun: 'Magic Speed Cube', kind: 'cube', cost: 2.2, options: 'color' },
      { noun: 'Building Blocks Set', kind: 'cube', cost: 8.8, options: 'color' },
      { noun: 'Picture Story Book', kind: 'book', cost: 3.4, options: 'color' },
      { noun: 'Kids Ball Set', kind: 'ball', cost: 5.6, options: 'color' },
      { noun: 'Stuffed Animal Pillow', kind: 'bear', cost: 6.5, options: 'color' },
      { noun: 'Puzzle Cube Keychain', kind: 'cube', cost: 1.4, options: 'color' },
    ],
  },
  {
    first: 'Computer & Office', second: 'Office & School Supplies', name: 'Notebooks & Stationery', palette: ['#334155', '#94a3b8'],
    modifiers: ['A5', 'Leather', 'Minimalist'],
    blurb: 'Thick paper that stops ink bleeding through; lies flat when open.',
    bases: [
      { noun: 'Spiral Notebook', kind: 'notebook', cost: 1.9, options: 'color' },
      { noun: 'Journal Diary', kind: 'book', cost: 3.8, options: 'color' },
      { noun: 'Planner Organizer', kind: 'notebook', cost: 4.5, options: 'color' },
      { noun: 'Sketchbook', kind: 'book', cost: 3.1, options: 'color' },
      { noun: 'Pencil Case Pouch', kind: 'bag', cost: 2.4, options: 'color' },
      { noun: 'School Backpack', kind: 'backpack', cost: 7.7, options: 'color' },
      { noun: 'Desk Organizer Chair Pad', kind: 'chair', cost: 5.0, options: 'color' },
    ],
  },
  {
    first: 'Jewelry & Watches', second: 'Fashion Accessories', name: 'Watches & Sunglasses', palette: ['#be123c', '#fda4af'],
    modifiers: ['Polarized', 'Retro', 'Luxury Style'],
    blurb: 'UV400 protection and scratch-resistant finishes; gift box included.',
    bases: [
      { noun: 'Aviator Sunglasses', kind: 'sunglasses', cost: 3.5, options: 'color' },
      { noun: 'Round Sunglasses', kind: 'sunglasses', cost: 3.2, options: 'color' },
      { noun: 'Quartz Wrist Watch', kind: 'watch', cost: 8.4, options: 'color' },
      { noun: 'Digital Sports Watch', kind: 'watch', cost: 6.9, options: 'color' },
      { noun: 'Cat Eye Sunglasses', kind: 'sunglasses', cost: 3.7, options: 'color' },
      { noun: 'Leather Strap Watch', kind: 'watch', cost: 9.9, options: 'color' },
      { noun: 'Jewelry Travel Case', kind: 'bag', cost: 4.3, options: 'color' },
    ],
  },
];

const COLORS: Array<{ name: string; palette: [string, string] }> = [
  { name: 'Black', palette: ['#111827', '#4b5563'] },
  { name: 'White', palette: ['#64748b', '#cbd5e1'] },
  { name: 'Red', palette: ['#991b1b', '#f87171'] },
  { name: 'Blue', palette: ['#1e3a8a', '#60a5fa'] },
  { name: 'Green', palette: ['#14532d', '#4ade80'] },
  { name: 'Pink', palette: ['#9d174d', '#f9a8d4'] },
  { name: 'Beige', palette: ['#78350f', '#e7c9a0'] },
  { name: 'Purple', palette: ['#4c1d95', '#c4b5fd'] },
];
const SIZES = ['S', 'M', 'L', 'XL', 'XXL'];
const SHOE_SIZES = ['38', '39', '40', '41', '42', '43'];


/** A CJ-style id: upper-case UUID (never 24 hex characters, which mark saved products). */
function uuid(rand: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16)).join('').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89AB'[Math.floor(rand() * 4)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const money = (n: number) => Math.round(n * 100) / 100;

export interface OfflineImage { name: string; kind: ShapeKind; palette: [string, string]; view: number }

export interface OfflineCatalogue {
  categories: CjCategoryData;
  products: CjProductData[];
  byPid: Map<string, CjProductData>;
  stock: Map<string, number>;
  /** What each image URL shows, by its file name (p12-0.webp). */
  images: Map<string, OfflineImage>;
}

let built: OfflineCatalogue | null = null;

/** The offline catalogue (built once per process). */
export function offlineCatalogue(): OfflineCatalogue {
  if (built) return built;
  const rand = mulberry32(20_250_310);
  const products: CjProductData[] = [];
  const stock = new Map<string, number>();
  const images = new Map<string, OfflineImage>();
  const categories: CjCategoryData = [];
  let index = 0;

  for (const [c, cat] of CATEGORIES.entries()) {
    const categoryId = uuid(rand);
    categories.push({
      categoryFirstName: cat.first,
      categoryFirstList: [{ categorySecondName: cat.second, categorySecondList: [{ categoryId, categoryName: cat.name }] }],
    });
    for (const base of cat.bases) {
      for (const modifier of cat.modifiers) {
        const i = index++;
        const pid = uuid(rand);
        const productNameEn = `${modifier} ${base.noun}`;
        const productSku = `CJ${String.fromCharCode(65 + c)}${String.fromCharCode(65 + (i % 26))}${String(1_000_000 + ((i * 7919) % 8_999_999)).slice(0, 7)}`;
        const cost = money(base.cost * (0.8 + rand() * 0.6));
        const file = (view: string) => `p${i}-${view}.webp`;
        for (const view of [0, 1, 2]) images.set(file(String(view)), { name: productNameEn, kind: base.kind, palette: cat.palette, view });
        const imageSet = [0, 1, 2].map((v) => `${OFFLINE_IMAGE_PREFIX}${file(String(v))}`);

        // 1-6 variants: colours, sizes or both.
        const count = 1 + Math.floor(rand() * 6);
        const firstColor = Math.floor(rand() * COLORS.length);
        const variants: CjProductData['variants'] = [];
        for (let v = 0; v < count; v += 1) {
          let key: string;
          let colour = COLORS[(firstColor + v) % COLORS.length]!;
          let extra = 0;
          if (base.options === 'size') {
            key = SIZES[v % SIZES.length]!;
            extra = v * 0.5;
          } else if (base.options === 'shoe') {
            key = SHOE_SIZES[v % SHOE_SIZES.length]!;
            colour = COLORS[firstColor]!;
          } else if (base.options === 'color-size') {
            colour = COLORS[(firstColor + Math.floor(v / 2)) % COLORS.length]!;
            const size = SIZES[(v % 2) + 1]!;
            key = `${colour.name}-${size}`;
            extra = v % 2 === 1 ? 0.6 : 0;
          } else {
            key = colour.name;
            extra = v >= 3 ? 0.8 : 0;
          }
          const vid = uuid(rand);
          images.set(file(`c${v}`), { name: productNameEn, kind: base.kind, palette: colour.palette, view: 1 });
          variants.push({
            vid,
            pid,
            variantNameEn: `${productNameEn} ${key}`,
            variantSku: `${productSku}-${key.toUpperCase()}`,
            variantKey: key,
            variantImage: `${OFFLINE_IMAGE_PREFIX}${file(`c${v}`)}`,
            variantSellPrice: money(cost + extra),
          });
          // Mostly plenty in stock; a few sold out.
          stock.set(vid, rand() < 0.08 ? 0 : 20 + Math.floor(rand() * 2000));
        }
        const prices = variants.map((v) => Number(v.variantSellPrice));
        const min = Math.min(...prices);
        const max = Math.max(...prices);
        products.push({
          pid,
          productNameEn,
          productSku,
          bigImage: imageSet[0]!,
          productImage: JSON.stringify(imageSet),
          productImageSet: imageSet,
          sellPrice: min === max ? min.toFixed(2) : `${min.toFixed(2)} -- ${max.toFixed(2)}`,
          categoryId,
          categoryName: `${cat.first} > ${cat.second} > ${cat.name}`,
          description: `<p>${productNameEn}. ${cat.blurb}</p><p>Package includes: 1 x ${base.noun}.</p>`,
          variants,
          productWeight: String(100 + Math.floor(rand() * 900)),
          productType: 'ORDINARY_PRODUCT',
          createTime: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString(),
        });
      }
    }
  }
  // Listed like a real catalogue: the categories interleaved, not one after another.
  const perCategory = CATEGORIES[0]!.bases.length * 3;
  const listed = products
    .map((p, i) => ({ p, key: (i % perCategory) * CATEGORIES.length + Math.floor(i / perCategory) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.p);
  products.splice(0, products.length, ...listed);
  built = { categories, products, byPid: new Map(products.map((p) => [p.pid, p])), stock, images };
  return built;
}

/** A product as product/list shows it: one image URL, no variants. */
export function toListProduct(p: CjProductData): CjListProduct {
  return {
    pid: p.pid,
    productNameEn: p.productNameEn,
    productSku: p.productSku,
    productImage: p.bigImage,
    sellPrice: p.sellPrice,
    categoryId: p.categoryId,
    categoryName: p.categoryName,
    productWeight: p.productWeight,
    productType: p.productType,
    createTime: p.createTime,
  };
}

/** Stock of a variant as product/stock/queryByVid answers it. */
export function offlineStock(vid: string): CjStockData {
  const n = offlineCatalogue().stock.get(vid);
  if (n === undefined) return [];
  return [{ vid, areaId: 1, areaEn: 'China Warehouse', countryCode: 'CN', storageNum: n, totalInventoryNum: n }];
}

/** Renders one offline image (WebP) by its file name; null for an unknown name. */
export async function renderOfflineImage(fileName: string): Promise<Buffer | null> {
  const image = offlineCatalogue().images.get(fileName);
  if (!image) return null;
  return renderImage(productImageSvg({ name: image.name, brand: IMAGE_LABEL, kind: image.kind }, image.palette, image.view));
}
