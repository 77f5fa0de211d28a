import { like } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { UPLOADS_URL_PREFIX, type StoredFile, type StoredFileInfo, type UploadStore } from '../../modules/uploads/upload-store.ts';
import type { Db } from '../client.ts';
import { products } from '../schema.ts';
import { DEMO_CATALOGUE } from './catalogue-data.ts';
import { productImageSvg, renderImage } from './catalogue-images.ts';

/**
 * The demo catalogue's images (three views of each product) are not rendered while seeding: the
 * seed only writes the products with their image URLs, and each image is drawn the first time it is
 * asked for (the upload store returned by withDemoImages), or by fillDemoImages after the server is
 * ready. So a fresh start neither waits for nor loads the image encoder (libvips), and a storefront
 * opened at once still shows every image: a missing one is rendered while its request waits.
 */

export const demoSlug = (s: string) => s.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
export const DEMO_VIEWS = [0, 1, 2] as const;
/** The upload key of view `view` (0 = the main image) of the demo product with slug `slug`. */
export const demoImageKey = (slug: string, view: number) => `seed-${slug}${view === 0 ? '' : `-${view + 1}`}.webp`;

let svgByKey: Map<string, () => string> | undefined;
/** Every demo image key, with the drawing of each (built on first use). */
function demoImages(): Map<string, () => string> {
  if (!svgByKey) {
    svgByKey = new Map();
    for (const category of DEMO_CATALOGUE) {
      for (const item of category.products) {
        for (const view of DEMO_VIEWS) svgByKey.set(demoImageKey(demoSlug(item.name), view), () => productImageSvg(item, category.palette, view));
      }
    }
  }
  return svgByKey;
}

export const isDemoImageKey = (key: string) => demoImages().has(key);
export const demoImageKeys = () => [...demoImages().keys()];

/**
 * `store`, with the demo images it lacks drawn on demand: a get, head or has of a demo image key
 * that is not stored renders the image, stores it and answers as if it had been there (one render
 * per key however many requests ask at once). Every other key, and list(), is the store's own.
 */
export interface DemoImageStore extends UploadStore {
  /** Draws and stores the demo image `key` when it is missing; false when `key` is not a demo image. */
  ensure(key: string): Promise<boolean>;
}

export const isDemoImageStore = (store: UploadStore): store is DemoImageStore => typeof (store as Partial<DemoImageStore>).ensure === 'function';

export function withDemoImages(store: UploadStore): DemoImageStore {
  const pending = new Map<string, Promise<void>>();
  /** Stores the demo image `key` when it is missing; true when `key` is a demo image (now stored). */
  async function ensure(key: string): Promise<boolean> {
    const draw = demoImages().get(key);
    if (!draw) return false;
    let job = pending.get(key);
    if (!job) {
      job = (async () => {
        if (await store.has(key)) return;
        await store.put(key, await renderImage(draw()), 'image/webp');
      })().finally(() => pending.delete(key));
      pending.set(key, job);
    }
    await job;
    return true;
  }
  async function orDraw<T>(key: string, read: () => Promise<T | null>): Promise<T | null> {
    const found = await read();
    if (found !== null || !(await ensure(key))) return found;
    return read();
  }
  return {
    kind: store.kind,
    put: (key, body, contentType) => store.put(key, body, contentType),
    get: (key) => orDraw<StoredFile>(key, () => store.get(key)),
    head: (key) => orDraw<StoredFileInfo>(key, () => store.head(key)),
    has: async (key) => (await store.has(key)) || (await ensure(key)),
    remove: (key) => store.remove(key),
    list: () => store.list(),
    ensure,
  };
}

/**
 * Renders and stores, one at a time, the demo images of the seeded products that are not stored
 * yet (the store then holds every image, for backups and instances without the demo seed). Stops
 * early when `stopped()` turns true (shutdown). Returns the number of images rendered.
 */
export async function fillDemoImages(
  store: DemoImageStore,
  referenced: Set<string>,
  stopped: () => boolean,
  log?: Pick<FastifyBaseLogger, 'info'>,
): Promise<number> {
  const stored = new Set(await store.list());
  const missing = demoImageKeys().filter((k) => referenced.has(k) && !stored.has(k));
  let rendered = 0;
  for (const key of missing) {
    if (stopped()) break;
    await store.ensure(key);
    rendered += 1;
  }
  if (rendered) log?.info({ images: rendered }, 'rendered the demo catalogue images');
  return rendered;
}

/** The demo image keys that products show (as main image or in their gallery). */
export async function referencedDemoImageKeys(db: Db): Promise<Set<string>> {
  const rows = await db.select({ image: products.image, images: products.images }).from(products)
    .where(like(products.image, `${UPLOADS_URL_PREFIX}seed-%`));
  return new Set(rows.flatMap((r) => [r.image, ...r.images])
    .filter((url) => url.startsWith(UPLOADS_URL_PREFIX)).map((url) => url.slice(UPLOADS_URL_PREFIX.length))
    .filter(isDemoImageKey));
}
