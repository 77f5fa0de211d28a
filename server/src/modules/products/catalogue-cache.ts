/**
 * A small in-process cache for catalogue reads that are costly and change rarely: result counts of
 * search filters and the category list. Entries live a few seconds and are dropped at once when
 * this instance changes the catalogue; another instance's change shows within the TTL. Concurrent
 * misses on one key share one load (request coalescing).
 *
 * With `staleMs` (the page cache), an entry past its TTL is still answered for that long while one
 * load refreshes it in the background (stale-while-revalidate): a busy page never waits for its
 * render once it has been rendered. A refresh that fails keeps the stale entry until `staleMs` ends;
 * clear() drops stale entries too, so a product write is never answered from before it.
 */
export interface CatalogueCache {
  remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
  clear(): void;
  readonly size: number;
}

const MAX_ENTRIES = 5_000;

interface Entry {
  expires: number;
  value: Promise<unknown>;
  /** A background refresh of a stale entry under way. */
  refreshing?: boolean;
}

export function createCatalogueCache(now: () => number = Date.now, maxEntries = MAX_ENTRIES, staleMs = 0): CatalogueCache {
  const entries = new Map<string, Entry>();
  let generation = 0;
  /** Whether the entry's value has settled successfully (a pending or failed one is never served stale). */
  const settled = new WeakSet<Promise<unknown>>();

  const trim = () => {
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
  };

  /** Starts `load` for `key`, kept unless it fails or a clear() happened meanwhile. */
  const start = <T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> => {
    const started = generation;
    const value = load();
    entries.set(key, { expires: now() + ttlMs, value });
    const forget = () => {
      if (entries.get(key)?.value === value) entries.delete(key);
    };
    value.then(() => {
      if (generation !== started) forget();
      else settled.add(value);
    }, forget);
    trim();
    return value;
  };

  /** Refreshes a stale entry in the background; the stale value is answered meanwhile. */
  const refresh = <T>(key: string, hit: Entry, ttlMs: number, load: () => Promise<T>) => {
    hit.refreshing = true;
    const started = generation;
    let next: Promise<T>;
    try {
      next = load();
    } catch {
      hit.refreshing = false;
      return;
    }
    next.then((value) => {
      if (generation !== started || entries.get(key) !== hit) return;
      const fresh = Promise.resolve(value);
      settled.add(fresh);
      entries.delete(key); // re-inserted last: the newest entry is trimmed last
      entries.set(key, { expires: now() + ttlMs, value: fresh });
    }, () => {
      hit.refreshing = false;
    });
  };

  return {
    remember<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      const at = now();
      if (hit && hit.expires > at) return hit.value as Promise<T>;
      if (hit && staleMs > 0 && at < hit.expires + staleMs && settled.has(hit.value)) {
        if (!hit.refreshing) refresh(key, hit, ttlMs, load);
        return hit.value as Promise<T>;
      }
      if (hit) entries.delete(key);
      return start(key, ttlMs, load);
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
/**
 * How long past its TTL a page is still served while one render refreshes it. Product writes on
 * this instance clear it at once; another instance's write shows within TTL + this.
 */
export const PAGE_STALE_MS = 10_000;
const pageCaches = new WeakMap<object, CatalogueCache>();

/**
 * The micro-cache of anonymous visitors' server-rendered pages (lib/spa.ts) of one database handle:
 * the catalogue cache's mechanism with fewer entries (pages are large) and stale-while-revalidate,
 * cleared with it by notifyCatalogueChanged.
 */
export function pageCacheFor(db: object): CatalogueCache {
  let cache = pageCaches.get(db);
  if (!cache) {
    cache = createCatalogueCache(Date.now, PAGE_CACHE_ENTRIES, PAGE_STALE_MS);
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
