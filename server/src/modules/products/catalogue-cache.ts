/**
 * A small in-process cache for catalogue reads that are costly and change rarely: result counts of
 * search filters and the category list. Entries live a few seconds and are dropped at once when
 * this instance changes the catalogue; another instance's change shows within the TTL. Concurrent
 * misses on one key share one query.
 */
export interface CatalogueCache {
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
  clear(): void;
  readonly size: number;
}

const MAX_ENTRIES = 5_000;

export function createCatalogueCache(now: () => number = Date.now, maxEntries = MAX_ENTRIES): CatalogueCache {
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>();
  let generation = 0;
  return {
    remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.value as Promise<T>;
      if (hit) entries.delete(key);
      const started = generation;
      const value = load();
      entries.set(key, { expires: now() + ttlMs, value });
      // A failed load is not cached; a load that raced with clear() is not kept either.
      const forget = () => {
        if (entries.get(key)?.value === value) entries.delete(key);
      };
      value.then(() => {
        if (generation !== started) forget();
      }, forget);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return value;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

const caches = new WeakMap<object, CatalogueCache>();

/** The catalogue cache of one database handle (one per app instance). */
export function catalogueCacheFor(db: object): CatalogueCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createCatalogueCache();
    caches.set(db, cache);
  }
  return cache;
}

/** Server-rendered storefront pages are about 50 KB each: at most this many are kept (25 MB or so). */
const PAGE_CACHE_ENTRIES = 500;
const pageCaches = new WeakMap<object, CatalogueCache>();

/**
 * The micro-cache of anonymous visitors' server-rendered pages (lib/spa.ts) of one database handle:
 * the catalogue cache's mechanism with fewer entries (pages are large), cleared with it by
 * notifyCatalogueChanged.
 */
export function pageCacheFor(db: object): CatalogueCache {
  let cache = pageCaches.get(db);
  if (!cache) {
    cache = createCatalogueCache(Date.now, PAGE_CACHE_ENTRIES);
    pageCaches.set(db, cache);
  }
  return cache;
}

/**
 * Call after writing products (create, update, delete, reviews, supplier imports) with `app.ctx.db`
 * so that this instance's counts and categories are fresh at once.
 */
export function notifyCatalogueChanged(db: object): void {
  caches.get(db)?.clear();
  pageCaches.get(db)?.clear();
}
